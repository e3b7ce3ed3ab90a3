"""[TOOL_CALL:{...}] markers in a reply's text become tool calls and leave the text (seed 004)."""

from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach.llm.textcalls import extract_text_calls
from coach.toolcalls import ToolCall, parse_confidence


def marker(call_id: str = "call-1", tool: str = "remove_week", **fields) -> str:
    data = {"id": call_id, "tool": tool, "parameters": {"weekNumber": 2}, **fields}
    return f"[TOOL_CALL:{json.dumps(data)}]"


def test_a_marker_at_the_start_is_parsed_and_removed():
    text, calls = extract_text_calls(marker() + " Week 2 is gone once you apply.")
    assert text == "Week 2 is gone once you apply."
    assert calls == [ToolCall(id="call-1", name="remove_week", arguments={"weekNumber": 2})]


def test_a_marker_in_the_middle_leaves_one_space():
    text, calls = extract_text_calls(f"I'll drop week 2 {marker()} and keep the rest.")
    assert text == "I'll drop week 2 and keep the rest."
    assert [c.name for c in calls] == ["remove_week"]


def test_a_marker_at_the_end_leaves_no_trailing_space_or_space_before_punctuation():
    text, calls = extract_text_calls(f"Dropping week 2 {marker()}")
    assert (text, len(calls)) == ("Dropping week 2", 1)
    text, _ = extract_text_calls(f"Dropping week 2 {marker()}.")
    assert text == "Dropping week 2."


def test_several_markers_in_one_reply_come_back_in_order():
    reply = (
        f"{marker('c1', weekNumber=1)}Two changes:\n"
        f"- lighter squats {marker('c2', tool='modify_exercise')}\n"
        f"{marker('c3', tool='remove_exercise')}\n\n\n"
        f"- no deadlifts {marker('c4', tool='remove_week')}{marker('c5', tool='get_week')}"
    )
    text, calls = extract_text_calls(reply)
    assert [c.id for c in calls] == ["c1", "c2", "c3", "c4", "c5"]
    assert [c.name for c in calls][1:] == [
        "modify_exercise",
        "remove_exercise",
        "remove_week",
        "get_week",
    ]
    # A line that held only a marker goes; no more than one blank line is left where they were.
    assert text == "Two changes:\n- lighter squats\n\n- no deadlifts"


def test_nested_json_and_brackets_inside_strings_are_read_whole():
    parameters = {
        "weekNumber": 1,
        "position": "end",
        "session": {
            "name": "Upper [A] {heavy}",
            "exercises": [
                {"name": 'Bench "paused"]}', "reps": "5", "targetLoad": "80%", "workingSets": 3}
            ],
            "warmup": ["band pull-aparts", "]"],
        },
    }
    reply = (
        'Here you go: [TOOL_CALL:{"id":"call-9","tool":"add_session","parameters":'
        + json.dumps(parameters)
        + ',"confidence":0.8}] Check the card.'
    )
    text, [call] = extract_text_calls(reply)
    assert text == "Here you go: Check the card."
    assert call.arguments == parameters
    assert (call.id, call.name, call.confidence, call.arguments_error) == (
        "call-9",
        "add_session",
        0.8,
        None,
    )


def test_name_and_arguments_are_accepted_as_well_as_tool_and_parameters():
    reply = (
        '[TOOL_CALL:{"name":"remove_week","arguments":{"weekNumber":3}}] '
        '[TOOL_CALL:{"tool":"remove_week","arguments":"{\\"weekNumber\\": 4}"}]'
    )
    text, calls = extract_text_calls(reply)
    assert text == ""
    assert [(c.name, c.arguments) for c in calls] == [
        ("remove_week", {"weekNumber": 3}),
        ("remove_week", {"weekNumber": 4}),
    ]
    # No id in the marker: each call gets a new one, as native calls without an id do.
    assert calls[0].id.startswith("call_") and calls[0].id != calls[1].id


def test_a_marker_without_parameters_is_a_call_with_no_arguments():
    _, [call] = extract_text_calls('[TOOL_CALL:{"id":"c","tool":"get_week"}]')
    assert (call.arguments, call.arguments_error) == ({}, None)


def test_bad_json_is_a_parse_error_call_with_its_name_and_is_stripped():
    text, [call] = extract_text_calls(
        'Sure. [TOOL_CALL:{"id":"c1","tool":"remove_week","parameters":{weekNumber: 2}}] Done?'
    )
    assert text == "Sure. Done?"
    assert call.name == "remove_week" and call.id.startswith("call_")
    assert "not hold a valid JSON object" in call.arguments_error
    assert call.arguments == {} and "weekNumber: 2" in call.raw_arguments


def test_a_marker_that_names_no_tool_is_a_parse_error_with_an_empty_name():
    text, [call] = extract_text_calls('Ok [TOOL_CALL:{"id":"c7","parameters":{"a":1}}] then')
    assert text == "Ok then"
    assert (call.id, call.name) == ("c7", "")
    assert 'names no "tool"' in call.arguments_error


def test_parameters_that_are_not_an_object_are_a_parse_error():
    _, [call] = extract_text_calls('[TOOL_CALL:{"tool":"remove_week","parameters":[2]}]')
    assert call.name == "remove_week"
    assert call.arguments_error == "The arguments must be a JSON object, not list."


def test_a_marker_holding_no_object_is_a_parse_error():
    text, [call] = extract_text_calls("a [TOOL_CALL: remove_week 2] b")
    assert text == "a b"
    assert call.name == "" and call.arguments_error is not None


@pytest.mark.parametrize(
    "reply",
    [
        'Removing it now [TOOL_CALL:{"id":"c1","tool":"remove_week","parameters":{"weekNum',
        'Removing it now [TOOL_CALL:{"id":"c1","tool":"remove_week","parameters":"{]',
        "Removing it now [TOOL_CALL:",
        "Removing it now [TOOL_CALL",
    ],
)
def test_an_unterminated_marker_is_a_parse_error_and_nothing_of_it_is_shown(reply):
    text, [call] = extract_text_calls(reply)
    assert text == "Removing it now"
    assert "not finished" in call.arguments_error
    assert call.name in ("remove_week", "")


def test_a_complete_object_whose_closing_bracket_was_forgotten_is_accepted():
    text, [call] = extract_text_calls('Ok [TOOL_CALL:{"tool":"remove_week","parameters":{}} bye')
    assert (text, call.name, call.arguments_error) == ("Ok bye", "remove_week", None)


def test_markers_are_found_whatever_their_case_and_spacing():
    text, calls = extract_text_calls('x [ tool_call : {"tool":"get_week"} ] y')
    assert (text, [c.name for c in calls]) == ("x y", ["get_week"])


def test_text_without_markers_is_returned_untouched():
    reply = "  Keep   this\n\n\n  exactly [as] {it} is  "
    assert extract_text_calls(reply) == (reply, [])


def test_no_raw_marker_survives_a_hostile_mix():
    reply = (
        '[TOOL_CALL:{}] [TOOL_CALL:[] [TOOL_CALL:{"tool":"a"}]]'
        ' [TOOL_CALL:"x"] [TOOL_CALL:{"tool":"b","parameters":{"s":"[TOOL_CALL:"}}] end'
        " [TOOL_CALL:{"
    )
    text, calls = extract_text_calls(reply)
    assert "TOOL_CALL" not in text.upper()
    assert len(calls) >= 5


# --- confidence ----------------------------------------------------------------------------------


def test_confidence_round_trips_through_to_dict_and_from_raw():
    _, [call] = extract_text_calls(marker(confidence=0.9))
    assert call.confidence == 0.9
    stored = json.loads(json.dumps(call.to_dict()))
    assert stored["confidence"] == 0.9
    assert ToolCall.from_raw(stored) == call


def test_a_call_without_confidence_stores_none_and_round_trips():
    call = ToolCall(id="c", name="remove_week", arguments={"weekNumber": 1})
    assert "confidence" not in call.to_dict()
    assert ToolCall.from_raw(call.to_dict()).confidence is None


def test_a_broken_call_keeps_its_confidence_through_a_round_trip():
    _, [call] = extract_text_calls('[TOOL_CALL:{"tool":"x","parameters":7,"confidence":0.4}]')
    again = ToolCall.from_raw(call.to_dict())
    assert (again.arguments_error, again.confidence) == (call.arguments_error, 0.4)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, 0.0),
        (1, 1.0),
        (0.75, 0.75),
        ("0.9", 0.9),
        (1.5, None),
        (-0.1, None),
        (95, None),
        (True, None),
        ("high", None),
        (float("nan"), None),
        (None, None),
        ([0.5], None),
    ],
)
def test_confidence_must_be_a_number_from_0_to_1(value, expected):
    assert parse_confidence(value) == expected
    assert ToolCall(id="c", name="n", confidence=value).confidence == expected
    assert ToolCall.from_raw({"id": "c", "name": "n", "confidence": value}).confidence == expected


def test_removing_a_marker_never_joins_two_halves_into_a_new_one():
    text, calls = extract_text_calls(f"a [TOOL_{marker()}CALL:{{}}] b")
    assert (text, len(calls)) == ("a [TOOL_ CALL:{}] b", 1)


PIECES = st.sampled_from(
    [
        *("[TOOL_CALL:", "[tool_call :", "[TOOL_", "CALL:", '{"tool":"a"}'),
        *("{", "}", "[", "]", '"', "\\", ":", " ", "\n", "ok", "7"),
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(PIECES, st.text(max_size=5)), max_size=30))
def test_no_text_ever_shows_a_marker_opening(pieces):
    text, calls = extract_text_calls("".join(pieces))
    assert not re.search(r"\[\s*tool_call\s*(:|$)", text, re.IGNORECASE)
    assert all(isinstance(c, ToolCall) for c in calls)


def test_absurdly_deep_nesting_is_a_parse_error_not_a_crash():
    reply = 'x [TOOL_CALL:{"tool":"a","parameters":' + "[" * 100_000 + "]" * 100_000 + "}] y"
    text, [call] = extract_text_calls(reply)
    assert text == "x y" and call.name == "a" and call.arguments_error is not None


def test_a_long_hostile_reply_is_handled_in_linear_time():
    reply = ("[TOOL_" + marker() + "CALL:{}] ") * 2000 + "[TOOL_CALL:" + '{"a":"' * 5000
    started = time.perf_counter()
    text, calls = extract_text_calls(reply)
    assert time.perf_counter() - started < 1.0
    assert not re.search(r"\[\s*tool_call\s*(:|$)", text, re.IGNORECASE)
    assert len(calls) == 2001
