"""Parser quirks beyond the table of recorded payloads: unknown tool-call fields (Gemini's thought
signature) echoed back with their call, an error inside a 200 body, a retry-after given only in the
body, SSE comments and an unterminated last event, and a stream that finishes with ``error``."""

from __future__ import annotations

import json

import pytest

from coach.llm import openai
from coach.llm.base import LLMError, Turn
from coach.llm.http import error_from_response
from coach.llm.sse import accumulate_openai_stream, iter_sse
from tests.llm.provider_support import PAYLOADS


def test_gemini_thought_signature_is_kept_and_echoed_back_with_the_generated_id():

    data = json.loads((PAYLOADS / "gemini_openai_compat_tool_calls.json").read_text())
    response = openai.parse_response(data)
    call = response.tool_calls[0]
    assert call.id  # synthesised for the empty id
    extras = response.tool_call_extras[openai.MESSAGE_EXTRAS_KEY]
    assert "thought_signature" in extras["extra_content"]["google"]
    assert extras["thought_signature"]

    turns = [
        Turn(role="user", content="What time is it?"),
        Turn(
            role="assistant",
            tool_calls=response.tool_calls,
            tool_call_extras=response.tool_call_extras,
        ),
        Turn(role="tool", tool_call_id=call.id, content="12:00"),
    ]
    messages = openai.build_messages(system="", turns=turns)
    assert messages[1]["extra_content"] == extras["extra_content"]
    assert messages[1]["thought_signature"] == extras["thought_signature"]
    assert messages[1]["tool_calls"][0]["id"] == call.id
    assert messages[2] == {"role": "tool", "tool_call_id": call.id, "content": "12:00"}


def test_openrouter_error_in_a_200_body_raises_with_its_real_status():
    data = json.loads((PAYLOADS / "openrouter_error_429.json").read_text())
    with pytest.raises(LLMError) as caught:
        openai.parse_response(data)
    assert caught.value.kind == "rate_limit"
    assert caught.value.status == 429


def test_capacity_exhausted_body_alone_gives_retry_after_40():
    error = error_from_response(
        429, (PAYLOADS / "openrouter_error_429_capacity_exhausted.json").read_bytes()
    )
    assert error.retry_after == 40.0
    assert error.kind == "rate_limit"


def test_sse_parser_skips_comments_and_flushes_the_last_event_without_a_newline():
    events = list(iter_sse(': OPENROUTER PROCESSING\n\ndata: {"a": 1}\n\nevent: x\ndata: {"b": 2}'))
    assert [(e.event, e.json()) for e in events] == [("message", {"a": 1}), ("x", {"b": 2})]


def test_finish_reason_error_in_a_stream_raises_even_without_an_error_object():
    stream = 'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"error"}]}\n\n'
    with pytest.raises(LLMError):
        accumulate_openai_stream(iter_sse(stream))


def test_unknown_tool_call_fields_are_echoed_back_with_their_call():

    data = {
        "choices": [
            {
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "index": 0,
                            "function": {"name": "remove_week", "arguments": '{"weekNumber": 2}'},
                            "extra_content": {"google": {"thought_signature": "sig"}},
                        }
                    ],
                },
            }
        ]
    }
    response = openai.parse_response(data)
    assert response.tool_call_extras == {
        "call_1": {"extra_content": {"google": {"thought_signature": "sig"}}}
    }
    turn = Turn(
        role="assistant", tool_calls=response.tool_calls, tool_call_extras=response.tool_call_extras
    )
    sent = openai.build_messages(system="", turns=[turn])[0]["tool_calls"][0]
    assert sent["extra_content"] == {"google": {"thought_signature": "sig"}}
    assert "index" not in sent
