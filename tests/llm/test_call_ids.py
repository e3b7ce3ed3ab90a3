"""The app names tool calls by ids of its own and sends the provider its own back (issue 18 item
9): ``coach.toolcalls.own_ids`` and both protocols' ``build_messages``."""

from __future__ import annotations

from coach.llm import anthropic, openai
from coach.llm.base import Turn
from coach.toolcalls import ToolCall, is_safe_id, own_ids

ARGS = {"weekNumber": 1}


def _turns(call: ToolCall) -> list[Turn]:
    return [
        Turn(role="user", content="show week 1"),
        Turn(role="assistant", tool_calls=[call]),
        Turn(role="tool", tool_call_id=call.id, content="Week 1: ..."),
    ]


def test_a_safe_provider_id_is_kept_as_the_own_one():
    (call,) = own_ids([ToolCall(id="toolu_01AbC-9", name="get_week")], max_provider_chars=512)
    assert (call.id, call.provider_id, call.wire_id) == ("toolu_01AbC-9", None, "toolu_01AbC-9")


def test_an_unsafe_provider_id_is_kept_for_the_protocol_only():
    (call,) = own_ids([ToolCall(id="a/b c", name="get_week", arguments=ARGS)], max_provider_chars=9)
    assert is_safe_id(call.id)
    assert call.wire_id == "a/b c"
    assert ToolCall.from_raw(call.to_dict()) == call  # stored and read back


def test_a_provider_id_past_the_limit_is_an_error_and_not_kept():
    (call,) = own_ids(
        [ToolCall(id="x/" * 5, name="get_week", arguments=ARGS)], max_provider_chars=9
    )
    assert is_safe_id(call.id) and call.provider_id is None
    assert "10 characters long" in call.arguments_error
    assert call.raw_arguments == '{"weekNumber": 1}'  # what the model sent, for the replay


def test_both_protocols_send_the_providers_id_back():
    call = ToolCall(id="call_own", name="get_week", arguments=ARGS, provider_id="toolu/42")
    sent = openai.build_messages(system="", turns=_turns(call))
    assert sent[1]["tool_calls"][0]["id"] == sent[2]["tool_call_id"] == "toolu/42"
    sent = anthropic.build_messages(_turns(call))
    assert sent[1]["content"][0]["id"] == "toolu/42"
    assert sent[2]["content"][0]["tool_use_id"] == "toolu/42"
