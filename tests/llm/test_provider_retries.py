"""The HTTP providers against real local servers: retries, back-off, time-outs and error kinds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from coach.llm.base import LLMError, Turn
from coach.llm.http import parse_retry_after
from coach.llm.openai import OpenAIProvider
from tests.llm.provider_support import payload

# --- OpenAI-compatible ---------------------------------------------------------------------------


def test_openrouter_error_in_a_200_body_is_retried_then_raised(fake_openai_server):
    for _ in range(3):
        fake_openai_server.enqueue(json=payload("openrouter_error_429.json"))
    with pytest.raises(LLMError) as caught:
        fake_openai_server.provider().complete(
            system="", turns=[Turn(role="user", content="x")], tools=[]
        )
    assert caught.value.kind == "rate_limit"
    assert len(fake_openai_server.requests) == 3  # 1 + max_retries 2


def test_429_then_success_honours_retry_after(fake_openai_server):
    fake_openai_server.enqueue(
        status=429, json=payload("openai_error_429.json"), headers={"retry-after": "3"}
    )
    fake_openai_server.enqueue_openai_text("after the wait")

    response = fake_openai_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=[]
    )

    assert response.text == "after the wait"
    assert fake_openai_server.sleeps == [3.0]
    assert len(fake_openai_server.requests) == 2


def test_retry_after_ms_takes_precedence(fake_openai_server):
    fake_openai_server.enqueue(
        status=429,
        json=payload("openai_error_429.json"),
        headers={"retry-after-ms": "250", "retry-after": "9"},
    )
    fake_openai_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=[]
    )
    assert fake_openai_server.sleeps == [0.25]


def test_retry_after_longer_than_the_cap_gives_up_without_sleeping(fake_openai_server):
    fake_openai_server.enqueue(
        status=429,
        json=payload("openrouter_error_429_capacity_exhausted.json"),
        headers={"retry-after": "40"},
    )
    with pytest.raises(LLMError) as caught:
        fake_openai_server.provider(max_retry_wait=5).complete(
            system="", turns=[Turn(role="user", content="x")], tools=[]
        )
    assert caught.value.kind == "rate_limit"
    assert caught.value.retry_after == 40.0
    assert fake_openai_server.sleeps == []
    assert len(fake_openai_server.requests) == 1


def test_429_without_retry_after_backs_off_exponentially(fake_openai_server):
    for _ in range(3):
        fake_openai_server.enqueue(status=429, json=payload("openai_error_429.json"))
    with pytest.raises(LLMError) as caught:
        fake_openai_server.provider(max_retries=2).complete(
            system="", turns=[Turn(role="user", content="x")], tools=[]
        )
    assert caught.value.kind == "rate_limit" and caught.value.status == 429
    first, second = fake_openai_server.sleeps
    assert 0.375 <= first <= 0.5  # 0.5 s with up to 25% jitter
    assert 0.75 <= second <= 1.0
    assert len(fake_openai_server.requests) == 3


def test_insufficient_quota_is_not_retried(fake_openai_server):
    fake_openai_server.enqueue(status=429, json=payload("openai_error_429_insufficient_quota.json"))
    with pytest.raises(LLMError) as caught:
        fake_openai_server.provider().complete(
            system="", turns=[Turn(role="user", content="x")], tools=[]
        )
    assert caught.value.kind == "quota"
    assert caught.value.retryable is False
    assert len(fake_openai_server.requests) == 1
    assert fake_openai_server.sleeps == []


@pytest.mark.parametrize(
    ("status", "kind"), [(400, "bad_request"), (401, "auth"), (403, "auth"), (404, "bad_request")]
)
def test_client_errors_are_not_retried(fake_openai_server, status, kind):
    fake_openai_server.enqueue(
        status=status, json={"error": {"message": "nope", "type": "invalid_request_error"}}
    )
    with pytest.raises(LLMError) as caught:
        fake_openai_server.provider().complete(
            system="", turns=[Turn(role="user", content="x")], tools=[]
        )
    assert (caught.value.kind, caught.value.status, caught.value.retryable) == (kind, status, False)
    assert len(fake_openai_server.requests) == 1


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_server_errors_are_retried_then_succeed(fake_openai_server, status):
    fake_openai_server.enqueue(status=status, body="upstream trouble")
    fake_openai_server.enqueue_openai_text("fine now")
    response = fake_openai_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=[]
    )
    assert response.text == "fine now"
    assert len(fake_openai_server.requests) == 2
    assert len(fake_openai_server.sleeps) == 1


def test_slow_response_times_out_after_retries(fake_openai_server):
    for _ in range(2):
        fake_openai_server.enqueue(json={"choices": []}, delay=1.0)
    with pytest.raises(LLMError) as caught:
        fake_openai_server.provider(read_timeout=0.1, max_retries=1).complete(
            system="", turns=[Turn(role="user", content="x")], tools=[]
        )
    assert caught.value.kind == "timeout"
    assert caught.value.retryable is True
    assert len(fake_openai_server.requests) == 2


def test_connection_refused_is_a_connection_error_after_retries():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    sleeps: list[float] = []
    provider = OpenAIProvider(
        base_url=f"http://127.0.0.1:{port}/v1", model="m", max_retries=2, sleep=sleeps.append
    )
    with pytest.raises(LLMError) as caught:
        provider.complete(system="", turns=[Turn(role="user", content="x")], tools=[])
    assert caught.value.kind == "connection"
    assert len(sleeps) == 2


def test_a_200_that_is_not_json_is_a_protocol_error(fake_openai_server):
    fake_openai_server.enqueue(body="<html>proxy</html>")
    with pytest.raises(LLMError) as caught:
        fake_openai_server.provider().complete(
            system="", turns=[Turn(role="user", content="x")], tools=[]
        )
    assert caught.value.kind == "protocol"
    assert len(fake_openai_server.requests) == 1


def test_retry_after_as_http_date():
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    later = format_datetime(now + timedelta(seconds=7), usegmt=True)
    assert parse_retry_after({"Retry-After": later}, now=now.timestamp()) == pytest.approx(7.0)
    assert parse_retry_after({"Retry-After": "1.5"}) == 1.5
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


# --- Anthropic -----------------------------------------------------------------------------------


def test_anthropic_529_overloaded_is_retried(fake_anthropic_server):
    fake_anthropic_server.enqueue(status=529, json=payload("anthropic_error_overloaded.json"))
    fake_anthropic_server.enqueue_anthropic_text("recovered")
    response = fake_anthropic_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=[]
    )
    assert response.text == "recovered"
    assert len(fake_anthropic_server.requests) == 2
    assert len(fake_anthropic_server.sleeps) == 1


def test_anthropic_529_every_time_raises_overloaded(fake_anthropic_server):
    for _ in range(3):
        fake_anthropic_server.enqueue(
            status=529, json=payload("anthropic_error_overloaded_no_request_id.json")
        )
    with pytest.raises(LLMError) as caught:
        fake_anthropic_server.provider().complete(
            system="", turns=[Turn(role="user", content="x")], tools=[]
        )
    assert (caught.value.kind, caught.value.status) == ("overloaded", 529)
    assert len(fake_anthropic_server.requests) == 3


def test_anthropic_recorded_429_without_retry_after_uses_backoff(fake_anthropic_server):
    recorded = payload("anthropic_error_rate_limit.headers.json")
    headers = {"x-should-retry": recorded["headers"]["x-should-retry"]}
    fake_anthropic_server.enqueue(
        status=429, json=payload("anthropic_error_rate_limit.json"), headers=headers
    )
    fake_anthropic_server.enqueue_anthropic_text("ok")
    fake_anthropic_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=[]
    )
    assert len(fake_anthropic_server.sleeps) == 1
    assert 0.375 <= fake_anthropic_server.sleeps[0] <= 0.5
