"""The executor applying a batch: seed 000's testing scenarios 1-11 at the tool level, calls run
in order against the state so far, all or nothing (a failing call, or an unexpected database
error, writes nothing), each change bumping the program version, and STALE when the expected
version is out of date."""

import pytest

from coach.engine import apply_calls
from coach.tools.base import ToolContext, ToolStateError
from programs import services
from programs.export import export_program
from programs.models import Exercise, Program
from tests.coach.tool_helpers import (
    EXERCISE,
    apply,
    call,
    error_codes,
    exercise_names,
    session_of,
)

pytestmark = pytest.mark.django_db


# --- seed 000 testing scenarios 1-11 at the tool level (12, bad JSON: test_engine_registry.py) -


def test_scenario_1_modify_exercise_name_keeps_id(program):
    ex = Exercise.objects.get(session=session_of(program, 2, 1), position=1)
    assert apply(
        program,
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"name": "Lunges"},
        ),
    ).success
    ex.refresh_from_db()
    assert (ex.name, ex.ref) == ("Lunges", "week-2-session-1-exercise-1")


def test_scenario_2_add_exercise_after_exercise_2(program):
    assert apply(
        program,
        call(
            "add_exercise",
            weekNumber=2,
            sessionNumber=1,
            position=3,
            exercise={**EXERCISE, "name": "Bench Press"},
        ),
    ).success
    assert exercise_names(program, 2, 1)[2] == "Bench Press"
    assert len(exercise_names(program, 2, 1)) == 5


def test_scenario_3_remove_last_exercise_needs_no_renumbering(program):
    assert apply(
        program, call("remove_exercise", weekNumber=2, sessionNumber=1, exerciseNumber=4)
    ).success
    assert exercise_names(program, 2, 1) == ["Back Squat", "Bench Press", "Barbell Row"]


def test_scenario_4_modify_session_name(program):
    assert apply(
        program,
        call("modify_session", weekNumber=1, sessionNumber=1, updates={"name": "Push Day A"}),
    ).success
    assert session_of(program, 1, 1).name == "Push Day A"


def test_scenario_5_two_modifies_of_one_exercise_both_apply_with_a_warning(program):
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"name": "Lunges"},
        ),
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"reps": "12"},
        ),
    )
    assert result.success
    ex = Exercise.objects.get(session=session_of(program, 2, 1), position=1)
    assert (ex.name, ex.reps) == ("Lunges", "12")
    assert result.preview["warnings"] == [
        "Two changes touch Week 2, Session 1, Exercise 1; they will be applied in order."
    ]


def test_scenario_6_and_phase_7_remove_then_add_at_1_replaces_the_original(program):
    result = apply(
        program,
        call("remove_exercise", weekNumber=2, sessionNumber=1, exerciseNumber=1),
        call(
            "add_exercise",
            weekNumber=2,
            sessionNumber=1,
            position=1,
            exercise={**EXERCISE, "name": "Pull-up"},
        ),
    )
    assert result.success
    assert exercise_names(program, 2, 1) == [
        "Pull-up",
        "Bench Press",
        "Barbell Row",
        "Romanian Deadlift",
    ]


def test_phase_7_wrong_order_removes_the_new_exercise(program):
    result = apply(
        program,
        call(
            "add_exercise",
            weekNumber=2,
            sessionNumber=1,
            position=1,
            exercise={**EXERCISE, "name": "Pull-up"},
        ),
        call("remove_exercise", weekNumber=2, sessionNumber=1, exerciseNumber=1),
    )
    assert result.success
    assert exercise_names(program, 2, 1)[0] == "Back Squat"


def test_scenario_7_add_deload_week_after_week_1(program):
    week = {
        "phase": "Deload",
        "startDate": "2026-11-09",
        "endDate": "2026-11-15",
        "sessions": [{"name": "Light full body", "exercises": [EXERCISE]}],
    }
    assert apply(program, call("add_week", position=2, weeks=[week])).success
    assert [w["phase"] for w in export_program(program)["weeks"]] == [
        "Accumulation",
        "Deload",
        "Accumulation",
    ]


def test_scenario_8_skip_exercise(program):
    assert apply(
        program,
        call(
            "modify_exercise",
            weekNumber=1,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"skipped": True},
        ),
    ).success
    assert export_program(program)["weeks"][0]["sessions"][0]["exercises"][0]["skipped"] is True


def test_scenario_9_cardio_only_session(program):
    assert apply(
        program,
        call(
            "add_session",
            weekNumber=1,
            position="end",
            session={
                "name": "Zone 2",
                "exercises": [],
                "dayOfWeek": "Saturday",
                "cardio": {"type": "zone2", "duration": 30},
            },
        ),
    ).success
    session = export_program(program)["weeks"][0]["sessions"][-1]
    assert session["exercises"] == [] and session["cardio"]["duration"] == 30


def test_scenario_10_rest_day(program):
    assert apply(
        program,
        call(
            "add_session",
            weekNumber=1,
            position="end",
            session={"name": "Rest", "exercises": [], "dayOfWeek": "Sunday"},
        ),
    ).success
    session = export_program(program)["weeks"][0]["sessions"][-1]
    assert session["exercises"] == [] and session["cardio"] is None


def test_scenario_11_invalid_reference_is_an_error_and_changes_nothing(program):
    before = export_program(program)
    result = apply(
        program, call("remove_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=10)
    )
    assert not result.success
    assert "has only 4 exercises" in result.results[0].errors[0].message
    assert export_program(program) == before


# --- all or nothing -----------------------------------------------------------------------------


def test_partial_failure_writes_nothing_and_reports_both_calls(program):
    before = export_program(program)
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"name": "Lunges"},
        ),
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=9,
            updates={"workingSets": 4},
        ),
    )
    assert not result.success
    assert [r.success for r in result.results] == [True, False]
    assert error_codes(result) == [[], ["NOT_FOUND"]]
    assert export_program(program) == before
    assert Program.objects.get(pk=program.pk).version == 1


def test_calls_after_a_failure_are_still_checked_against_the_state_so_far(program):
    result = apply(
        program,
        call("remove_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=4),
        call("remove_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=99),
        call("remove_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=4),
    )
    assert [r.success for r in result.results] == [True, False, False]
    assert "only 3 exercises" in result.results[2].errors[0].message
    assert len(exercise_names(program, 1, 1)) == 4


def test_unexpected_database_error_is_an_execution_error_and_later_calls_still_run(
    program, monkeypatch
):
    from django.db import IntegrityError

    def broken(**kwargs):
        raise IntegrityError("boom")

    monkeypatch.setattr(services, "object_update", broken)
    before = export_program(program)
    result = apply(
        program,
        call("modify_week", weekNumber=1, updates={"phase": "Peak"}),
        call("remove_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=1),
    )
    assert error_codes(result) == [["EXECUTION_ERROR"], []]
    assert "nothing was changed" in result.results[0].errors[0].message
    monkeypatch.undo()
    assert export_program(program) == before


def test_each_change_of_a_batch_bumps_the_version_and_the_result_carries_the_last(program):
    result = apply(
        program,
        call("modify_session", weekNumber=1, sessionNumber=1, updates={"name": "A"}),
        call("modify_session", weekNumber=1, sessionNumber=2, updates={"name": "B"}),
    )
    assert result.program_version == 3
    assert program.version == 3
    assert Program.objects.get(pk=program.pk).version == 3


def test_a_failed_batch_leaves_the_version_as_it_was(program):
    result = apply(
        program,
        call("modify_session", weekNumber=1, sessionNumber=1, updates={"name": "A"}),
        call("remove_week", weekNumber=9),
    )
    assert not result.success
    assert result.program_version == 1
    assert Program.objects.get(pk=program.pk).version == 1


def test_stale_expected_version_writes_nothing_and_marks_every_call(program):
    Program.objects.filter(pk=program.pk).update(version=5)
    before = export_program(program)
    result = apply(
        program,
        call("modify_session", weekNumber=1, sessionNumber=1, updates={"name": "A"}),
        call("remove_week", weekNumber=2),
        expected_version=4,
    )
    assert not result.success
    assert error_codes(result) == [["STALE"], ["STALE"]]
    assert result.program_version == 5
    assert export_program(program) == before


def test_matching_expected_version_applies(program):
    result = apply(program, call("remove_week", weekNumber=2), expected_version=1)
    assert result.success and result.program_version == 2


def test_a_context_s_program_id_is_a_value_and_without_a_program_is_not_found(program):
    """The tools read ``ctx.program_id`` as a value set when the context is made; a program tool
    run without a program says so (NOT_FOUND), and nothing is written."""
    ctx = ToolContext.for_program(program)
    assert ctx.program_id == program.pk and vars(ctx)["program_id"] == program.pk
    empty = ToolContext(athlete=program.athlete, program=None)
    with pytest.raises(ToolStateError, match="no program yet") as raised:
        empty.program_id  # noqa: B018
    assert raised.value.error.code == "NOT_FOUND"
    with pytest.raises(AttributeError):
        empty.nothing  # noqa: B018
    result = apply_calls(
        ctx=empty,
        calls=[
            call(
                "modify_exercise",
                weekNumber=1,
                sessionNumber=1,
                exerciseNumber=1,
                updates={"workingSets": 4},
            )
        ],
    )
    assert not result.success
    assert [e.code for e in result.results[0].errors] == ["NOT_FOUND"]
