"""Questions about training in everyday words (training.tools.language): each is the documented
read, with the dates and sport said, answered in words (the read's ``Outcome.spoken``)."""

from __future__ import annotations

import pytest

from coach.tools.base import ToolContext
from tests.factories import ActivityFactory, SleepRecordFactory
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
    SleepRecordFactory(athlete=program.athlete, night=TODAY)
    ctx = ToolContext(athlete=program.athlete, program=program, user=program.athlete)
    outcome = reads.get_sleep_data(ctx=ctx, args=SleepArgs(days=1))
    assert outcome.spoken.startswith("Last night") and "\n" not in outcome.spoken
    assert "{" not in outcome.spoken
