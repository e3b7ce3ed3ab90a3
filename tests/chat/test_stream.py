"""Streamed replies: what the agent publishes to Redis while it writes (a real Redis, the embedded
server on a unix socket; the model is the fake server streaming over HTTP) and what the SSE view
sends from it: deltas, "Looking at…" statuses, resuming after ``Last-Event-ID``, the final event
rendered from the saved reply, a mid-stream provider error, and access."""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.db import connection, transaction
from django.test import AsyncClient
from django.urls import reverse
from django.utils import timezone

from chat import stream
from chat.agent import run_turn
from chat.models import Message
from chat.services import message_send
from coach.registry import REGISTRY
from tests.calls import RENAME
from tests.factories import ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db

PAYLOADS = Path(__file__).parents[1] / "llm" / "payloads"


@pytest.fixture(autouse=True)
def short_responses(settings):
    settings.CHAT_STREAM_MAX_SECONDS = 0.2  # a response ends soon after it has nothing to send


@pytest.fixture
def conversation():
    return ConversationFactory()


def send(conversation, text="How was my run?"):
    with transaction.atomic():
        return message_send(conversation=conversation, text=text)


def entries(client, placeholder) -> list[tuple[str, str]]:
    key = stream.stream_key(placeholder.pk, placeholder.attempt)
    return [stream.entry_fields(fields) for _, fields in client.xrange(key)]


def events(body: str) -> list[dict[str, str]]:
    """The events of an SSE body: ``{"id", "event", "data"}`` each."""
    parsed = []
    for block in body.split("\n\n"):
        event: dict[str, str] = {}
        data = []
        for line in block.split("\n"):
            field, _, value = line.partition(": ")
            if field == "data":
                data.append(value)
            elif field in ("id", "event"):
                event[field] = value
        if "event" in event:
            parsed.append({**event, "data": "\n".join(data)})
    return parsed


def read_stream(client, message, **headers) -> str:
    response = client.get(reverse("chat:message_stream", args=[message.pk]), **headers)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/event-stream"
    return b"".join(response.streaming_content).decode()


# --- what may be shown of the text ---------------------------------------------------------------


def test_visible_text_holds_back_tool_markers_and_suggested_replies():
    text = stream.VisibleText(limit=1000)
    shown = [text.feed(p) for p in ["Sure, ", "I'll [TO", "OL_CALL:{...}] and more"]]
    assert "".join(shown) == "Sure, I'll "
    replies = stream.VisibleText(limit=1000)
    shown = [replies.feed(p) for p in ["Rest today.\n", "-", "--\nThanks\nWhy?"]]
    assert "".join(shown) == "Rest today."
    bounded = stream.VisibleText(limit=5)
    assert bounded.feed("Hello world") == "Hello"


def test_looking_at_speaks_the_athletes_words():
    assert stream.looking_at("get_last_activity", {}) == "Looking at your last run…"
    assert stream.looking_at("get_last_activity", {"activity_type": "CYCLING"}) == (
        "Looking at your last ride…"
    )
    assert stream.looking_at("get_sleep_data", {"days": 7}) == "Looking at your sleep…"
    assert stream.looking_at("get_week", {"weekNumber": 3}) == (
        "Looking at week 3 of your program…"
    )


def test_every_read_tool_declares_what_the_bubble_says_while_it_runs():
    reads = [
        spec
        for spec in REGISTRY.values()
        if spec.kind == "read" and not spec.execute.__module__.startswith("coach.")
    ]
    assert len(reads) >= 15
    silent = [spec.name for spec in reads if stream.looking_at(spec.name, {}) == stream.LOOKING_UP]
    assert silent == []
    assert stream.looking_at("recipe_list", {}) == "Looking at your recipes…"


def test_a_tool_that_declares_no_words_gets_the_generic_status():
    assert stream.looking_at("no_such_tool", {"weekNumber": 2}) == "Looking that up…"


def test_event_ids_resume_only_within_the_same_run():
    assert stream.parse_event_id("2/1700000000000-3", attempt=2) == "1700000000000-3"
    assert stream.parse_event_id("1/1700000000000-3", attempt=2) == "0"
    assert stream.parse_event_id("garbage", attempt=1) == "0"
    assert stream.parse_event_id(None, attempt=1) == "0"


# --- the worker's side ---------------------------------------------------------------------------


def test_the_agent_publishes_the_text_as_it_is_written_then_done(
    stream_redis, conversation, fake_openai_server
):
    fake_openai_server.enqueue_openai_stream(
        "Easy run, well paced.\n---\nThanks", pieces=["Easy run, ", "well paced.", "\n---\nThanks"]
    )
    _, placeholder = send(conversation)
    run_turn(placeholder=placeholder, provider=fake_openai_server.provider())
    placeholder.refresh_from_db()
    assert placeholder.content == "Easy run, well paced."
    assert entries(stream_redis, placeholder) == [
        ("delta", "Easy run, "),
        ("delta", "well paced."),
        ("done", ""),
    ]
    ttl = stream_redis.ttl(stream.stream_key(placeholder.pk, placeholder.attempt))
    assert 0 < ttl <= 600


def test_read_tools_say_what_the_coach_is_looking_at(
    stream_redis, conversation, fake_openai_server
):
    server = fake_openai_server
    server.enqueue_openai_stream(
        "Let me look.", [("call_1", "get_last_activity", {})], pieces=["Let me ", "look."]
    )
    server.enqueue_openai_stream("No runs logged yet.", pieces=["No runs ", "logged yet."])
    _, placeholder = send(conversation)
    run_turn(placeholder=placeholder, provider=server.provider())
    placeholder.refresh_from_db()
    assert placeholder.status == Message.Status.COMPLETE
    assert entries(stream_redis, placeholder) == [
        ("delta", "Let me "),
        ("delta", "look."),
        ("reset", ""),  # the stored reply is the last call's text
        ("status", "Looking at your last run…"),
        ("delta", "No runs "),
        ("delta", "logged yet."),
        ("done", ""),
    ]


def test_streaming_off_publishes_nothing(stream_redis, settings, conversation, fake_openai_server):
    settings.CHAT_STREAMING = False
    fake_openai_server.enqueue_openai_text("Fine.")
    _, placeholder = send(conversation)
    run_turn(placeholder=placeholder, provider=fake_openai_server.provider())
    assert entries(stream_redis, placeholder) == []
    assert "stream" not in fake_openai_server.last_request.json


# --- the page's side -----------------------------------------------------------------------------


def running_reply(conversation):
    _, placeholder = send(conversation)
    Message.objects.filter(pk=placeholder.pk).update(status=Message.Status.RUNNING)
    placeholder.refresh_from_db()
    return placeholder


def test_the_view_sends_escaped_deltas_and_statuses_and_resumes_after_last_event_id(
    stream_redis, client, conversation
):
    placeholder = running_reply(conversation)
    publisher = stream.ReplyStream(placeholder.pk, placeholder.attempt)
    publisher.on_text("Squat <b>heavy</b> ")
    publisher.on_text("today.")
    client.force_login(conversation.athlete)

    first = events(read_stream(client, placeholder))
    assert [(e["event"], e["data"]) for e in first] == [
        ("delta", "Squat &lt;b&gt;heavy&lt;/b&gt; "),
        ("delta", "today."),
    ]
    assert all(e["id"].startswith(f"{placeholder.attempt}/") for e in first)

    # The connection dropped after the first event: the browser resumes after it.
    resumed = events(read_stream(client, placeholder, HTTP_LAST_EVENT_ID=first[0]["id"]))
    assert [e["data"] for e in resumed] == ["today."]


def test_the_final_event_is_the_saved_reply_rendered(stream_redis, client, conversation):
    placeholder = running_reply(conversation)
    publisher = stream.ReplyStream(placeholder.pk, placeholder.attempt)
    publisher.on_text("**Rest** <today>")
    Message.objects.filter(pk=placeholder.pk).update(
        status=Message.Status.COMPLETE, content="**Rest** <today>"
    )
    publisher.done()
    client.force_login(conversation.athlete)
    sent = events(read_stream(client, placeholder))
    assert [e["event"] for e in sent] == ["done"]  # a finished reply needs no replay
    final = sent[0]["data"]
    assert f'id="message-{placeholder.pk}"' in final
    assert "<strong>Rest</strong> &lt;today&gt;" in final
    assert 'id="batch-card"' in final and 'hx-swap-oob="true"' in final
    assert "sse-connect" not in final


def test_the_asgi_path_replays_then_sends_the_final_event_once_the_reply_is_saved(
    stream_redis, settings, conversation
):
    settings.CHAT_STREAM_MAX_SECONDS = 10
    placeholder = running_reply(conversation)
    publisher = stream.ReplyStream(placeholder.pk, placeholder.attempt)
    publisher.on_text("Done soon.")
    publisher.done()  # the row is saved a moment later (below), as a slow commit would be
    body = async_to_sync(_read_async)(conversation.athlete, placeholder)
    sent = events(body)
    assert [e["event"] for e in sent] == ["delta", "done"]
    assert "Done soon." in sent[-1]["data"] and "sse-connect" not in sent[-1]["data"]


async def _read_async(user, message) -> str:
    """The ASGI path (``redis.asyncio``): ``AsyncClient`` makes an ASGIRequest."""
    client = AsyncClient()
    await client.aforce_login(user)
    response = await client.get(reverse("chat:message_stream", args=[message.pk]))
    assert response.status_code == 200

    async def save_reply() -> None:
        await asyncio.sleep(0.3)
        await Message.objects.filter(pk=message.pk).aupdate(
            status=Message.Status.COMPLETE, content="Done soon."
        )

    saving = asyncio.ensure_future(save_reply())
    chunks = [chunk async for chunk in response.streaming_content]
    await saving
    return b"".join(c if isinstance(c, bytes) else c.encode() for c in chunks).decode()


def test_a_midstream_provider_error_ends_the_bubble_with_the_friendly_failure_and_retry(
    stream_redis, client, conversation, fake_openai_server
):
    recorded = (PAYLOADS / "openrouter_stream_midstream_error.sse").read_text()
    fake_openai_server.enqueue_sse(
        'data: {"choices":[{"index":0,"delta":{"content":"Your squat "}}]}\n\n' + recorded
    )
    _, placeholder = send(conversation)
    run_turn(placeholder=placeholder, provider=fake_openai_server.provider())
    placeholder.refresh_from_db()
    assert placeholder.status == Message.Status.FAILED
    assert entries(stream_redis, placeholder) == [("delta", "Your squat "), ("done", "")]
    client.force_login(conversation.athlete)
    final = events(read_stream(client, placeholder))[-1]
    assert final["event"] == "done"
    assert "bubble-error" in final["data"]
    assert placeholder.content in final["data"]  # the friendly text, not the provider's
    assert "Rate limit exceeded" not in final["data"]
    assert re.search(
        r'<button type="submit" class="button-link retry">Retry</button>', final["data"]
    )


def test_another_athlete_gets_404_and_a_visitor_204(stream_redis, client, conversation):
    placeholder = running_reply(conversation)
    client.force_login(UserFactory())
    url = reverse("chat:message_stream", args=[placeholder.pk])
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 204  # EventSource stops; the poll sends to login


def test_streaming_off_answers_204_and_the_bubble_polls(settings, client, conversation):
    settings.CHAT_STREAMING = False
    placeholder = running_reply(conversation)
    client.force_login(conversation.athlete)
    assert client.get(reverse("chat:message_stream", args=[placeholder.pk])).status_code == 204
    page = client.get(reverse("chat:home")).content.decode()
    assert "sse-connect" not in page and 'hx-trigger="load delay' in page


def test_the_thinking_bubble_connects_and_its_fallback_poll_polls(
    stream_redis, client, conversation
):
    placeholder = running_reply(conversation)
    client.force_login(conversation.athlete)
    page = client.get(reverse("chat:home")).content.decode()
    assert f'sse-connect="/messages/{placeholder.pk}/stream/"' in page
    assert "htmx-ext-sse/sse.min.js" in page
    poll = reverse("chat:message_poll", args=[placeholder.pk])
    fallback = client.get(f"{poll}?fallback=1", HTTP_HX_REQUEST="true").content.decode()
    assert "sse-connect" not in fallback and "fallback=1" in fallback


def test_a_browser_holding_text_of_an_earlier_run_starts_again_empty(
    stream_redis, client, conversation
):
    placeholder = running_reply(conversation)
    stream.ReplyStream(placeholder.pk, 1).on_text("Old words ")
    Message.objects.filter(pk=placeholder.pk).update(attempt=2)  # Retry: a new run
    stream.ReplyStream(placeholder.pk, 2).on_text("New words")
    client.force_login(conversation.athlete)
    old_id = "1/" + stream_redis.xrange(stream.stream_key(placeholder.pk, 1))[0][0]
    sent = events(read_stream(client, placeholder, HTTP_LAST_EVENT_ID=old_id))
    assert [(e["event"], e["data"]) for e in sent] == [("reset", "<!---->"), ("delta", "New words")]
    assert sent[1]["id"].startswith("2/")


def test_a_proposal_arrives_as_the_final_event_with_its_card(
    stream_redis, client, conversation, fake_openai_server
):
    fake_openai_server.enqueue_openai_stream(
        "I can rename it.", [RENAME], pieces=["I can ", "rename it."]
    )
    _, placeholder = send(conversation, "Rename my squat")
    run_turn(placeholder=placeholder, provider=fake_openai_server.provider())
    assert [kind for kind, _ in entries(stream_redis, placeholder)] == ["delta", "delta", "done"]
    client.force_login(conversation.athlete)
    final = events(read_stream(client, placeholder))[-1]
    assert final["event"] == "done"
    assert "I can rename it." in final["data"]
    assert "Proposed changes" in final["data"] and "Apply Changes" in final["data"]


@pytest.mark.django_db(transaction=True)
def test_a_waiting_stream_holds_no_database_connection_between_its_checks(stream_redis, client):
    # An open stream waits on Redis between checks, for up to CHAT_STREAM_MAX_SECONDS: holding a
    # connection meanwhile, 16 open streams would take a web process's whole pool. (Not in an
    # atomic block here, as a request isn't: a test wrapped in one keeps its connection.)
    conversation = ConversationFactory()
    placeholder = Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        status=Message.Status.RUNNING,
        started_at=timezone.now(),
    )
    client.force_login(conversation.athlete)
    seen: dict[str, object] = {}

    def request_thread() -> None:
        # A thread of its own, as a server's request is (and out of reach of the event loop the
        # browser tests' Playwright leaves in the main thread).
        try:
            response = client.get(reverse("chat:message_stream", args=[placeholder.pk]))
            body = iter(response.streaming_content)
            seen["events"] = [next(body), next(body)]
            seen["held"] = connection.connection is not None
            response.close()
        finally:
            connection.close()

    thread = threading.Thread(target=request_thread)
    thread.start()
    thread.join(timeout=30)
    # The database was checked and said "still at work"; then the stream waits, without it.
    assert seen["events"] == [b"retry: 1000\n\n", b": waiting\n\n"]
    assert seen["held"] is False
