"""The tool registry and what a call must look like before it runs: which tools exist and how
each is classed (write or read, confirmation, sensitivity), the strict JSON schemas offered to
the model, the two provider call shapes, malformed calls (bad JSON, unknown tool, missing, extra,
wrongly typed or NUL-bearing arguments), and the read path (get_week, writes refused as reads,
reads refused in a batch, the registry's own confirmation check)."""

import dataclasses
import json

import pytest
from django.core.exceptions import ImproperlyConfigured

from coach.engine import ToolContext, check_call, execute_read
from coach.registry import REGISTRY, _checked, get_tool, tool_definitions
from coach.toolcalls import ToolCall
from programs.export import export_program
from tests.coach.tool_helpers import apply, call, error_codes, exercise_names
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
    # the schedule tools (training/tools/schedule.py)
    "reschedule_workout",
    "create_custom_workout",
    "mark_workout_complete",
    "skip_workout",
    "log_sets",
    # realignment (training/tools/plan_adjust.py, listed with the schedule tools)
    "realign_plan",
    "lighten_plan",
    # the library tools (library/tools/workouts.py)
    "add_workout_to_calendar",
    "save_workout_to_library",
    # the nutrition tools (nutrition/tools/writes.py)
    "recipe_create",
    "recipe_update",
    "planner_add_meal",
    "planner_remove_meal",
    "grocery_create_list",
    "grocery_push_ingredients",
    "grocery_add_item",
    "grocery_check_item",
    "grocery_uncheck_item",
    # the wellness tools (wellness/tools/writes.py)
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
    # the training reads (training/tools/reads.py)
    "get_last_activity",
    "get_activity_by_date",
    "get_activities_range",
    "get_training_plan",
    "get_sleep_data",
    "get_fitness_scores",
    "compare_activities",
    # the library reads (library/tools/workouts.py)
    "search_workout_library",
    "navigate_to_page",
    # loads a family's schemas (coach/tools/catalog.py)
    "use_tools",
    # the nutrition reads (nutrition/tools/reads.py)
    "recipe_list",
    "recipe_get",
    "planner_list_meals",
    "planner_get_meal",
    "grocery_list_lists",
    "grocery_get_list",
    # the wellness reads (wellness/tools/reads.py)
    "get_wellness_logs",
    "list_reminders",
    # the media reads (media/tools/reads.py)
    "media_ocr_image",
    "media_speech_to_text",
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


def test_schema_text_fields_keep_their_bounds_in_json_schema():
    schema = get_tool("add_exercise").args_model.model_json_schema()
    assert schema["$defs"]["ExerciseInput"]["properties"]["targetLoad"]["maxLength"] == 100


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
