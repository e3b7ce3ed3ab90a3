"""One turn of the agent loop, apart from its tool calls: claiming a placeholder (one run at a
time, a replaced run saves nothing, a spent time budget starts no more model calls), text answers
and the request they are made from, and failures (provider errors, time limits, unexpected errors,
HTTP errors and slow providers through the fake servers). Tool calls are in ``test_tool_calls.py``.
"""

import datetime

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from chat import agent
from chat.agent import claim, run_turn
from chat.models import Message, PendingToolBatch
from coach.llm.base import LLMError
from coach.registry import ALWAYS_SENT, REGISTRY
from tests.calls import RENAME
from tests.chat.agent.support import reply, send
from tests.chat.scripted_provider import ScriptedProvider

pytestmark = pytest.mark.django_db


# --- claiming -----------------------------------------------------------------------------------


def test_a_finished_placeholder_is_not_answered_twice(conversation):
    provider = ScriptedProvider().text("Hi\n---\nOK")
    placeholder = reply(conversation, provider)
    run_turn(placeholder=placeholder, provider=provider)
    assert len(provider.requests) == 1
    assert conversation.messages.filter(role="assistant").count() == 1


def test_a_placeholder_running_elsewhere_is_left_alone(conversation):
    _, placeholder = send(conversation)
    Message.objects.filter(pk=placeholder.pk).update(status="running", started_at=timezone.now())
    provider = ScriptedProvider().text("Hi")
    run_turn(placeholder=placeholder, provider=provider)
    assert provider.requests == []
    assert Message.objects.get(pk=placeholder.pk).status == "running"


def test_a_placeholder_left_running_long_ago_is_left_for_the_sweep(conversation, settings):
    # A redelivered task never takes over a running reply: chat.recovery restarts it with a new
    # run, which only a task for that run can claim.
    _, placeholder = send(conversation)
    long_ago = timezone.now() - datetime.timedelta(seconds=settings.AGENT_TURN_DEADLINE + 5)
    Message.objects.filter(pk=placeholder.pk).update(status="running", started_at=long_ago)
    provider = ScriptedProvider().text("Back.\n---\nOK")
    run_turn(placeholder=placeholder, provider=provider)
    assert provider.requests == []
    assert Message.objects.get(pk=placeholder.pk).status == "running"


def test_a_task_for_another_run_does_not_claim(conversation):
    _, placeholder = send(conversation)
    Message.objects.filter(pk=placeholder.pk).update(attempt=2)
    assert claim(message_id=placeholder.pk, attempt=1) is False
    assert claim(message_id=placeholder.pk, attempt=2) is True


def test_a_late_run_cannot_save_once_a_new_run_replaced_it(conversation):
    _, placeholder = send(conversation)

    class Replaced(ScriptedProvider):
        def complete(self, **kwargs):
            # While this run waits for the model, the sweep gives the reply a new run.
            Message.objects.filter(pk=placeholder.pk).update(attempt=2, status="pending")
            return super().complete(**kwargs)

    run_turn(placeholder=placeholder, provider=Replaced().text("Late.\n---\nOK"))
    placeholder.refresh_from_db()
    assert (placeholder.status, placeholder.content, placeholder.attempt) == ("pending", "", 2)


def test_a_turn_that_spent_its_time_starts_no_more_model_calls(conversation, settings):
    settings.AGENT_TURN_TIMEOUT = 0  # spent as soon as the first call is made
    provider = ScriptedProvider()
    for n in range(3):
        provider.calls((f"r{n}", "get_week", {"weekNumber": 1}))
    placeholder = reply(conversation, provider)
    assert len(provider.requests) == 1
    assert (placeholder.status, placeholder.error_code) == ("failed", "timeout")


def test_claim_moves_pending_to_running_once(conversation):
    _, placeholder = send(conversation)
    assert claim(message_id=placeholder.pk) is True
    assert claim(message_id=placeholder.pk) is False
    placeholder.refresh_from_db()
    assert placeholder.status == "running" and placeholder.started_at is not None


def test_claim_refuses_a_user_message(conversation):
    user_message, _ = send(conversation)
    assert claim(message_id=user_message.pk) is False


# --- text answers -------------------------------------------------------------------------------


def test_a_text_answer_is_stored_with_its_replies_and_usage(conversation):
    placeholder = reply(
        conversation,
        ScriptedProvider().text(
            "RDLs work the hamstrings.\n---\nThanks!\nShow me a video",
            prompt_tokens=321,
            completion_tokens=45,
            latency_ms=12,
        ),
    )
    assert placeholder.status == "complete"
    assert placeholder.content == "RDLs work the hamstrings."
    assert placeholder.suggested_replies == ["Thanks!", "Show me a video"]
    assert (placeholder.provider, placeholder.model) == ("scripted", "scripted-1")
    assert (placeholder.prompt_tokens, placeholder.completion_tokens, placeholder.latency_ms) == (
        321,
        45,
        12,
    )
    assert placeholder.finished_at is not None
    assert placeholder.is_visible


def test_the_request_carries_the_system_prompt_the_tools_and_the_message(conversation):
    provider = ScriptedProvider().text("Hi\n---\nOK")
    reply(conversation, provider, text="hello coach")
    request = provider.requests[0]
    assert "Apply Changes" in request.system and "<program_data>" in request.system
    # The program tools and use_tools; the other families are a line each (tests/chat/test_toolsets)
    assert {t["name"] for t in request.tools} == {
        name for name, spec in REGISTRY.items() if spec.category in ALWAYS_SENT
    }
    assert request.turns[-1].content == "hello coach"


def test_an_empty_answer_fails_politely_and_leaves_the_retry_to_its_button(conversation):
    placeholder = reply(conversation, ScriptedProvider().text(""))
    assert placeholder.status == "failed"
    assert placeholder.suggested_replies == []


def test_nul_characters_in_the_models_text_are_dropped(conversation):
    placeholder = reply(conversation, ScriptedProvider().text("Hi\x00 there\n---\nOK"))
    assert placeholder.content == "Hi there"


# --- failures -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("rate_limit", "The coach is busy right now"),
        ("overloaded", "The coach is busy right now"),
        ("quota", "The coach's model isn't available"),
        ("auth", "The coach's model isn't available"),
        ("timeout", "took too long"),
        ("connection", "couldn't reach"),
        ("protocol", "Something went wrong"),
    ],
)
def test_provider_errors_become_a_friendly_failed_reply(conversation, kind, expected):
    user_message, placeholder = send(conversation, "hello")
    run_turn(
        placeholder=placeholder,
        provider=ScriptedProvider().error(LLMError("boom", kind=kind, retryable=False)),
    )
    placeholder.refresh_from_db()
    assert placeholder.status == "failed"
    assert expected in placeholder.content
    assert placeholder.error_code == kind
    assert placeholder.suggested_replies == []
    assert Message.objects.get(pk=user_message.pk).content == "hello"


def test_the_soft_time_limit_fails_the_reply(conversation):
    _, placeholder = send(conversation)
    run_turn(placeholder=placeholder, provider=ScriptedProvider().error(SoftTimeLimitExceeded()))
    placeholder.refresh_from_db()
    assert placeholder.status == "failed" and placeholder.error_code == "timeout"


def test_an_unexpected_error_fails_the_reply_and_applies_nothing(
    conversation, program, monkeypatch
):
    def explode(**kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(agent.engine, "preview_calls", explode)
    _, placeholder = send(conversation)
    run_turn(placeholder=placeholder, provider=ScriptedProvider().calls(RENAME))
    placeholder.refresh_from_db()
    assert placeholder.status == "failed" and placeholder.error_code == "internal"
    assert not PendingToolBatch.objects.exists()
    assert not conversation.messages.filter(role="tool").exists()
    assert placeholder.tool_calls == []


# --- failures against the fake HTTP servers -----------------------------------------------------


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (429, "The coach is busy right now"),
        (529, "The coach is busy right now"),
        (500, "The coach is busy right now"),
        (401, "The coach's model isn't available"),
    ],
)
def test_http_errors_from_the_provider_fail_the_reply(
    conversation, fake_anthropic_server, status, expected
):
    for _ in range(3):
        fake_anthropic_server.enqueue_error(status)
    placeholder = reply(conversation, fake_anthropic_server.provider(max_retries=1), text="hello")
    assert placeholder.status == "failed"
    assert expected in placeholder.content
    assert conversation.messages.filter(role="user", content="hello").exists()


def test_a_slow_provider_times_out_into_a_failed_reply(conversation, fake_openai_server):
    fake_openai_server.enqueue(json={"unused": True}, delay=1.5)
    provider = fake_openai_server.provider(read_timeout=0.2, max_retries=0)
    placeholder = reply(conversation, provider, text="hello")
    assert placeholder.status == "failed"
    assert placeholder.error_code == "timeout"
    assert "took too long" in placeholder.content
