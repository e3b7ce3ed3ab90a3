"""A waiting reply stream costs nothing (issue 23 item 2): while nothing happens it asks the
database nothing and waits on Redis; it asks when its run writes ``done``, when the sweep or Retry
changes the reply (the reply's changed key wakes it, ``chat.stream.reply_changed``) and when the
reply reaches its deadline. The event-loop path (``AsyncClient`` makes an ASGIRequest; the stream
waits on the process's subscription, ``chat.stream_hub``), a real Redis (the embedded server)."""

from __future__ import annotations

import datetime

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection, transaction
from django.test import AsyncClient
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from chat import recovery, stream
from chat.models import Message
from chat.services import message_send
from tests.chat.test_stream import events
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation():
    return ConversationFactory()


def running_reply(conversation, *, started_at=None):
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text="How was my run?")
    Message.objects.filter(pk=placeholder.pk).update(
        status=Message.Status.RUNNING, started_at=started_at or timezone.now()
    )
    placeholder.refresh_from_db()
    return placeholder


async def _open(user, message):
    client = AsyncClient()
    await client.aforce_login(user)
    response = await client.get(reverse("chat:message_stream", args=[message.pk]))
    assert response.status_code == 200
    return response


def _text(chunk) -> str:
    return chunk.decode() if isinstance(chunk, bytes) else chunk


async def _read_all(response) -> str:
    return "".join([_text(chunk) async for chunk in response.streaming_content])


async def _read_then(response, after_waiting) -> str:
    """Read the stream; once it says it waits, run ``after_waiting`` (database work, in the test's
    thread, which holds its transaction) and read on to the end."""
    chunks: list[str] = []
    async for chunk in response.streaming_content:
        chunks.append(_text(chunk))
        if chunks[-1] == ": waiting\n\n" and len(chunks) == 2:
            await sync_to_async(after_waiting)()
    return "".join(chunks)


def test_a_waiting_stream_asks_the_database_once_however_long_it_waits(
    stream_redis, settings, conversation
):
    # Two seconds of nothing: the former view asked every 1.5 s (three times here).
    settings.CHAT_STREAM_MAX_SECONDS = 2
    placeholder = running_reply(conversation)
    with CaptureQueriesContext(connection) as opening:
        response = async_to_sync(_open)(conversation.athlete, placeholder)
    with CaptureQueriesContext(connection) as waiting:
        body = async_to_sync(_read_all)(response)
    assert body == "retry: 1000\n\n: waiting\n\n: waiting\n\n"  # opened, waited, time up
    asked = [q["sql"] for q in opening.captured_queries if '"chat_message"' in q["sql"]]
    # The opening check: access, state and program in one query (it was two: the access check,
    # then the state); then nothing while nothing happened.
    assert len(asked) == 1, asked
    assert waiting.captured_queries == []


def test_text_arriving_costs_no_query_and_done_asks_once(stream_redis, settings, conversation):
    settings.CHAT_STREAM_MAX_SECONDS = 30
    placeholder = running_reply(conversation)
    publisher = stream.ReplyStream(placeholder.pk, placeholder.attempt)

    def the_worker_writes_and_saves() -> None:
        publisher.on_text("Easy run, ")
        publisher.on_text("well paced.")
        Message.objects.filter(pk=placeholder.pk).update(
            status=Message.Status.COMPLETE, content="Easy run, well paced."
        )
        publisher.done()

    with CaptureQueriesContext(connection) as queries:
        response = async_to_sync(_open)(conversation.athlete, placeholder)
        body = async_to_sync(_read_then)(response, the_worker_writes_and_saves)
    sent = events(body)
    assert [e["event"] for e in sent] == ["delta", "delta", "done"]
    assert "Easy run, well paced." in sent[-1]["data"]
    checks = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith("SELECT")
        and 'FROM "chat_message"' in q["sql"]
        and f'"chat_message"."id" = {placeholder.pk}' in q["sql"]
    ]
    # The opening check and the one after ``done`` (each a select of the reply and its program);
    # none for the deltas.
    assert len(checks) == 2, checks


def test_the_sweep_failing_a_reply_wakes_its_stream(
    stream_redis, settings, conversation, django_capture_on_commit_callbacks
):
    settings.CHAT_STREAM_MAX_SECONDS = 30  # without the wake-up it would end empty after 30 s
    placeholder = running_reply(conversation)
    response = async_to_sync(_open)(conversation.athlete, placeholder)

    def the_sweep_gives_up() -> None:
        Message.objects.filter(pk=placeholder.pk).update(recoveries=recovery.MAX_RECOVERIES)
        later = timezone.now() + recovery.deadline() + datetime.timedelta(seconds=1)
        with django_capture_on_commit_callbacks(execute=True):  # the wake-up follows the commit
            assert recovery.sweep(now=later).failed == 1

    body = async_to_sync(_read_then)(response, the_sweep_gives_up)
    final = events(body)[-1]
    assert final["event"] == "done"
    assert "bubble-error" in final["data"] and "Retry" in final["data"]


def test_a_new_run_wakes_the_stream_which_follows_it(
    stream_redis, settings, conversation, django_capture_on_commit_callbacks, monkeypatch
):
    settings.CHAT_STREAM_MAX_SECONDS = 30
    sent_runs = []
    monkeypatch.setattr(recovery, "send_run", sent_runs.append)  # the new run is written below
    placeholder = running_reply(conversation)
    response = async_to_sync(_open)(conversation.athlete, placeholder)

    publisher = stream.ReplyStream(placeholder.pk, placeholder.attempt + 1)

    def the_sweep_restarts_it_and_the_new_run_writes() -> None:
        later = timezone.now() + recovery.deadline() + datetime.timedelta(seconds=1)
        with django_capture_on_commit_callbacks(execute=True):
            assert recovery.sweep(now=later).restarted == 1
        publisher.on_text("Second try.")

    def the_new_run_finishes() -> None:
        Message.objects.filter(pk=placeholder.pk).update(
            status=Message.Status.COMPLETE, content="Second try."
        )
        publisher.done()

    async def read() -> str:
        chunks: list[str] = []
        async for chunk in response.streaming_content:
            chunks.append(_text(chunk))
            if len(chunks) == 2:  # ": waiting"
                await sync_to_async(the_sweep_restarts_it_and_the_new_run_writes)()
            elif "Second try." in chunks[-1] and "event: delta" in chunks[-1]:
                await sync_to_async(the_new_run_finishes)()
        return "".join(chunks)

    sent = events(async_to_sync(read)())
    assert [e["event"] for e in sent] == ["reset", "delta", "done"]
    assert sent[-1]["event"] == "done" and "Second try." in sent[-1]["data"]


def test_a_reply_reaching_its_deadline_ends_its_stream_with_retry(
    stream_redis, settings, conversation
):
    settings.CHAT_STREAM_MAX_SECONDS = 30  # nothing is published: only the deadline can end it
    settings.AGENT_TURN_DEADLINE = 60
    placeholder = running_reply(
        conversation, started_at=timezone.now() - datetime.timedelta(seconds=59.5)
    )
    response = async_to_sync(_open)(conversation.athlete, placeholder)
    sent = events(async_to_sync(_read_all)(response))
    assert [e["event"] for e in sent] == ["done"]
    assert "Retry" in sent[0]["data"] and "sse-connect" not in sent[0]["data"]


def test_the_changed_key_is_written_only_when_streaming_is_on(stream_redis, settings):
    stream.reply_changed(41)
    assert stream_redis.xlen(stream.changed_key(41)) == 1
    settings.CHAT_STREAMING = False
    stream.reply_changed(42)
    assert stream_redis.exists(stream.changed_key(42)) == 0


def test_an_unreachable_redis_leaves_the_sweep_working(
    settings, conversation, django_capture_on_commit_callbacks
):
    settings.CHAT_STREAMING = True
    settings.CHAT_STREAM_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    placeholder = running_reply(conversation)
    Message.objects.filter(pk=placeholder.pk).update(recoveries=recovery.MAX_RECOVERIES)
    later = timezone.now() + recovery.deadline() + datetime.timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert recovery.sweep(now=later).failed == 1
    placeholder.refresh_from_db()
    assert placeholder.status == Message.Status.FAILED
