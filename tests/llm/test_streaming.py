"""Streamed model calls against the fake server over real HTTP: the text reaches ``on_text`` piece by
piece, the returned response is the one a plain call would give, and errors are classified."""

from __future__ import annotations

import json

import pytest

from coach.llm.base import LLMError
from tests.llm.provider_support import PAYLOADS


def test_openai_stream_passes_each_piece_and_returns_the_whole_answer(fake_openai_server):
    server = fake_openai_server
    server.enqueue_openai_stream(
        "Start at 60 kg.", [("call_1", "get_last_activity", {})], pieces=["Start ", "at 60 kg."]
    )
    pieces: list[str] = []
    response = server.provider().complete(system="s", turns=[], tools=[], on_text=pieces.append)
    assert pieces == ["Start ", "at 60 kg."]
    assert response.text == "Start at 60 kg."
    assert [(c.id, c.name) for c in response.tool_calls] == [("call_1", "get_last_activity")]
    assert response.usage.prompt_tokens == 10
    body = server.last_request.json
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


def test_anthropic_stream_passes_each_piece_and_returns_the_whole_answer(fake_anthropic_server):
    server = fake_anthropic_server
    server.enqueue_anthropic_stream(
        "Rest today.", [("toolu_1", "get_sleep_data", {"days": 7})], pieces=["Rest ", "today."]
    )
    pieces: list[str] = []
    response = server.provider().complete(system="s", turns=[], tools=[], on_text=pieces.append)
    assert pieces == ["Rest ", "today."]
    assert response.text == "Rest today."
    assert response.tool_calls[0].arguments == {"days": 7}
    assert server.last_request.json["stream"] is True


def test_recorded_anthropic_stream_replayed_over_http(fake_anthropic_server):
    server = fake_anthropic_server
    server.enqueue_sse((PAYLOADS / "anthropic_stream_tool_use.sse").read_text())
    pieces: list[str] = []
    response = server.provider().complete(system="s", turns=[], tools=[], on_text=pieces.append)
    assert "".join(pieces) == response.text
    assert response.tool_calls[0].name == "get_weather"


def test_midstream_error_raises_after_the_text_already_passed_on(fake_openai_server):
    server = fake_openai_server
    recorded = (PAYLOADS / "openrouter_stream_midstream_error.sse").read_text()
    first = 'data: {"choices":[{"index":0,"delta":{"content":"Let me "}}]}\n\n'
    server.enqueue_sse(first + recorded)
    pieces: list[str] = []
    with pytest.raises(LLMError) as caught:
        server.provider().complete(system="s", turns=[], tools=[], on_text=pieces.append)
    assert pieces == ["Let me "]
    assert caught.value.kind == "rate_limit"
    assert len(server.requests) == 1  # never retried once the answer had started


def test_opening_a_stream_is_retried_like_a_plain_call(fake_openai_server):
    server = fake_openai_server
    server.enqueue_error(503)
    server.enqueue_openai_stream("Fine.")
    pieces: list[str] = []
    response = server.provider().complete(system="s", turns=[], tools=[], on_text=pieces.append)
    assert response.text == "Fine." and "".join(pieces) == "Fine."
    assert len(server.requests) == 2 and len(server.sleeps) == 1


def test_a_server_that_ignores_stream_answers_json_and_the_text_still_arrives(fake_openai_server):
    server = fake_openai_server
    server.enqueue_openai_text("Plain answer.")
    pieces: list[str] = []
    response = server.provider().complete(system="s", turns=[], tools=[], on_text=pieces.append)
    assert pieces == ["Plain answer."] and response.text == "Plain answer."


def test_the_default_streamed_reply_records_the_first_chunk_time(fake_openai_server):
    server = fake_openai_server
    server.default_text = "one two three"
    pieces: list[str] = []
    server.provider().complete(system="s", turns=[], tools=[], on_text=pieces.append)
    assert pieces == ["one ", "two ", "three"]
    assert len(server.first_chunk_times) == 1


def test_unknown_tool_call_fields_of_a_stream_are_kept_to_echo_back(fake_openai_server):
    server = fake_openai_server
    signature = {"google": {"thought_signature": "sig=="}}
    server.enqueue_sse(
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1",'
        '"type":"function","function":{"name":"get_week","arguments":"{}"},'
        '"extra_content":' + json.dumps(signature) + "}]}}]}\n\n"
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n'
        "data: [DONE]\n\n"
    )
    response = server.provider().complete(system="s", turns=[], tools=[], on_text=lambda _: None)
    assert response.tool_call_extras == {"call_1": {"extra_content": signature}}
