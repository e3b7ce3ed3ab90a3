"""Decisions are data: a modify's executor returns what it decided (``FieldUpdate``: each field's
old and new value, the object described before and as the write leaves it) and writes last; the
engine words it once, after the executor returns (``coach.tools.base.worded``)."""

import pytest
from django.db import transaction

from coach.engine import ToolContext
from coach.tools.base import FieldUpdate, worded
from coach.vocabulary import spelled
from programs.models import Exercise
from programs.tools.args import ModifyExerciseArgs
from programs.tools.exercises import modify_exercise
from programs.tools.lookups import describe_exercise
from tests.chat.helpers import first_exercise
from tests.coach.tool_helpers import apply, call, session_of, week_of

pytestmark = pytest.mark.django_db


def test_spelled_counts_one_and_many_with_the_one_plural():
    assert spelled(("Squat, ", (1, "warm-up set"), " and ", (2, "warm-up set"))) == (
        "Squat, 1 warm-up set and 2 warm-up sets"
    )
    assert spelled("as it is") == "as it is"


def test_the_executor_returns_its_change_as_data_and_has_written_it(program):
    exercise = first_exercise(program)
    args = ModifyExerciseArgs.model_validate(
        {
            "weekNumber": 1,
            "sessionNumber": 1,
            "exerciseNumber": 1,
            "updates": {"name": "Goblet Squat", "reps": exercise.reps},
        }
    )
    with transaction.atomic():
        update = modify_exercise(ctx=ToolContext.for_program(program), args=args)
    assert isinstance(update, FieldUpdate)
    # Every field sent, the unchanged one too: leaving it out is the wording's job.
    assert update.changes == [("name", "Back Squat", "Goblet Squat"), ("reps", "8-10", "8-10")]
    assert (update.where, update.target, update.name) == (
        "Week 1, Session 1, Exercise 1",
        "Week 1, Session 1, Exercise 1: Back Squat",
        "Back Squat",
    )
    assert Exercise.objects.get(pk=exercise.pk).name == "Goblet Squat"
    outcome = worded(update)
    assert outcome.summary == (
        'Week 1, Session 1, Exercise 1: "Back Squat" renamed to "Goblet Squat".'
    )
    assert (
        outcome.spoken
        == "Week 1, Session 1, Exercise 1 (Back Squat): name Back Squat → Goblet Squat."
    )
    assert outcome.details[0]["fields"] == [
        {"field": "name", "oldValue": "Back Squat", "newValue": "Goblet Squat"}
    ]


def test_the_after_description_is_the_exercise_as_the_write_left_it(program):
    """Described from the validated values before the write, it reads as the saved exercise does,
    one warm-up set or many."""
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=1,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"warmupSets": 3},
        ),
        call(
            "modify_exercise",
            weekNumber=1,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"warmupSets": 1, "restSeconds": 60, "skipped": True},
        ),
    )
    first, second = result.preview["details"]
    assert first["before"] == "Back Squat - 3 sets × 8-10 @ 135 lbs, 1 warm-up set, rest 120s"
    assert first["after"] == "Back Squat - 3 sets × 8-10 @ 135 lbs, 3 warm-up sets, rest 120s"
    assert second["before"] == first["after"]
    assert second["after"] == (
        "Back Squat - 3 sets × 8-10 @ 135 lbs, 1 warm-up set, rest 60s (skipped)"
    )
    assert second["after"] == spelled(describe_exercise(first_exercise(program)))


def test_a_session_s_and_a_week_s_changes_are_worded_by_the_engine(program):
    result = apply(
        program,
        call(
            "modify_session",
            weekNumber=1,
            sessionNumber=1,
            updates={"name": "Heavy day", "cardio": {"type": "zone2", "duration": 30}},
        ),
        call("modify_week", weekNumber=1, updates={"phase": week_of(program, 1).phase}),
        call("modify_week", weekNumber=2, updates={"startDate": "2026-11-10"}),
    )
    session, same_week, week = result.results
    assert session.summary == 'Week 1, Session 1: renamed to "Heavy day"; also changed cardio.'
    assert session.spoken == "Week 1, Session 1: renamed to Heavy day; also changed cardio."
    assert (same_week.summary, same_week.spoken) == (
        "Week 1: unchanged (the values were already set).",
        "",
    )
    assert (week.summary, week.spoken) == (
        "Week 2: changed startDate.",
        "Week 2: changed start date.",
    )
    detail = result.preview["details"][0]
    assert detail["after"] == "Heavy day (Monday, 2026-11-02) - 4 exercises, cardio: Zone 2, 30 min"
    assert session_of(program, 1, 1).name == "Heavy day"
