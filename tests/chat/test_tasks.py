import pytest
from django.conf import settings

from chat.models import Message
from chat.services import message_send
from chat.tasks import run_agent
from coach.llm.base import LLMResponse
from tests.chat.scripted_provider import ScriptedProvider
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def provider(monkeypatch):
    scripted = ScriptedProvider(
        default=LLMResponse(text="Hi!\n---\nThanks", tool_calls=[], provider="scripted", model="m")
    )
    monkeypatch.setattr("chat.agent.get_provider", lambda **kw: scripted)
    return scripted


def test_the_task_is_late_acked_with_soft_and_hard_time_limits():
    assert run_agent.acks_late is True
    assert run_agent.soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert run_agent.time_limit == settings.CELERY_TASK_TIME_LIMIT
    assert run_agent.soft_time_limit < run_agent.time_limit


def test_the_task_fills_the_placeholder(provider):
    _, placeholder = message_send(conversation=ConversationFactory(), text="hello")
    run_agent(placeholder.pk)
    placeholder.refresh_from_db()
    assert placeholder.status == "complete" and placeholder.content == "Hi!"


def test_a_redelivered_task_makes_no_second_reply(provider):
    conversation = ConversationFactory()
    _, placeholder = message_send(conversation=conversation, text="hello")
    run_agent.apply(args=[placeholder.pk])
    run_agent.apply(args=[placeholder.pk])
    assert len(provider.requests) == 1
    assert conversation.messages.filter(role="assistant").count() == 1
    assert Message.objects.get(pk=placeholder.pk).status == "complete"


def test_a_task_for_a_deleted_message_does_nothing(provider):
    run_agent(123456)
    assert provider.requests == []


def test_a_task_for_a_user_message_does_nothing(provider):
    user_message, _ = message_send(conversation=ConversationFactory(), text="hello")
    run_agent(user_message.pk)
    assert provider.requests == []
    assert Message.objects.get(pk=user_message.pk).content == "hello"
