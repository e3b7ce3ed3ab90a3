"""A turn's one total time (``coach.llm.base.Deadline``) bounds every request the HTTP providers
make, their retries and the waits between them, against the fake servers, one of them hanging:
accepting the request and never answering (issue 18 item 6)."""

from __future__ import annotations

import time

import pytest

from coach.llm.base import Deadline, DeadlineExceeded, Turn, TurnAbandoned

TURNS = [Turn(role="user", content="hello")]


def _complete(provider, deadline, **options):
    return provider.complete(system="", turns=TURNS, tools=[], deadline=deadline, **options)


@pytest.mark.parametrize("server_name", ["fake_openai_server", "fake_anthropic_server"])
def test_a_model_that_never_answers_is_given_up_at_the_deadline_not_after_each_retry(
    request, server_name
):
    server = request.getfixturevalue(server_name)
    server.hang = True
    provider = server.provider(read_timeout=5.0, max_retries=3, sleep=time.sleep)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded) as caught:
        _complete(provider, Deadline(0.6))
    elapsed = time.monotonic() - started
    assert caught.value.kind == "timeout"
    assert elapsed < 2.0  # not 4 × 5 s of read time-outs
    assert len(server.requests) == 1


def test_a_streamed_call_to_a_model_that_never_answers_stops_at_the_deadline(fake_openai_server):
    fake_openai_server.hang = True
    provider = fake_openai_server.provider(read_timeout=5.0, max_retries=3, sleep=time.sleep)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded):
        _complete(provider, Deadline(0.6), on_text=lambda _text: None)
    assert time.monotonic() - started < 2.0
    assert len(fake_openai_server.requests) == 1


def test_a_stream_that_trickles_stops_at_the_deadline(fake_openai_server):
    # A word every 0.2 s, each well within the read time-out, 50 of them: 10 s in all.
    fake_openai_server.enqueue_openai_stream(" ".join(["word"] * 50), chunk_delay=0.2)
    provider = fake_openai_server.provider(read_timeout=5.0, max_retries=0)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded):
        _complete(provider, Deadline(0.8), on_text=lambda _text: None)
    assert time.monotonic() - started < 2.0


def test_a_retry_whose_wait_would_pass_the_deadline_is_not_made(fake_openai_server):
    fake_openai_server.enqueue_error(429, headers={"retry-after": "5"})
    fake_openai_server.enqueue_openai_text("after the wait")
    provider = fake_openai_server.provider(max_retries=3)  # waits are recorded, not slept
    with pytest.raises(DeadlineExceeded):
        _complete(provider, Deadline(2.0))
    assert fake_openai_server.sleeps == []
    assert len(fake_openai_server.requests) == 1


def test_within_the_deadline_retries_go_on_as_before(fake_openai_server):
    fake_openai_server.enqueue_error(503, headers={"retry-after": "1"})
    fake_openai_server.enqueue_openai_text("second time lucky")
    provider = fake_openai_server.provider(max_retries=3)
    response = _complete(provider, Deadline(30.0))
    assert response.text == "second time lucky"
    assert fake_openai_server.sleeps == [1.0]


def test_a_spent_deadline_sends_nothing(fake_anthropic_server):
    provider = fake_anthropic_server.provider()
    with pytest.raises(DeadlineExceeded):
        _complete(provider, Deadline(0.0))
    assert fake_anthropic_server.requests == []


def test_no_request_or_retry_once_the_turn_is_no_longer_wanted(fake_openai_server):
    for _ in range(3):
        fake_openai_server.enqueue_error(500)
    wanted = [True]
    # The reply is failed (the athlete is told) while the first retry waits.
    provider = fake_openai_server.provider(max_retries=2, sleep=lambda _s: wanted.clear())
    with pytest.raises(TurnAbandoned):
        _complete(provider, Deadline(30.0, still_wanted=lambda: bool(wanted)))
    assert len(fake_openai_server.requests) == 1
