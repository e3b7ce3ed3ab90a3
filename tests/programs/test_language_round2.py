"""The program family's everyday sentences of issue 20's second round: rest said between an
exercise's sets, a load said after sets and reps (in the exercise's own unit when none is said),
"something else" asked about (never a guessed swap), "no more squats" for the workouts still ahead,
a reason said before a skip (kept in the proposal's words), and "too heavy" asked about."""

from __future__ import annotations

import pytest

from programs.models import Exercise, Session
from programs.tools.nl_instead import alternatives

from .language_support import build_world, calls, ex, say

pytestmark = pytest.mark.django_db

WEEKS = (1, 2, 3, 4)


@pytest.fixture
def built(db):
    return build_world()


@pytest.mark.parametrize(
    ("message", "session", "seconds"),
    [
        ("rest 90 seconds between bench sets", 2, 90),
        ("rest 3 mins between squat sets", 1, 180),
        ("rest 90 sec between sets of leg press", 1, 90),
    ],
)
def test_rest_between_an_exercises_sets(built, message, session, seconds):
    number = {"bench": 1, "squat": 1, "leg press": 3}[
        next(k for k in ("bench", "squat", "leg press") if k in message)
    ]
    assert calls(say(built, message)) == [
        ex(w, session, number, restSeconds=seconds) for w in WEEKS
    ]


@pytest.mark.parametrize(
    ("message", "session", "number", "sets", "reps", "load"),
    [
        ("make the deadlifts 5 sets of 5 at 225", 3, 1, 5, "5", "225 lbs"),
        ("squats 5x5 @ 100kg from now on", 1, 1, 5, "5", "100 kg"),
        ("bench 4x6 at 185 lbs", 2, 1, 4, "6", "185 lbs"),
        ("overhead press 4 sets of 8 at 95", 2, 3, 4, "8", "95 lbs"),
    ],
)
def test_sets_reps_and_a_load_in_one_sentence(built, message, session, number, sets, reps, load):
    assert calls(say(built, message)) == [
        ex(w, session, number, workingSets=sets, reps=reps, targetLoad=load) for w in WEEKS
    ]


def test_a_load_without_its_unit_takes_the_exercises_own_unit(built):
    Exercise.objects.filter(session__week__program=built.program, name="Deadlift").update(
        target_load="100 kg"
    )
    assert calls(say(built, "deadlifts 5x3 at 140")) == [
        ex(w, 3, 1, workingSets=5, reps="3", targetLoad="140 kg") for w in WEEKS
    ]


def test_a_load_without_a_unit_in_a_program_without_units_stays_as_said(built):
    Exercise.objects.filter(session__week__program=built.program).update(target_load="")
    assert calls(say(built, "deadlifts 5x3 at 140")) == [
        ex(w, 3, 1, workingSets=5, reps="3", targetLoad="140") for w in WEEKS
    ]


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("i hate overhead press, give me something else", "Overhead Press"),
        ("i dont like face pulls, swap them for something else", "Face Pull"),
        ("swap squats for something else", "Back Squat"),
        ("can you replace the leg press", "Leg Press"),
        ("i want to change the barbell rows", "Barbell Row"),
        ("give me something else instead of face pulls", "Face Pull"),
        ("i hate deadlifts so give me something different", "Deadlift"),
    ],
)
def test_something_else_unnamed_is_a_question_never_a_swap(built, message, name):
    result = say(built, message)
    assert result is not None and not result.calls
    assert result.ask is not None and name in result.ask.question
    assert result.ask.question.endswith("?")
    assert result.ask.options, "the chips offer alternatives of the same movement"
    for option in result.ask.options:
        assert option.startswith(f"swap {name} for ")


def test_the_chips_skip_what_the_session_already_has(built):
    # Back Squat's alternatives include Leg Press, which Monday already has
    result = say(built, "swap squats for something else")
    assert "swap Back Squat for Leg Press" not in result.ask.options
    assert "Leg Press" in alternatives("Back Squat")


def test_a_chip_tapped_is_the_swap_it_names(built):
    result = say(built, "i hate overhead press, give me something else")
    chip = result.ask.options[0]
    new = chip.removeprefix("swap Overhead Press for ")
    assert calls(say(built, chip)) == [ex(w, 2, 3, name=new) for w in WEEKS]


def test_an_exercise_of_no_listed_pattern_gets_the_question_alone(built):
    Exercise.objects.filter(session__week__program=built.program, name="Farmer Carry").update(
        name="Sled Push"
    )
    result = say(built, "give me something else instead of sled push")
    assert result.ask is not None and not result.ask.options and not result.calls


def _ahead(built, session: int) -> list[int]:
    """The weeks whose ``session`` is today or later."""
    return [
        s.week.position
        for s in Session.objects.filter(week__program=built.program, position=session)
        if s.scheduled_date is None or s.scheduled_date >= built.today
    ]


@pytest.mark.parametrize(
    ("message", "session", "number"),
    [("no more planks", 1, 4), ("no more squats", 1, 1), ("stop doing face pulls", 2, 4)],
)
def test_no_more_removes_it_from_the_workouts_still_ahead(built, message, session, number):
    assert calls(say(built, message)) == [
        ("remove_exercise", {"weekNumber": w, "sessionNumber": session, "exerciseNumber": number})
        for w in _ahead(built, session)
    ]


def test_no_more_of_a_word_fitting_two_exercises_asks_which(built):
    result = say(built, "no more rows")
    assert result.ask is not None and not result.calls
    assert set(result.ask.options) == {"no more Barbell Row", "no more Dumbbell Row"}


def test_no_more_with_a_time_said_first_is_not_taken_for_a_reason(built):
    result = say(built, "from next week no more squats")
    assert result is None or not any(c.arguments.get("weekNumber") == 1 for c in result.calls)


@pytest.mark.parametrize(
    ("message", "session", "number", "reason"),
    [
        (
            "my shoulder is killing me, skip overhead press on wednesday",
            2,
            3,
            "my shoulder is killing me",
        ),
        ("my elbow is sore so skip the bench on wednesday", 2, 1, "my elbow is sore"),
        ("skip the last exercise on friday because no time", 3, 4, "no time"),
    ],
)
def test_a_skip_keeps_its_reason_in_its_words_not_in_the_exercise(
    built, message, session, number, reason
):
    result = say(built, message)
    assert calls(result) == [ex(1, session, number, skipped=True)]
    assert f"({reason})" in result.calls[0].description


@pytest.mark.parametrize(
    "message",
    ["on wednesday i'm busy so skip deadlifts", "monday is packed, skip squats"],
)
def test_a_reason_said_first_that_names_a_day_is_not_taken_for_a_reason(built, message):
    result = say(built, message)
    assert result is None or not result.calls


@pytest.mark.parametrize(
    ("message", "how"), [("ohp feels too heavy", "light"), ("squats are way too easy", "heavy")]
)
def test_too_heavy_without_a_load_asks_how_light(built, message, how):
    result = say(built, message)
    assert result.ask is not None and not result.calls
    assert f"How {how}?" in result.ask.question


def test_plural_of_a_name_ending_in_y(built):
    assert calls(say(built, "on friday do the farmer carries first")) == [
        (
            "reorder_exercises",
            {"weekNumber": 1, "sessionNumber": 3, "exerciseNumber": 4, "newPosition": 1},
        )
    ]


@pytest.mark.parametrize(
    "message",
    [
        "swap overhead press for something easier on the shoulders",
        "replace squats with anything but lunges",
        "swap bench for a different press",
        "swap bench for another press variation",
    ],
)
def test_a_swap_to_no_exercise_named_asks_instead_of_naming_one(built, message):
    result = say(built, message)
    assert result is not None and not result.calls and result.ask is not None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("drop squats to 3 sets", [ex(w, 1, 1, workingSets=3) for w in WEEKS]),
        ("up the bench to 4 sets", [ex(w, 2, 1, workingSets=4) for w in WEEKS]),
        (
            "the second exercise on monday should be 4x8",
            [ex(1, 1, 2, workingSets=4, reps="8")],
        ),
    ],
)
def test_more_verbs_and_shapes_for_sets_and_reps(built, message, expected):
    assert calls(say(built, message)) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("put 2 more reps on leg press", [ex(w, 1, 3, reps="10-12") for w in WEEKS]),
        ("add two reps to the squats", [ex(w, 1, 1, reps="10-12") for w in WEEKS]),
        ("take 1 rep off bench", [ex(w, 2, 1, reps="7-9") for w in WEEKS]),
    ],
)
def test_a_counted_number_of_reps_more_or_fewer(built, message, expected):
    assert calls(say(built, message)) == expected


@pytest.mark.parametrize(
    ("message", "session", "name"),
    [
        ("rename friday to full body blast", 3, "Full body blast"),
        ("rename the upper body workout to upper body strength", 2, "Upper body strength"),
        ("rename monday's workout to Leg Day", 1, "Leg Day"),
    ],
)
def test_a_new_session_name_starting_with_a_sessions_name_is_kept_whole(
    built, message, session, name
):
    assert calls(say(built, message)) == [
        ("modify_session", {"weekNumber": 1, "sessionNumber": session, "updates": {"name": name}})
    ]


@pytest.mark.parametrize(
    "message",
    ["swap bench for dips on wednesday and friday", "swap bench for dips until week 4"],
)
def test_a_new_name_holding_a_day_or_a_time_is_no_exercise(built, message):
    # "Dips on wednesday and friday" and "Dips until" (in week 4) were proposed as names
    result = say(built, message)
    assert result is None or not result.calls
