"""Preview and query counts: a preview of a mixed batch leaves the database as it was, describes
exactly what apply then does, and rolls back only its own work inside an outer transaction; the
queries per batch (apply or preview) do not grow with the number of weeks, and the export runs a
constant number of queries."""

import copy
import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coach.engine import ToolContext, apply_calls, preview_calls
from programs.export import export_program
from programs.models import Program
from tests.coach.tool_helpers import EXERCISE, apply, call, preview
from tests.factories import build_program

pytestmark = pytest.mark.django_db


# --- preview ------------------------------------------------------------------------------------

MIXED = [
    (
        "modify_exercise",
        {
            "weekNumber": 2,
            "sessionNumber": 1,
            "exerciseNumber": 3,
            "updates": {"name": "Goblet Squat", "targetLoad": "50 lbs"},
        },
    ),
    ("add_exercise", {"weekNumber": 2, "sessionNumber": 1, "position": 1, "exercise": EXERCISE}),
    (
        "reorder_exercises",
        {"weekNumber": 1, "sessionNumber": 2, "exerciseNumber": 1, "newPosition": 3},
    ),
    (
        "modify_session",
        {
            "weekNumber": 1,
            "sessionNumber": 1,
            "updates": {"cardio": {"type": "threshold", "duration": 20}},
        },
    ),
    ("copy_session", {"sourceWeekNumber": 1, "sourceSessionNumber": 1, "targetWeekNumber": 2}),
    ("modify_week", {"weekNumber": 2, "updates": {"phase": "Peak"}}),
    ("remove_session", {"weekNumber": 1, "sessionNumber": 3}),
]


def _mixed():
    return [call(name, **copy.deepcopy(args)) for name, args in MIXED]


def test_preview_leaves_the_database_unchanged(program):
    before = export_program(program)
    result = preview(program, *_mixed())
    assert result.success
    assert len(result.preview["details"]) == len(MIXED)
    assert export_program(program) == before
    assert program.version == 1


def test_preview_describes_exactly_what_apply_does(program):
    previewed = preview(program, *_mixed()).to_dict()
    applied = apply(program, *_mixed()).to_dict()
    for result in (previewed, applied):
        for item in result["results"]:
            item.pop("tool_call_id")
        for detail in result["preview"]["details"]:
            detail.pop("toolCallId")
    assert previewed["results"] == applied["results"]
    assert previewed["preview"] == applied["preview"]
    assert applied["program_version"] > previewed["program_version"]


def test_modify_preview_field_changes_match_the_export_after_apply(program):
    before = export_program(program)
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=2,
            updates={"reps": "5", "restSeconds": 180, "notes": "slow"},
        ),
    )
    after = export_program(program)
    expected = copy.deepcopy(before["weeks"][1]["sessions"][0]["exercises"][1])
    for change in result.preview["details"][0]["fields"]:
        assert expected[change["field"]] == change["oldValue"]
        expected[change["field"]] = change["newValue"]
    assert after["weeks"][1]["sessions"][0]["exercises"][1] == expected


def test_preview_of_a_failing_batch_says_so_in_the_summary(program):
    result = preview(program, call("remove_week", weekNumber=9))
    assert not result.success
    assert "can't be applied" in result.preview["summary"]


def test_preview_inside_an_outer_transaction_rolls_back_only_its_own_work(program):
    from django.db import transaction

    with transaction.atomic():
        Program.objects.filter(pk=program.pk).update(name="Renamed")
        preview(program, call("remove_week", weekNumber=2))
        assert Program.objects.get(pk=program.pk).name == "Renamed"
        assert program.weeks.count() == 2


# --- queries ------------------------------------------------------------------------------------


def _count_queries(program, runner):
    with CaptureQueriesContext(connection) as captured:
        result = runner(ctx=ToolContext.for_program(program), calls=_mixed())
    assert result.success, result.to_dict()
    return len(captured)


@pytest.mark.parametrize("runner", [apply_calls, preview_calls])
def test_queries_per_batch_do_not_grow_with_the_number_of_weeks(runner):
    # both reach past today, so both previews read the what-if of their future
    start = datetime.date.today() - datetime.timedelta(days=3)
    small = build_program(weeks=2, sessions=6, exercises=8, start_date=start)
    large = build_program(weeks=12, sessions=6, exercises=8, start_date=start)
    assert _count_queries(small, runner) == _count_queries(large, runner)


def test_export_runs_a_constant_number_of_queries(django_assert_num_queries):
    large = build_program(weeks=12, sessions=6, exercises=8)
    with django_assert_num_queries(5):
        data = export_program(large)
    assert len(data["weeks"]) == 12
