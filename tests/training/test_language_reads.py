"""Questions about training in everyday words (training.tools.language): each is the documented
read, with the dates and sport said, answered in words (the read's ``Outcome.spoken``)."""

from __future__ import annotations

import datetime

import pytest

from coach.tools.base import ToolContext
from tests.factories import ActivityFactory, SleepRecordFactory
from training.services import athlete_today, profile_for
from training.tools import reads
from training.tools.args import LastActivityArgs, SleepArgs

from .language_helpers import TODAY, calls, grid, say

pytestmark = pytest.mark.django_db


@pytest.fixture
def program():
    return grid()


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("analyze my last run", ("get_last_activity", {"activity_type": "RUNNING"})),
        ("Can you analyse my last run?", ("get_last_activity", {"activity_type": "RUNNING"})),
        ("what was my last bike ride like", ("get_last_activity", {"activity_type": "CYCLING"})),
        ("how did my last swim go", ("get_last_activity", {"activity_type": "SWIMMING"})),
        ("what did I do last time?", ("get_last_activity", {})),
        ("What did I do yesterday?", ("get_activity_by_date", {"date": "2026-11-25"})),
        (
            "what did I do the day before yesterday",
            ("get_activity_by_date", {"date": "2026-11-24"}),
        ),
        # A weekday asked about past training is the latest one: Friday, asked on a Thursday.
        ("what did I do on friday", ("get_activity_by_date", {"date": "2026-11-20"})),
        (
            "how was yesterday's run",
            ("get_activity_by_date", {"date": "2026-11-25", "activity_type": "RUNNING"}),
        ),
        (
            "show my runs from the last 30 days",
            (
                "get_activities_range",
                {"start_date": "2026-10-27", "end_date": "2026-11-26", "activity_type": "RUNNING"},
            ),
        ),
        ("how's my fitness?", ("get_fitness_scores", {})),
        ("What are my fitness, fatigue and form right now?", ("get_fitness_scores", {})),
        ("am I carrying a lot of fatigue right now?", ("get_fitness_scores", {})),
        ("how did I sleep last night", ("get_sleep_data", {"days": 1})),
        ("how much have I been sleeping this week?", ("get_sleep_data", {"days": 7})),
        ("show me my sleep for the last 3 weeks", ("get_sleep_data", {"days": 21})),
        (
            "what's my plan for the next two weeks?",
            ("get_training_plan", {"start_date": "2026-11-26", "end_date": "2026-12-09"}),
        ),
        (
            "what's planned for next week",
            ("get_training_plan", {"start_date": "2026-11-30", "end_date": "2026-12-06"}),
        ),
        # A day's or a week's sessions are the program's to tell (get_week, the sessions of that
        # day in words); the training plan answers ranges and dates ("the next two weeks").
        ("what do I have on saturday", ("get_week", {"weekNumber": 2, "dayOfWeek": "Saturday"})),
        ("how long was my last ride", ("get_last_activity", {"activity_type": "CYCLING"})),
        (
            "how far did I run over the past 2 weeks",
            (
                "get_activities_range",
                {"start_date": "2026-11-12", "end_date": "2026-11-26", "activity_type": "RUNNING"},
            ),
        ),
        (
            "show me what I did last week",
            ("get_activities_range", {"start_date": "2026-11-19", "end_date": "2026-11-26"}),
        ),
        ("is my form good right now", ("get_fitness_scores", {})),
        ("am I recovered enough to train hard?", ("get_fitness_scores", {})),
        ("how many hours did I sleep last night", ("get_sleep_data", {"days": 1})),
        ("how did I sleep on monday", ("get_sleep_data", {"days": 4})),
        ("what does next week look like", ("get_week", {"weekNumber": 3})),
        (
            "what's coming up this weekend",
            ("get_training_plan", {"start_date": "2026-11-28", "end_date": "2026-11-29"}),
        ),
        (
            "compare my training over the last two weeks",
            ("compare_activities", {"start_date": "2026-11-12", "end_date": "2026-11-26"}),
        ),
    ],
)
def test_a_question_is_the_read_it_names(program, message, expected):
    assert calls(program, message) == [expected]


def test_sleep_beyond_ninety_nights_names_the_bound(program):
    understood = say(program, "Show me my sleep for the last 200 nights")
    assert "90" in understood.problem and not understood.calls


def test_the_last_run_is_answered_in_words_never_json(program):
    ActivityFactory(athlete=program.athlete, sport="RUNNING", name="Easy run", local_date=TODAY)
    ctx = ToolContext(athlete=program.athlete, program=program, user=program.athlete)
    outcome = reads.get_last_activity(ctx=ctx, args=LastActivityArgs(activity_type="RUNNING"))
    assert outcome.spoken.startswith("Your last run:")
    assert "{" not in outcome.spoken and "km" in outcome.spoken


def test_last_nights_sleep_reads_as_one_sentence(program):
    # the read counts back from the athlete's real today, not the language tests' fixed one
    today = athlete_today(profile=profile_for(athlete=program.athlete))
    SleepRecordFactory(athlete=program.athlete, night=today)
    ctx = ToolContext(athlete=program.athlete, program=program, user=program.athlete)
    outcome = reads.get_sleep_data(ctx=ctx, args=SleepArgs(days=1))
    assert outcome.spoken.startswith("Last night") and "\n" not in outcome.spoken
    assert "{" not in outcome.spoken


@pytest.mark.parametrize(
    ("message", "days"),
    [
        ("how has my sleep been this month", 30),
        ("how much sleep have i been getting the last 2 weeks", 14),
        ("have i been getting enough sleep lately?", 7),
        ("how did i sleep over the last 3 weeks", 21),
        ("have i slept well this week", 7),
        ("how much have i slept this month", 30),
        ("how's my sleep quality been lately", 7),
        ("what's my sleep score over the past 2 weeks", 14),
    ],
)
def test_sleep_over_a_span_is_read_for_its_nights(program, message, days):
    assert calls(program, message) == [("get_sleep_data", {"days": days})]


def test_good_sleep_said_as_a_statement_is_no_sleep_read(program):
    understood = say(program, "i had good sleep")
    assert understood is None or not any(c.name == "get_sleep_data" for c in understood.calls)


@pytest.mark.parametrize(
    "message",
    [
        "how's my recovery looking",
        "whats my recovery status today",
        "am i recovering ok from this week?",
        "how recovered am i",
        "how is my body recovering",
    ],
)
def test_recovery_is_read_as_form_and_the_last_weeks_sleep(program, message):
    assert calls(program, message) == [("get_fitness_scores", {}), ("get_sleep_data", {"days": 7})]


def _activities(program):
    """Runs and rides on alternate days up to yesterday: the latest is a ride, then a run."""
    made = {}
    for back in range(1, 7):
        sport = "CYCLING" if back % 2 else "RUNNING"
        day = TODAY - datetime.timedelta(days=back)
        made[(sport, back)] = ActivityFactory(athlete=program.athlete, sport=sport, local_date=day)
    return made


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("compare my last two runs", [("RUNNING", 4), ("RUNNING", 2)]),
        ("can you compare my 2 most recent rides", [("CYCLING", 3), ("CYCLING", 1)]),
        ("how does my last run compare to the one before", [("RUNNING", 4), ("RUNNING", 2)]),
        ("compare my last ride with the previous one", [("CYCLING", 3), ("CYCLING", 1)]),
        ("how do my last 3 runs compare", [("RUNNING", 6), ("RUNNING", 4), ("RUNNING", 2)]),
        ("compare my last two workouts", [("RUNNING", 2), ("CYCLING", 1)]),
    ],
)
def test_the_latest_activities_of_the_sport_said_are_compared_oldest_first(
    program, message, expected
):
    made = _activities(program)
    ids = [made[key].pk for key in expected]
    assert calls(program, message) == [("compare_activities", {"activity_ids": ids})]


def test_comparing_with_fewer_than_two_recorded_says_so(program):
    ActivityFactory(athlete=program.athlete, sport="RUNNING", local_date=TODAY)
    understood = say(program, "compare my last two runs")
    assert not understood.calls and understood.problem == (
        "You have 1 run recorded; comparing needs 2."
    )


def test_comparing_more_than_the_tool_takes_names_the_bound(program):
    understood = say(program, "compare my last 20 runs")
    assert not understood.calls and "2 to 10" in understood.problem
