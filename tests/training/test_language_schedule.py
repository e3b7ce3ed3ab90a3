"""The schedule in everyday words (training.tools.language): sentences → the exact calls the
documented commands make, through the offline coach's ``understand`` over factory data; what could
mean two things is a question; what would change the wrong thing is never proposed."""

from __future__ import annotations

import pytest

from coach.llm.offline.grammar import Parsed
from tests.factories import SessionFactory

from .language_helpers import calls, grid, ref, say

pytestmark = pytest.mark.django_db


@pytest.fixture
def program():
    return grid()


def move(week: int, day: str, new_date: str, strategy: str = "swap"):
    return [
        (
            "reschedule_workout",
            {"workout_id": ref(week, day), "new_date": new_date, "strategy": strategy},
        )
    ]


@pytest.mark.parametrize(
    ("message", "new_date"),
    [
        ("I need to postpone tomorrow's workout to Friday next week", "2026-12-04"),
        ("push tomorrow's workout to the day after", "2026-11-28"),
        ("can I move tomorrow's session to Sunday?", "2026-11-29"),
        ("postpone tomorrow's workout by 3 days", "2026-11-30"),
        ("push tomorrows workout back by two days", "2026-11-29"),
        ("move tomorrow's workout to dec 3rd", "2026-12-03"),
        ("move tomorrow's workout to the 2nd of December", "2026-12-02"),
        ("reschedule tomorrow's session to 12/15", "2026-12-15"),
        ("bump tomorrow's workout a day", "2026-11-28"),
        ("postpne tomorow's workout to the day after", "2026-11-28"),
    ],
)
def test_tomorrows_workout_moves_to_the_day_said(program, message, new_date):
    assert calls(program, message) == move(2, "Lower Body B", new_date)


def test_a_session_named_by_its_name_and_weekday_moves(program):
    assert calls(program, "move the long run on sunday to saturday") == move(
        2, "Long Run", "2026-11-28"
    )


@pytest.mark.parametrize(
    "message", ["move my friday session to sunday", "move the friday workout to sunday"]
)
def test_a_session_named_by_its_weekday_as_an_adjective_moves(program, message):
    assert calls(program, message) == move(2, "Lower Body B", "2026-11-29")


def test_doing_tomorrows_workout_today_instead_moves_it_to_today(program):
    assert calls(program, "I'd like to do tomorrow's workout today instead") == move(
        2, "Lower Body B", "2026-11-26"
    )


def test_and_push_the_rest_pushes_every_later_session(program):
    assert calls(program, "push today's workout back a day and push the rest") == move(
        2, "Tempo Run", "2026-11-27", "push"
    )


def test_a_bare_weekday_to_come_is_this_weeks_and_next_monday_is_next_weeks(program):
    # The convention every family shares (day_of): the preview shows the date before Apply.
    assert calls(program, "move tomorrow's workout to sunday") == move(
        2, "Lower Body B", "2026-11-29"
    )
    assert calls(program, "move tomorrow's workout to next monday") == move(
        2, "Lower Body B", "2026-11-30"
    )
    assert calls(program, "move tomorrow's workout to this monday") == move(
        2, "Lower Body B", "2026-11-23"
    )


def test_a_bare_weekday_that_is_today_is_asked_with_both_dates(program):
    # Thursday: "thursday" is today or a week away. Asked, each chip understood as it reads.
    understood = say(program, "move tomorrow's workout to thursday")
    assert understood.ask is not None and not understood.calls
    first, second = understood.ask.options
    assert "today" in first and "December 3" in second
    for option in (first, second):
        assert calls(program, option)


@pytest.mark.parametrize(
    ("message", "tool", "key"),
    [
        ("move tomorrow's workout to monday", "reschedule_workout", "new_date"),
        ("add a 20 min easy run on monday", "create_custom_workout", "date"),
    ],
)
def test_a_bare_weekday_that_has_passed_is_the_next_one_in_a_change(program, message, tool, key):
    # Thursday: Monday has passed this week, and nothing is planned into the past.
    ((name, args),) = calls(program, message)
    assert name == tool and args[key] == "2026-11-30"


def test_a_passed_weekdays_session_is_asked_for_a_change_and_the_latest_for_done(program):
    understood = say(program, "skip monday's workout, im travelling")
    assert understood.ask is not None and not understood.calls
    assert "November 23" in understood.ask.question and "November 30" in understood.ask.question
    for week, option in zip((2, 3), understood.ask.options, strict=True):
        ((name, args),) = calls(program, option)
        assert name == "skip_workout" and args["workout_id"] == ref(week, "Lower Body A")
    # Done is about the past: Monday's session is this week's, already had.
    assert calls(program, "I did monday's workout") == [
        ("mark_workout_complete", {"workout_id": ref(2, "Lower Body A")})
    ]


def test_a_date_written_both_ways_is_a_question_naming_both(program):
    understood = say(program, "move tomorrow's workout to 12/5")
    assert understood.ask is not None and not understood.calls
    assert "December 5" in understood.ask.question and "May 12" in understood.ask.question
    assert understood.ask.options[0] == "move tomorrow's workout to December 5"
    assert calls(program, understood.ask.options[0]) == move(2, "Lower Body B", "2026-12-05")


def test_two_sessions_on_the_day_are_a_question_with_each_as_a_chip(program):
    week = program.weeks.get(position=2)
    SessionFactory(week=week, name="Mobility", scheduled_date=week.start_date.replace(day=27))
    understood = say(program, "move tomorrow's workout to saturday")
    assert understood.ask is not None and not understood.calls
    assert "Lower Body B" in understood.ask.question and "Mobility" in understood.ask.question
    chosen = calls(program, understood.ask.options[1])
    assert chosen == [
        (
            "reschedule_workout",
            {"workout_id": "week-2-session-8", "new_date": "2026-11-28", "strategy": "swap"},
        )
    ]


def test_a_day_with_nothing_planned_is_refused_in_words(program):
    understood = say(program, "skip the workout on January 20 because I'm away")
    assert understood.problem and "nothing planned" in understood.problem
    assert not understood.calls


@pytest.mark.parametrize(
    ("message", "day", "reason"),
    [
        ("skip today's workout, I'm travelling", "Tempo Run", "I'm travelling"),
        ("I've got a cold, skip tomorrow please", "Lower Body B", "I've got a cold"),
        ("I'm sick, please skip tomorrow's workout", "Lower Body B", "I'm sick"),
        ("cancel saturday's session because of a wedding", "Intervals", "a wedding"),
        ("skip the long run on sunday, my knee hurts", "Long Run", "my knee hurts"),
    ],
)
def test_a_skip_carries_the_reason_said(program, message, day, reason):
    assert calls(program, message) == [
        ("skip_workout", {"workout_id": ref(2, day), "reason": reason})
    ]


def test_a_reason_then_skip_it_is_one_skip(program):
    assert calls(program, "I won't make it tomorrow, work trip. skip it") == [
        ("skip_workout", {"workout_id": ref(2, "Lower Body B"), "reason": "work trip"})
    ]


def test_a_skip_without_a_reason_asks_why_with_chips_that_are_understood(program):
    understood = say(program, "skip tomorrow")
    assert understood.ask is not None and not understood.calls
    assert calls(program, understood.ask.options[0]) == [
        ("skip_workout", {"workout_id": ref(2, "Lower Body B"), "reason": "I'm sick"})
    ]


@pytest.mark.parametrize(
    "message",
    [
        "skip that exercise",
        "I can't do squats today, skip that exercise",
        "I did 3 sets of squats today",
        "move the bench press to tomorrow",
        "mark squats as done",
        "swap squats for lunges",
        "skip the warm up today",
    ],
)
def test_sentences_about_exercises_never_change_a_session(program, message):
    understood = say(program, message)
    names = {c.name for c in understood.calls} if understood else set()
    assert not names & {"skip_workout", "mark_workout_complete", "reschedule_workout"}


def test_it_with_nothing_named_before_asks_before_skipping_todays_session(program):
    understood = say(program, "I can't do squats today, skip it")
    assert understood.ask is not None and not understood.calls
    assert "Tempo Run" in understood.ask.question
    assert calls(program, understood.ask.options[0]) == [
        (
            "skip_workout",
            {"workout_id": ref(2, "Tempo Run"), "reason": "I can't do squats today"},
        )
    ]


def test_swapping_two_sessions_days(program):
    assert calls(program, "swap tomorrow's workout with saturday's") == move(
        2, "Lower Body B", "2026-11-28"
    )


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("please cancel the tempo run this week, I'm injured", ("skip", "Tempo Run")),
        ("I'm going to miss tomorrow's workout, my kid is sick", ("skip", "Lower Body B")),
        ("log today's workout as done", ("complete", "Tempo Run")),
        ("shift today's session to tomorrow and the rest too", ("push", "Tempo Run")),
        ("I can't train tomorrow, I'm sick", ("skip", "Lower Body B")),
        ("please move my workout from tomorrow to sunday", ("move", "Lower Body B")),
        ("could we postpone the intervals to next week", ("move", "Intervals")),
    ],
)
def test_more_everyday_forms(program, message, expected):
    [(name, arguments)] = calls(program, message)
    kind, day = expected
    tool = {"skip": "skip_workout", "complete": "mark_workout_complete"}.get(
        kind, "reschedule_workout"
    )
    assert (name, arguments["workout_id"]) == (tool, ref(2, day))
    if kind == "push":
        assert arguments["strategy"] == "push"


def test_push_back_without_a_day_asks_by_how_much(program):
    understood = say(program, "push back tomorrow's workout")
    assert understood.ask is not None and not understood.calls
    assert calls(program, understood.ask.options[0]) == move(2, "Lower Body B", "2026-11-28")


def test_it_is_the_session_the_conversation_just_named(program):
    earlier = Parsed(
        "reschedule_workout", {"workout_id": ref(3, "Easy Run"), "new_date": "2026-12-02"}, ""
    )
    assert calls(program, "skip it because I'm tired", said=[earlier]) == [
        ("skip_workout", {"workout_id": ref(3, "Easy Run"), "reason": "I'm tired"})
    ]


@pytest.mark.parametrize(
    ("message", "day", "extra"),
    [
        ("mark today's workout as done", "Tempo Run", {}),
        ("did yesterday's workout", "Upper Body A", {}),
        ("I finished yesterday's session, felt great, 5 stars", "Upper Body A", {"rating": 5}),
        ("just crushed today's workout! legs felt heavy though", "Tempo Run", {}),
        ("I did yesterday's workout, it felt strong. Mark it as done.", "Upper Body A", {}),
        ("completed monday's session, rated it 4/5", "Lower Body A", {"rating": 4}),
    ],
)
def test_completing_a_session(program, message, day, extra):
    [(name, arguments)] = calls(program, message)
    assert name == "mark_workout_complete"
    assert arguments["workout_id"] == ref(2, day)
    assert arguments.get("rating") == extra.get("rating")


def test_notes_are_kept_without_the_rating(program):
    [(_, arguments)] = calls(program, "I finished yesterday's session, felt great, 5 stars")
    assert arguments == {"workout_id": ref(2, "Upper Body A"), "rating": 5, "notes": "felt great"}


@pytest.mark.parametrize(
    "message",
    [
        "I can't make tomorrow's session, push it to friday",
        "I won't make it tomorrow, can we move it to saturday",
        "can't do today's workout, let's do it on sunday instead",
    ],
)
def test_a_move_said_after_i_cant_make_it_is_never_a_skip(program, message):
    """The worst outcome is a change other than the one asked: "push it to Friday" is no reason
    for a skip. It is a move, or a question, or not understood; never a skip."""
    understood = say(program, message)
    assert understood is None or not any(c.name == "skip_workout" for c in understood.calls)
