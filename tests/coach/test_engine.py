"""The executor: order, all-or-nothing, preview = apply, STALE, version, shapes, query counts."""

import copy
import dataclasses
import datetime
import json

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coach.engine import ToolContext, apply_calls, check_call, execute_read, preview_calls
from coach.registry import REGISTRY, _checked, get_tool, tool_definitions
from coach.toolcalls import ToolCall
from programs.export import export_program
from programs.models import Exercise, Program
from tests.coach.tool_helpers import (
    EXERCISE,
    apply,
    call,
    error_codes,
    exercise_names,
    preview,
    session_of,
)
from tests.factories import build_program

pytestmark = pytest.mark.django_db

WRITE_TOOLS = {
    "modify_exercise",
    "remove_exercise",
    "add_exercise",
    "remove_session",
    "add_session",
    "modify_session",
    "reorder_exercises",
    "copy_session",
    "modify_week",
    "add_week",
    "remove_week",
    # the schedule tools (coach/tools/schedule.py)
    "reschedule_workout",
    "create_custom_workout",
    "mark_workout_complete",
    "skip_workout",
    "log_sets",
    # realignment (coach/tools/plan_adjust.py, listed with the schedule tools)
    "realign_plan",
    "lighten_plan",
    # the library tools (coach/tools/library.py)
    "add_workout_to_calendar",
    "save_workout_to_library",
    # the nutrition tools (coach/tools/nutrition.py)
    "recipe_create",
    "recipe_update",
    "planner_add_meal",
    "planner_remove_meal",
    "grocery_create_list",
    "grocery_push_ingredients",
    "grocery_add_item",
    "grocery_check_item",
    "grocery_uncheck_item",
    # the wellness tools (coach/tools/wellness.py)
    "log_medication",
    "log_mood",
    "log_readiness",
    "create_reminder",
    "create_care_log",
}
# Writes that skip the athlete's Apply when their guardrails pass (seed 004's wellness logs).
AT_ONCE_TOOLS = {"log_medication", "log_mood", "log_readiness"}
READ_TOOLS = {
    "get_week",
    # the training reads (coach/tools/training_reads.py)
    "get_last_activity",
    "get_activity_by_date",
    "get_activities_range",
    "get_training_plan",
    "get_sleep_data",
    "get_fitness_scores",
    "compare_activities",
    # the library reads (coach/tools/library.py)
    "search_workout_library",
    "navigate_to_page",
    # loads a family's schemas (coach/tools/catalog.py)
    "use_tools",
    # the nutrition reads (coach/tools/nutrition_reads.py)
    "recipe_list",
    "recipe_get",
    "planner_list_meals",
    "planner_get_meal",
    "grocery_list_lists",
    "grocery_get_list",
    # the wellness reads (coach/tools/wellness_reads.py)
    "get_wellness_logs",
    "list_reminders",
}
ALL_TOOLS = WRITE_TOOLS | READ_TOOLS


# --- registry -----------------------------------------------------------------------------------


def test_registry_holds_the_write_tools_needing_confirmation_and_the_read_tools():
    assert set(REGISTRY) == ALL_TOOLS
    for spec in REGISTRY.values():
        assert spec.kind == ("write" if spec.name in WRITE_TOOLS else "read")
        confirmed = spec.kind == "write" and spec.name not in AT_ONCE_TOOLS
        assert spec.requires_confirmation is confirmed
        assert spec.sensitivity in {"low", "medium", "high", "critical"}
    assert get_tool("get_week").sensitivity == "low"
    assert get_tool("remove_week").sensitivity == "critical"
    assert get_tool("remove_session").sensitivity == "high"
    assert get_tool("remove_week").needs_review and not get_tool("modify_exercise").needs_review
    assert get_tool("remove_week").category == "program"
    assert get_tool("remove_week").label == "Remove a week"
    assert get_tool("add_week").sensitivity == "high"
    assert get_tool("modify_exercise").sensitivity == "low"
    assert get_tool("nope") is None


def test_tool_definitions_are_self_contained_strict_json_schemas():
    definitions = tool_definitions()
    assert {d["name"] for d in definitions} == ALL_TOOLS
    text = json.dumps(definitions)
    assert "$ref" not in text and "$defs" not in text
    for definition in definitions:
        schema = definition["input_schema"]
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        assert set(schema["required"]) <= set(schema["properties"])
        assert len(definition["description"]) > 40
    modify = next(d for d in definitions if d["name"] == "modify_exercise")["input_schema"]
    assert modify["required"] == ["weekNumber", "sessionNumber", "exerciseNumber", "updates"]
    assert modify["properties"]["updates"]["additionalProperties"] is False
    assert modify["properties"]["updates"]["properties"]["workingSets"]["minimum"] == 0
    assert modify["properties"]["weekNumber"]["minimum"] == 1
    session = next(d for d in definitions if d["name"] == "add_session")["input_schema"]
    cardio = session["properties"]["session"]["properties"]["cardio"]["anyOf"][0]
    assert cardio["properties"]["type"]["enum"] == [
        "zone2",
        "intervals",
        "sweetspot",
        "threshold",
        "vo2max",
    ]
    assert [d["name"] for d in tool_definitions(kind="read")] == [
        name for name in REGISTRY if name in READ_TOOLS
    ]


# --- the two shapes and malformed calls --------------------------------------------------------


def test_both_provider_shapes_run_the_same(program):
    openai = ToolCall.from_raw(
        {
            "id": "call_abc123",
            "type": "function",
            "function": {
                "name": "modify_exercise",
                "arguments": '{"weekNumber":2,"sessionNumber":1,"exerciseNumber":1,'
                '"updates":{"name":"Lunges","targetLoad":"bodyweight"}}',
            },
        }
    )
    neutral = ToolCall.from_raw(
        {
            "id": "toolu_1",
            "name": "modify_exercise",
            "input": {
                "weekNumber": 2,
                "sessionNumber": 1,
                "exerciseNumber": 2,
                "updates": {"name": "Lunges"},
            },
        }
    )
    result = apply(program, openai, neutral)
    assert result.success
    assert [r.tool_call_id for r in result.results] == ["call_abc123", "toolu_1"]
    assert exercise_names(program, 2, 1)[:2] == ["Lunges", "Lunges"]


def test_invalid_json_arguments_are_a_parse_error_and_nothing_changes(program):
    # scenario 12
    before = export_program(program)
    bad = ToolCall.from_raw(
        {
            "id": "c1",
            "type": "function",
            "function": {"name": "modify_exercise", "arguments": "{weekNumber: 2"},
        }
    )
    result = apply(program, bad)
    assert not result.success
    assert error_codes(result) == [["PARSE_ERROR"]]
    assert "not valid JSON" in result.results[0].errors[0].message
    assert export_program(program) == before


def test_unknown_tool_names_the_available_tools(program):
    result = apply(program, call("delete_everything", weekNumber=1))
    error = result.results[0].errors[0]
    assert error.code == "UNKNOWN_TOOL"
    assert "modify_exercise" in error.message and "remove_week" in error.message


def test_missing_extra_and_wrong_type_arguments_are_validation_errors():
    args, errors = check_call(call("remove_exercise", weekNumber="two", sessionNumber=1, extra=1))
    assert args is None
    assert {(e.code, e.field) for e in errors} == {
        ("VALIDATION_ERROR", "weekNumber"),
        ("VALIDATION_ERROR", "exerciseNumber"),
        ("VALIDATION_ERROR", "extra"),
    }
    messages = " ".join(e.message for e in errors)
    assert "exerciseNumber is required." in messages
    assert "extra is not a known field" in messages


def test_check_call_returns_the_parsed_model_for_a_valid_call():
    args, errors = check_call(
        call("remove_exercise", weekNumber=2, sessionNumber=1, exerciseNumber=3)
    )
    assert errors == []
    assert (args.weekNumber, args.sessionNumber, args.exerciseNumber) == (2, 1, 3)


# --- seed 000 testing scenarios 1-12 at the tool level -----------------------------------------


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


def test_text_with_nul_characters_is_refused_before_the_database(program):
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=1,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"notes": "a\x00b"},
        ),
    )
    error = result.results[0].errors[0]
    assert (error.code, error.field) == ("VALIDATION_ERROR", "updates.notes")
    assert "NUL" in error.message


def test_schema_text_fields_keep_their_bounds_in_json_schema():
    schema = get_tool("add_exercise").args_model.model_json_schema()
    assert schema["$defs"]["ExerciseInput"]["properties"]["targetLoad"]["maxLength"] == 100


def test_unexpected_database_error_is_an_execution_error_and_later_calls_still_run(
    program, monkeypatch
):
    from django.db import IntegrityError

    from programs import services

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


# --- read tools ---------------------------------------------------------------------------------


def test_get_week_reads_one_week_and_changes_nothing():
    program = build_program(weeks=3, sessions=2, exercises=2)
    before = export_program(program)
    result = execute_read(ctx=ToolContext.for_program(program), call=call("get_week", weekNumber=3))
    assert result.success, result.errors
    lines = result.summary.splitlines()
    assert lines[0].startswith("Week 3: phase ")
    assert [line.strip()[:9] for line in lines if line.startswith("  Session")] == [
        "Session 1",
        "Session 2",
    ]
    assert export_program(program) == before


def test_get_week_of_a_missing_week_names_the_real_count():
    program = build_program(weeks=3, sessions=1, exercises=1)
    result = execute_read(ctx=ToolContext.for_program(program), call=call("get_week", weekNumber=4))
    assert not result.success
    assert [(e.code, e.message) for e in result.errors] == [
        ("NOT_FOUND", "The program has 3 weeks; week 4 doesn't exist.")
    ]


def test_a_write_tool_cannot_run_as_a_read():
    program = build_program(weeks=1, sessions=1, exercises=1)
    result = execute_read(
        ctx=ToolContext.for_program(program), call=call("remove_week", weekNumber=1)
    )
    assert [e.code for e in result.errors] == ["PERMISSION_DENIED"]
    assert program.weeks.count() == 1


def test_a_read_tool_is_never_part_of_a_batch():
    program = build_program(weeks=1, sessions=1, exercises=1)
    result = apply(program, call("get_week", weekNumber=1))
    assert not result.success
    assert result.results[0].errors[0].code == "VALIDATION_ERROR"
    assert "never part of a batch" in result.results[0].errors[0].message


def test_the_registry_refuses_a_critical_write_without_confirmation():
    spec = get_tool("remove_week")
    with pytest.raises(ImproperlyConfigured, match="always needs confirmation"):
        _checked(dataclasses.replace(spec, requires_confirmation=False))
    with pytest.raises(ImproperlyConfigured, match="never needs confirmation"):
        _checked(dataclasses.replace(get_tool("get_week"), requires_confirmation=True))
    assert _checked(spec) is spec
