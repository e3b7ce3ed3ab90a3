"""Token counts come from the bundled o200k vocabulary, without network access."""

from __future__ import annotations

import threading
import time

import pytest
from celery.signals import worker_ready

from coach.llm import tokens
from coach.llm.base import Turn
from coach.llm.tokens import count_request_tokens, count_tokens
from coach.toolcalls import ToolCall


def test_count_tokens_matches_the_o200k_vocabulary():
    assert count_tokens("") == 0
    assert count_tokens("hello") == 1
    assert count_tokens("hello world, goblet squat") == 6


def test_special_token_text_is_counted_as_plain_text():
    assert count_tokens("<|endoftext|>") > 1


def test_request_count_grows_with_every_part():
    base = count_request_tokens(system="", turns=[], tools=[])
    with_system = count_request_tokens(system="You are a coach.", turns=[], tools=[])
    turns = [
        Turn(role="user", content="Drop week 2"),
        Turn(
            role="assistant",
            tool_calls=[ToolCall(id="c1", name="remove_week", arguments={"weekNumber": 2})],
        ),
        Turn(role="tool", tool_call_id="c1", content="Success"),
    ]
    with_turns = count_request_tokens(system="You are a coach.", turns=turns, tools=[])
    tools = [
        {"name": "remove_week", "description": "Remove a week.", "input_schema": {"type": "object"}}
    ]
    with_tools = count_request_tokens(system="You are a coach.", turns=turns, tools=tools)
    assert base < with_system < with_turns < with_tools
    assert with_system - base == 3 + count_tokens("You are a coach.")


def test_fake_server_round_trips_are_fast(fake_openai_server):
    provider = fake_openai_server.provider()
    provider.complete(system="", turns=[Turn(role="user", content="warm up")], tools=[])
    started = time.perf_counter()
    for _ in range(20):
        provider.complete(system="", turns=[Turn(role="user", content="x")], tools=[])
    # about 1 ms each; a Nagle/delayed-ACK stall would make it ~40 ms each
    assert time.perf_counter() - started < 0.6


def test_a_text_longer_than_the_tokenizers_limit_is_counted_in_pieces():
    sentence = "Back Squat 3x5 at 225 lbs, rest 180 seconds. "
    text = sentence * 40_000  # about 480,000 tokens: over bpe-openai's 200,000 per call
    per_thousand = count_tokens(sentence * 1000)
    # The same count as 40 blocks of 1,000 sentences, give or take a token at each cut.
    assert abs(count_tokens(text) - per_thousand * 40) <= 40
    assert count_tokens(text) > 200_000


@pytest.mark.django_db  # the worker's start-up recovery sweep runs on the same signal
def test_a_worker_loads_the_vocabulary_as_it_starts_not_in_its_first_turn():
    tokens._encoding.cache_clear()
    assert tokens._encoding.cache_info().currsize == 0
    worker_ready.send(sender=None)  # what a Celery worker sends once it is ready
    warmers = [t for t in threading.enumerate() if t.name == "tokenizer-warm-up"]
    for thread in warmers:
        thread.join(timeout=60)
    assert tokens._encoding.cache_info().currsize == 1
    hits = tokens._encoding.cache_info().hits
    assert tokens.count_tokens("hello world") == 2
    assert tokens._encoding.cache_info().hits == hits + 1  # the turn's count used the loaded one


@pytest.mark.parametrize("tool_format", ["native", "text"])
def test_a_counters_memo_counts_the_same_and_encodes_each_long_text_once(monkeypatch, tool_format):
    long = "Squat to depth, then drive up through the whole foot. " * 20
    turns = [
        Turn(role="user", content=long),
        Turn(role="assistant", tool_calls=[ToolCall(id="c1", name="get_week", arguments={})]),
        Turn(role="tool", tool_call_id="c1", content=long + "week 1"),
        Turn(role="user", content="short"),
    ]
    tools = [{"name": "get_week", "description": long, "input_schema": {"type": "object"}}]
    plain = tokens.TokenCounter(exact=False, tool_format=tool_format)
    memoised = tokens.TokenCounter(exact=False, tool_format=tool_format, memo={})
    expected = plain.request(system=long, turns=turns, tools=tools)
    encoded = []
    real = tokens.count_tokens
    monkeypatch.setattr(
        tokens, "count_tokens", lambda text, **kw: encoded.append(text) or real(text, **kw)
    )
    assert memoised.request(system=long, turns=turns, tools=tools) == expected
    first = len(encoded)
    assert memoised.request(system=long, turns=turns, tools=tools) == expected
    again = encoded[first:]
    assert again and all(len(text) < tokens.MEMO_MIN_CHARS for text in again)  # short ones only
    assert memoised.turns(turns) == plain.turns(turns)
