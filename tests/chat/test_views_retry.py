"""The page side of a reply that can't hang: the thinking placeholder stops polling at the deadline
and offers Retry, a failed reply offers Retry, Retry reaches only the athlete's own messages, and
a broker that is down when the athlete posts keeps the message and says so."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from kombu.exceptions import OperationalError as BrokerError

from chat import recovery, refusals, services
from chat.models import Message
from chat.tasks import run_agent
from tests.factories import UserFactory, build_program

HX = {"HX-Request": "true"}
S = datetime.timedelta(seconds=1)


@pytest.fixture
def program(db):
    return build_program(weeks=1, sessions=2, exercises=2, start_date=timezone.localdate())


@pytest.fixture
def conversation(program):
    return services.conversation_for_athlete(athlete=program.athlete)


@pytest.fixture
def athlete_client(client, program):
    client.force_login(program.athlete)
    return client


@pytest.fixture
def sent(monkeypatch):
    runs: list[tuple[int, int]] = []
    monkeypatch.setattr(recovery, "send_run", lambda p: runs.append((p.pk, p.attempt)) or True)
    return runs


def posted(conversation, **fields) -> tuple[Message, Message]:
    user_message, placeholder = services.message_send(conversation=conversation, text="Hi coach")
    Message.objects.filter(pk=placeholder.pk).update(**fields)
    placeholder.refresh_from_db()
    return user_message, placeholder


def retry_url(message: Message) -> str:
    return reverse("chat:message_retry", args=[message.pk])


# --- polling stops ----------------------------------------------------------------------------------


def test_a_reply_past_the_deadline_stops_the_polling_and_offers_retry(
    athlete_client, conversation, settings
):
    settings.AGENT_TURN_DEADLINE = 200
    _, placeholder = posted(conversation, status="running", started_at=timezone.now() - 201 * S)
    response = athlete_client.get(reverse("chat:message_poll", args=[placeholder.pk]), headers=HX)
    html = response.content.decode()
    assert response.status_code == 286  # htmx stops polling
    assert "hx-get" not in html and "hx-trigger" not in html
    assert escape(refusals.OVERDUE) in html
    assert f'hx-post="{retry_url(placeholder)}"' in html and ">Retry</button>" in html


def test_a_reply_on_its_way_keeps_polling_without_retry(athlete_client, conversation):
    _, placeholder = posted(conversation, status="running", started_at=timezone.now())
    response = athlete_client.get(reverse("chat:message_poll", args=[placeholder.pk]), headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "hx-trigger" in html and "Coach is thinking" in html
    assert "Retry" not in html


def test_a_failed_reply_offers_retry_on_the_page(athlete_client, conversation):
    _, placeholder = posted(conversation, status="failed", content=refusals.BUSY)
    html = athlete_client.get("/").content.decode()
    assert escape(refusals.BUSY) in html
    assert f'action="{retry_url(placeholder)}"' in html


# --- Retry --------------------------------------------------------------------------------------


def test_retry_of_a_failed_reply_shows_the_thinking_placeholder_again(
    athlete_client, conversation, sent, django_capture_on_commit_callbacks
):
    _, placeholder = posted(conversation, status="failed", content=refusals.BUSY)
    with django_capture_on_commit_callbacks(execute=True):
        response = athlete_client.post(retry_url(placeholder), headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(
        f'<div class="bubble bubble-coach bubble-thinking" id="message-{placeholder.pk}"'
    )
    assert "Coach is thinking" in html
    assert sent == [(placeholder.pk, 2)]


def test_a_double_click_on_retry_gives_one_reply(
    athlete_client, conversation, django_capture_on_commit_callbacks
):
    user_message, placeholder = posted(conversation, status="failed", content=refusals.BUSY)
    with django_capture_on_commit_callbacks(execute=True):
        first = athlete_client.post(retry_url(placeholder), headers=HX)
        second = athlete_client.post(retry_url(placeholder), headers=HX)
    assert first.status_code == second.status_code == 200
    replies = Message.objects.filter(reply_to=user_message, role="assistant")
    assert replies.count() == 1
    reply = replies.get()
    assert (reply.status, reply.attempt) == ("complete", 2)


def test_retry_of_someone_elses_reply_is_a_404_and_changes_nothing(client, conversation, sent):
    _, placeholder = posted(conversation, status="failed", content=refusals.BUSY)
    client.force_login(UserFactory())
    response = client.post(retry_url(placeholder), headers=HX)
    assert response.status_code == 404
    placeholder.refresh_from_db()
    assert (placeholder.status, placeholder.attempt) == ("failed", 1)
    assert sent == []


def test_retry_of_a_tool_result_is_a_404(athlete_client, conversation, sent):
    user_message, _ = posted(conversation)
    tool = Message.objects.create(
        conversation=conversation, role="tool", content="x", reply_to=user_message
    )
    assert athlete_client.post(retry_url(tool), headers=HX).status_code == 404


def test_retry_needs_a_post_and_a_login(client, athlete_client, conversation):
    _, placeholder = posted(conversation, status="failed", content=refusals.BUSY)
    assert athlete_client.get(retry_url(placeholder)).status_code == 405
    client.logout()
    assert client.post(retry_url(placeholder)).status_code == 302


def test_retry_without_htmx_redirects_to_the_chat(
    athlete_client, conversation, sent, django_capture_on_commit_callbacks
):
    _, placeholder = posted(conversation, status="failed", content=refusals.BUSY)
    with django_capture_on_commit_callbacks(execute=True):
        response = athlete_client.post(retry_url(placeholder))
    chat_url = reverse("chat:conversation", args=[conversation.pk])
    assert (response.status_code, response["Location"]) == (302, chat_url)
    assert len(sent) == 1


# --- the broker is down -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the task is queued on commit, before the response
def test_a_message_posted_while_the_broker_is_down_is_kept_and_the_athlete_is_told(
    athlete_client, conversation, monkeypatch
):
    def down(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(run_agent, "delay", down)
    url = reverse("chat:message_send", args=[conversation.pk])
    response = athlete_client.post(url, {"text": "Still there?"}, headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Still there?" in html
    assert escape(refusals.BROKER_DOWN) in html
    user_message = conversation.messages.get(role="user")
    placeholder = conversation.messages.get(role="assistant")
    assert (user_message.content, placeholder.status) == ("Still there?", "pending")
    assert placeholder.queued_at is None  # the sweep sends it when the broker is back
    assert f'hx-post="{retry_url(placeholder)}"' in html
