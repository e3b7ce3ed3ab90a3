"""A turn has one total time (``AGENT_TURN_TIMEOUT``) across all its model calls and retries
(issue 18 item 6): a model that accepts the connection and never answers fails the reply at that
time with a readable message and Retry; the sweep doesn't run it again, and nothing calls the model
once the athlete has been told."""

import datetime
import time

import pytest
from django.utils import timezone

from chat import recovery, refusals
from chat.agent import run_turn
from chat.models import Message
from coach.llm import tokens
from tests.chat.agent.support import reply, send

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _warm_tokenizer():
    """The turn's time starts at its claim: don't spend it loading the token counter."""
    tokens.warm_up()


def test_a_model_that_never_answers_fails_the_reply_at_the_turn_deadline(
    conversation, settings, fake_openai_server
):
    settings.AGENT_TURN_TIMEOUT = 1.0
    fake_openai_server.hang = True
    provider = fake_openai_server.provider(read_timeout=3.0, max_retries=2, sleep=time.sleep)
    started = time.monotonic()
    placeholder = reply(conversation, provider, text="hello")
    elapsed = time.monotonic() - started
    assert elapsed < 2.5  # not 3 requests × 3 s of read time-out
    assert (placeholder.status, placeholder.error_code) == ("failed", "timeout")
    assert placeholder.content == refusals.TIMED_OUT
    assert len(fake_openai_server.requests) == 1
    # Nothing is lost: the athlete's message is there, and Retry starts a new run of this reply.
    assert conversation.messages.filter(role="user", content="hello").exists()
    assert recovery.retry(message=placeholder).status == "pending"


def test_the_sweep_leaves_a_reply_failed_at_its_deadline_and_no_more_requests_follow(
    conversation, settings, fake_openai_server
):
    settings.AGENT_TURN_TIMEOUT = 0.5
    fake_openai_server.hang = True
    provider = fake_openai_server.provider(read_timeout=3.0, max_retries=3, sleep=time.sleep)
    placeholder = reply(conversation, provider, text="hello")
    requests = len(fake_openai_server.requests)
    later = timezone.now() + datetime.timedelta(seconds=settings.AGENT_TURN_DEADLINE * 3)
    assert recovery.sweep(now=later).total == 0
    time.sleep(0.3)
    placeholder.refresh_from_db()
    assert (placeholder.status, placeholder.attempt) == ("failed", 1)
    assert len(fake_openai_server.requests) == requests == 1


def test_no_model_request_follows_once_the_reply_was_failed(conversation, fake_openai_server):
    for _ in range(3):
        fake_openai_server.enqueue_error(500)
    _, placeholder = send(conversation, "hello")

    def the_sweep_fails_the_reply(_seconds):  # while the provider waits to retry
        Message.objects.filter(pk=placeholder.pk).update(
            status="failed", content=refusals.TIMED_OUT, error_code="timeout"
        )

    provider = fake_openai_server.provider(max_retries=2, sleep=the_sweep_fails_the_reply)
    run_turn(placeholder=placeholder, provider=provider)
    placeholder.refresh_from_db()
    assert len(fake_openai_server.requests) == 1
    assert (placeholder.status, placeholder.content) == ("failed", refusals.TIMED_OUT)
