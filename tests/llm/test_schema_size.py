"""The tool schemas stay small (issue 7: they were 5,668 tokens, two thirds of a fresh prompt)
without losing what a model needs: types, enums, bounds and a one-line purpose."""

from __future__ import annotations

import io
import json

from django.core.management import call_command

from coach.llm.tokens import count_tool_tokens
from coach.registry import REGISTRY, tool_definitions

BEFORE = 5_668  # json.dumps of the definitions before they were trimmed


def walk(node, path=""):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{path}/{index}")


def program_tool_definitions():
    """The twelve program tools the budget of issue 7 was set for."""
    return [d for d in tool_definitions() if REGISTRY[d["name"]].category == "program"]


def test_the_tool_schemas_cost_at_least_30_percent_fewer_tokens():
    counts = count_tool_tokens(program_tool_definitions())
    assert counts["json"] <= BEFORE * 0.7
    assert counts["compact"] < counts["json"]
    assert sum(counts["per_tool"].values()) >= counts["compact"] - 20
    # The text format's prompt section is no bigger than the native schemas it replaces.
    assert counts["text_prompt"] <= counts["json"]


def test_every_schema_field_keeps_its_type_and_every_tool_a_one_line_purpose():
    for tool in tool_definitions():
        assert "\n" not in tool["description"] and 40 < len(tool["description"]) <= 130
        for path, node in walk(tool["input_schema"]):
            if path.endswith("/properties") or path.endswith("/items") or not path:
                continue
            if "/properties/" in path and path.rsplit("/", 2)[-2] == "properties":
                assert "type" in node or "anyOf" in node, f"{tool['name']}{path} has no type"
            assert "title" not in node, f"{tool['name']}{path} has a title"


def test_trimmed_schemas_keep_bounds_enums_and_units():
    tools = {t["name"]: t["input_schema"] for t in tool_definitions()}
    exercise = tools["add_exercise"]["properties"]["exercise"]["properties"]
    assert (exercise["workingSets"]["minimum"], exercise["workingSets"]["maximum"]) == (0, 50)
    assert exercise["restSeconds"]["maximum"] == 3600
    assert exercise["restSeconds"]["default"] == 120
    assert exercise["reps"]["type"] == "string" and "8-10" in exercise["reps"]["description"]
    assert exercise["targetLoad"]["maxLength"] == 100
    session = tools["add_session"]["properties"]["session"]["properties"]
    assert session["dayOfWeek"]["enum"][0] == "Monday"
    assert session["scheduledDate"] == {"format": "date", "type": "string"}
    cardio = session["cardio"]["anyOf"][0]["properties"]
    assert cardio["duration"]["description"] == "Minutes"
    updates = tools["modify_session"]["properties"]["updates"]["properties"]
    assert "null" in updates["cardio"]["description"]  # what null means is still said
    assert "at least one" in tools["modify_week"]["properties"]["updates"]["description"]
    week = tools["add_week"]["properties"]["weeks"]
    assert (week["minItems"], week["maxItems"]) == (1, 12)
    assert "weekNumber" not in week["items"]["properties"]  # ignored, so not offered


def test_bench_schemas_prints_the_counts():
    out = io.StringIO()
    call_command("bench_schemas", stdout=out)
    text = out.getvalue()
    counts = count_tool_tokens(tool_definitions())
    assert f"{counts['json']:,} tokens" in text
    assert "add_week" in text and "LLM_TOOL_FORMAT=text" in text
    out = io.StringIO()
    call_command("bench_schemas", "--json", stdout=out)
    assert json.loads(out.getvalue()) == counts


def test_the_training_and_schedule_tools_stay_within_their_own_budget():
    """Twelve more tools (issue 9): reads of training data and schedule writes, about 130
    tokens each; then realign_plan and lighten_plan (issue 10), about 120 together."""
    definitions = [
        d for d in tool_definitions() if REGISTRY[d["name"]].category in ("training", "schedule")
    ]
    assert len(definitions) == 14
    assert count_tool_tokens(definitions)["json"] <= 2_000 + 150
