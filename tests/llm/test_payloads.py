"""Every recorded or documented provider payload parses to what ``payloads/SOURCES.md`` says.

The files are copies of ``shared/provider_payloads/`` so the suite is self-contained; a test fails
when a payload file has no expectation here. The parsers' other quirks are in test_parsing_quirks.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coach.llm import anthropic, openai
from coach.llm.base import LLMError, LLMResponse
from coach.llm.http import error_from_response
from coach.llm.sse import (
    accumulate_anthropic_stream,
    accumulate_ollama_ndjson,
    accumulate_openai_stream,
    iter_sse,
)
from tests.llm.provider_support import PAYLOADS

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "provider_payloads"
NOT_PAYLOADS = {"SOURCES.md"}

# file → (parser, expected). Calls are (id, name, arguments); id None = a generated one.
EXPECTED: dict[str, tuple[str, dict[str, Any]]] = {
    "openai_chat_tool_calls.json": (
        "openai",
        {
            "finish": "tool_calls",
            "text": "",
            "calls": [("call_abc123", "get_current_weather", {"location": "Boston, MA"})],
        },
    ),
    "openai_chat_parallel_tool_calls.json": (
        "openai",
        {
            "finish": "tool_calls",
            "text": "",
            "calls": [
                (
                    "call_fdNz3vOBKYgOIpMdWotB9MjY",
                    "GetWeatherArgs",
                    {"city": "Edinburgh", "country": "GB", "units": "c"},
                ),
                (
                    "call_h1DWI1POMJLb0KwIyQHWXD4p",
                    "get_stock_price",
                    {"ticker": "AAPL", "exchange": "NASDAQ"},
                ),
            ],
        },
    ),
    "openai_stream_tool_calls.sse": (
        "openai_stream",
        {
            "finish": "tool_calls",
            "text": "",
            "calls": [
                (
                    "call_JMW1whyEaYG438VE1OIflxA2",
                    "GetWeatherArgs",
                    {"city": "Edinburgh", "country": "GB", "units": "c"},
                ),
                (
                    "call_DNYTawLBoN8fj3KN6qU9N1Ou",
                    "get_stock_price",
                    {"ticker": "AAPL", "exchange": "NASDAQ"},
                ),
            ],
        },
    ),
    "openai_stream_tool_calls_single.sse": (
        "openai_stream",
        {
            "finish": "tool_calls",
            "text": "",
            "calls": [("call_4XzlGBLtUe9dy3GVNV4jhq7h", "get_weather", {"city": "New York City"})],
        },
    ),
    "anthropic_tool_use.json": (
        "anthropic",
        {
            "finish": "tool_use",
            "text": "I'll use the test_tool twice as requested - first with count 1, then with count 2.",
            "calls": [
                ("toolu_01L8GVQapA1HmggQcrwboukH", "test_tool", {"count": 1}),
                ("toolu_01J5Fvzxu7DP1Uh59c1kr5JD", "test_tool", {"count": 2}),
            ],
        },
    ),
    "anthropic_tool_use_with_caller.json": (
        "anthropic",
        {
            "finish": "tool_use",
            "calls": [
                (
                    "toolu_01LRanfq6DmHn1yDTB4d1SAh",
                    "get_weather",
                    {"location": "San Francisco, CA", "units": "f"},
                )
            ],
        },
    ),
    "anthropic_stream_tool_use.sse": (
        "anthropic_stream",
        {
            "finish": "tool_use",
            "text": "I'll check the current weather in Paris for you.",
            "calls": [("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", {"location": "Paris"})],
        },
    ),
    "anthropic_stream_tool_use_recorded.sse": (
        "anthropic_stream",
        {
            "finish": "tool_use",
            "text": "",
            "calls": [
                (
                    "toolu_018acGYLtfR52q9yDbWaEdQZ",
                    "get_weather",
                    {"location": "San Francisco, CA", "units": "f"},
                )
            ],
        },
    ),
    "anthropic_stream_error_overloaded.sse": (
        "anthropic_stream",
        {"error_kind": "overloaded", "message": "Overloaded", "retryable": True},
    ),
    "openrouter_tool_calls.json": (
        "openai",
        {
            "finish": "tool_calls",
            "text": "",
            "calls": [
                (
                    "3sniiMddS",
                    "divide",
                    {"numerator": 123, "denominator": 456, "on_inf": "infinity"},
                )
            ],
        },
    ),
    "openrouter_tool_calls_missing_arguments.json": (
        "openai",
        {
            "finish": "tool_calls",
            "text": "I'll search for education content for you.",
            "calls": [("toolu_vrtx_015QAXScZzRDPttiPoc34AdD", "find_education_content", {})],
        },
    ),
    "openrouter_tool_calls_google_native_finish_reason.json": (
        "openai",
        {
            "finish": "tool_calls",
            "text": "",
            "calls": [
                (
                    "tool_insert_level_with_spaces_3ZiChYzj8xER8HixJe7W",
                    "insert_level_with_spaces",
                    {
                        "spaces": [
                            {"space_type": "entryway", "space_name": "entryway"},
                            {"space_name": "living_room", "space_type": "living-room"},
                            {"space_name": "garage", "space_type": "garage"},
                        ],
                        "level": {"level_type": "ground", "level_name": "ground_floor"},
                    },
                )
            ],
        },
    ),
    "openrouter_stream_midstream_error.sse": (
        "openai_stream",
        {"error_kind": "rate_limit", "status": 429, "message": "Rate limit exceeded"},
    ),
    "ollama_native_tool_calls.json": (
        "ollama",
        {
            "finish": "stop",
            "text": "",
            "calls": [
                (None, "get_current_weather", {"format": "celsius", "location": "Paris, FR"})
            ],
        },
    ),
    "ollama_native_stream_tool_calls.ndjson": (
        "ollama_ndjson",
        {"finish": "stop", "text": "", "calls": [(None, "get_weather", {"city": "Tokyo"})]},
    ),
    "ollama_openai_compat_tool_calls.json": (
        "openai",
        {
            "finish": "tool_calls",
            "text": "",
            "calls": [("call_o2vnpxrw", "final_result", {"city": "Paris", "country": "France"})],
        },
    ),
    "gemini_openai_compat_tool_calls.json": (
        "openai",
        {"finish": "tool_calls", "text": "", "calls": [(None, "get_current_time", {})]},
    ),
    "openai_error_429.json": (
        "error",
        {
            "status": 429,
            "error_kind": "rate_limit",
            "retryable": True,
            "message": "Please try again in 6ms",
        },
    ),
    "openai_error_429_insufficient_quota.json": (
        "error",
        {
            "status": 429,
            "error_kind": "quota",
            "retryable": False,
            "message": "exceeded your current quota",
        },
    ),
    "openrouter_error_429.json": (
        "error",
        {
            "status": 429,
            "error_kind": "rate_limit",
            "retryable": True,
            "message": "Rate limit exceeded",
        },
    ),
    "openrouter_error_429_capacity_exhausted.json": (
        "error",
        {
            "status": 429,
            "error_kind": "rate_limit",
            "retryable": True,
            "retry_after": 40.0,
            "message": "at capacity",
        },
    ),
    "anthropic_error_overloaded.json": (
        "error",
        {"status": 529, "error_kind": "overloaded", "retryable": True, "message": "Overloaded"},
    ),
    "anthropic_error_overloaded_no_request_id.json": (
        "error",
        {"status": 529, "error_kind": "overloaded", "retryable": True, "message": "Overloaded"},
    ),
    "anthropic_error_rate_limit.json": (
        "error_with_headers",
        {
            "status": 429,
            "error_kind": "rate_limit",
            "retryable": True,
            "retry_after": None,
            "message": "rate limit",
        },
    ),
    "anthropic_error_rate_limit.headers.json": (
        "headers_of",
        {"body": "anthropic_error_rate_limit.json"},
    ),
}


def payload_files() -> list[str]:
    return sorted(p.name for p in PAYLOADS.iterdir() if p.name not in NOT_PAYLOADS)


def parse(parser: str, path: Path) -> LLMResponse:
    raw = path.read_bytes()
    if parser == "openai":
        return openai.parse_response(json.loads(raw))
    if parser == "anthropic":
        return anthropic.parse_response(json.loads(raw))
    if parser == "openai_stream":
        return accumulate_openai_stream(iter_sse(raw))
    if parser == "anthropic_stream":
        return accumulate_anthropic_stream(iter_sse(raw))
    if parser == "ollama":
        return accumulate_ollama_ndjson([json.loads(raw)])  # one non-streamed body
    if parser == "ollama_ndjson":
        return accumulate_ollama_ndjson(raw.decode().splitlines())
    raise AssertionError(f"unknown parser {parser}")


def classify(name: str, parser: str, expected: dict[str, Any]) -> LLMError:
    body = (PAYLOADS / name).read_bytes()
    headers: dict[str, str] = {}
    if parser == "error_with_headers":
        recorded = json.loads((PAYLOADS / name.replace(".json", ".headers.json")).read_text())
        headers = recorded["headers"]
        assert recorded["status_code"] == expected["status"]
    return error_from_response(expected["status"], body, headers)


def test_every_payload_file_has_an_expectation():
    assert payload_files(), "no payload files were found"
    missing = [name for name in payload_files() if name not in EXPECTED]
    assert missing == [], f"payload files without an expectation in EXPECTED: {missing}"
    stale = [name for name in EXPECTED if name not in payload_files()]
    assert stale == [], f"expectations for files that are gone: {stale}"


def test_the_copies_match_the_shared_payloads_when_shared_is_present():
    if not SHARED.is_dir():  # the repo alone: the copies are the source of truth
        return
    shared = sorted(p.name for p in SHARED.iterdir() if p.name not in NOT_PAYLOADS)
    assert shared == payload_files()
    for name in shared:
        assert (PAYLOADS / name).read_bytes() == (SHARED / name).read_bytes(), name


@pytest.mark.parametrize("name", payload_files())
def test_payload_parses_as_documented(name):
    parser, expected = EXPECTED[name]
    if parser == "headers_of":
        recorded = json.loads((PAYLOADS / name).read_text())
        assert recorded["status_code"] == 429
        assert recorded["headers"]["x-should-retry"] == "true"
        assert "retry-after" not in {k.lower() for k in recorded["headers"]}
        assert expected["body"] in EXPECTED
        return
    if parser in ("error", "error_with_headers"):
        error = classify(name, parser, expected)
        assert error.kind == expected["error_kind"]
        assert error.status == expected["status"]
        assert error.retryable is expected["retryable"]
        assert expected["message"].lower() in str(error).lower()
        if "retry_after" in expected:
            assert error.retry_after == expected["retry_after"]
        return
    if "error_kind" in expected:
        with pytest.raises(LLMError) as caught:
            parse(parser, PAYLOADS / name)
        assert caught.value.kind == expected["error_kind"]
        assert expected["message"] in str(caught.value)
        if "status" in expected:
            assert caught.value.status == expected["status"]
        if "retryable" in expected:
            assert caught.value.retryable is expected["retryable"]
        return
    response = parse(parser, PAYLOADS / name)
    assert response.finish_reason == expected["finish"]
    if "text" in expected:
        assert response.text == expected["text"]
    got = [(call.id, call.name, call.arguments) for call in response.tool_calls]
    assert len(got) == len(expected["calls"])
    for (got_id, got_name, got_args), (want_id, want_name, want_args) in zip(
        got, expected["calls"], strict=True
    ):
        if want_id is None:
            assert got_id.startswith("call_") and len(got_id) > 5  # made up, never empty
        else:
            assert got_id == want_id
        assert got_name == want_name
        assert got_args == want_args
    assert all(call.arguments_error is None for call in response.tool_calls)
