"""What one account's reply streams may hold (issue 18 items 2 and 7): at most
``CHAT_STREAMS_PER_ACCOUNT`` open at once, the oldest closing for a new one with a bubble that then
polls; a Redis that can't count them gives polling instead of a stream; a Redis that stops
answering (SIGSTOP) doesn't hold a stream past its time. A real Redis (the embedded server)."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time

import pytest
from asgiref.sync import async_to_sync
from django.db import connection, transaction
from django.test import AsyncClient
from django.urls import reverse

from chat import stream_slots
from chat.models import Message
from chat.services import message_send
from chat.views.stream import CHECK_SECONDS
from config.asgi import application
from tests.chat.test_stream import events
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation():
    return ConversationFactory()


def running_reply(conversation):
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text="How was my run?")
    Message.objects.filter(pk=placeholder.pk).update(status=Message.Status.RUNNING)
    placeholder.refresh_from_db()
    return placeholder


def open_stream(client, message):
    """A stream opened and read up to its first wait: it holds its slot."""
    response = client.get(reverse("chat:message_stream", args=[message.pk]))
    assert response.status_code == 200
    body = iter(response.streaming_content)
    assert next(body) == b"retry: 1000\n\n"
    assert next(body) == b": waiting\n\n"
    return response, body


def test_opening_one_stream_past_the_cap_closes_the_oldest_whose_bubble_then_polls(
    stream_redis, settings, client, conversation
):
    settings.CHAT_STREAMS_PER_ACCOUNT = 2
    settings.CHAT_STREAM_MAX_SECONDS = 30
    placeholder = running_reply(conversation)
    client.force_login(conversation.athlete)
    _oldest, oldest_body = open_stream(client, placeholder)
    second, _ = open_stream(client, placeholder)
    assert stream_slots.open_streams(stream_redis, conversation.athlete.pk) == 2

    third, _ = open_stream(client, placeholder)

    started = time.monotonic()
    rest = b"".join(oldest_body).decode()  # it ends by itself
    assert time.monotonic() - started < CHECK_SECONDS
    [last] = events(rest)
    assert last["event"] == "done"  # the browser closes the connection (sse-close="done")
    assert f'id="message-{placeholder.pk}"' in last["data"]
    assert "sse-connect" not in last["data"]  # the bubble polls now
    poll = reverse("chat:message_poll", args=[placeholder.pk])
    assert f'hx-get="{poll}?attempt=0&amp;fallback=1"' in last["data"]
    assert stream_slots.open_streams(stream_redis, conversation.athlete.pk) == 2
    for response in (second, third):
        response.close()  # a browser that leaves gives its slot back
    assert stream_slots.open_streams(stream_redis, conversation.athlete.pk) == 0


def test_another_accounts_streams_dont_count(stream_redis, settings, client, conversation):
    settings.CHAT_STREAMS_PER_ACCOUNT = 1
    settings.CHAT_STREAM_MAX_SECONDS = 30
    mine = running_reply(conversation)
    other = ConversationFactory()
    theirs = running_reply(other)
    client.force_login(conversation.athlete)
    response, _ = open_stream(client, mine)
    client.force_login(other.athlete)
    their_response, _ = open_stream(client, theirs)
    assert stream_slots.open_streams(stream_redis, conversation.athlete.pk) == 1
    assert stream_slots.open_streams(stream_redis, other.athlete.pk) == 1
    response.close()
    their_response.close()


def test_a_stream_redis_cannot_count_gives_way_to_polling_at_once(settings, client, conversation):
    settings.CHAT_STREAMING = True
    settings.CHAT_STREAM_MAX_SECONDS = 30
    settings.CHAT_STREAM_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    placeholder = running_reply(conversation)
    client.force_login(conversation.athlete)
    started = time.monotonic()
    response = client.get(reverse("chat:message_stream", args=[placeholder.pk]))
    sent = events(b"".join(response.streaming_content).decode())
    assert time.monotonic() - started < 2 * settings.REDIS_TIMEOUT + 1
    assert [e["event"] for e in sent] == ["done"]
    assert "sse-connect" not in sent[0]["data"] and "fallback=1" in sent[0]["data"]


def test_an_asgi_stream_whose_redis_stops_answering_still_ends_on_time(
    stream_redis_server, settings, conversation
):
    """Redis stopped (SIGSTOP) accepts connections and never answers: a read gives up
    ``REDIS_TIMEOUT`` seconds after its block (redis-py's own default waited 5 s), so the stream
    still ends at ``CHAT_STREAM_MAX_SECONDS``."""
    settings.CHAT_STREAM_MAX_SECONDS = 2
    placeholder = running_reply(conversation)
    # Stopped while waiting: one read that gets no answer, then the stream's time is up.
    limit = CHECK_SECONDS + settings.REDIS_TIMEOUT + 1.5
    chunks, after_stop = async_to_sync(_read_stopping_redis)(
        conversation.athlete, placeholder, stream_redis_server.pid, limit
    )
    assert chunks[:2] == ["retry: 1000\n\n", ": waiting\n\n"]
    assert after_stop < limit


async def _read_stopping_redis(user, message, redis_pid: int, limit: float):
    client = AsyncClient()
    await client.aforce_login(user)
    response = await client.get(reverse("chat:message_stream", args=[message.pk]))
    assert response.status_code == 200
    chunks: list[str] = []
    stopped: list[float] = []

    async def read() -> None:
        async for chunk in response.streaming_content:
            chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
            if len(chunks) == 2:  # the stream waits on Redis: Redis stops answering
                os.kill(redis_pid, signal.SIGSTOP)
                stopped.append(time.monotonic())

    try:
        await asyncio.wait_for(read(), timeout=limit + 10)
    except TimeoutError:
        pytest.fail(f"the stream was still open {limit + 10} s after Redis stopped")
    finally:
        os.kill(redis_pid, signal.SIGCONT)
    return chunks, time.monotonic() - stopped[0]


# --- a client that stops reading (config.asgi's write timeout) -------------------------------------


@pytest.mark.django_db(transaction=True)  # the whole application: each request closes connections
@pytest.mark.django_db(transaction=True)
def test_an_asgi_stream_whose_client_stops_reading_ends_after_the_write_timeout(
    stream_redis, settings, client, conversation
):
    """The server's ``send`` of a body waits while the client reads nothing (its buffers are
    full); the whole application (``config.asgi``) ends that response after
    ``CHAT_STREAM_WRITE_TIMEOUT`` and the stream gives its slot back."""
    settings.CHAT_STREAM_MAX_SECONDS = 30
    settings.CHAT_STREAM_WRITE_TIMEOUT = 0.5
    placeholder = running_reply(conversation)
    client.force_login(conversation.athlete)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    written: list[bytes] = []
    started = time.monotonic()
    on_a_thread_of_its_own(
        _serve_a_client_that_stops_reading,
        reverse("chat:message_stream", args=[placeholder.pk]),
        cookie,
        written,
    )
    took = time.monotonic() - started
    assert written == [b"retry: 1000\n\n"]  # then the client read nothing more
    # Its first wait on Redis (CHECK_SECONDS), then one write that waited the timeout.
    assert took < CHECK_SECONDS + 0.5 + 2
    assert stream_slots.open_streams(stream_redis, conversation.athlete.pk) == 0


def on_a_thread_of_its_own(coroutine_function, *args):
    """Serve the request on a thread of its own, as a server does: a browser test run before in
    this process leaves Playwright's event loop running in the main thread, where async_to_sync
    refuses to run. (Its database connection is that thread's: the test is transactional.)"""
    outcome: dict[str, object] = {}

    def serve() -> None:
        try:
            outcome["value"] = async_to_sync(coroutine_function)(*args)
        except BaseException as exc:  # re-raised in the test's thread
            outcome["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=serve)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the request was still being served after 60 s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


async def _serve_a_client_that_stops_reading(path: str, cookie: bytes, written: list[bytes]):

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver"), (b"cookie", cookie)],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    requested = False

    async def receive():
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never leaves

    async def send(message):
        if message["type"] != "http.response.body":
            return
        if written:  # the client's buffers are full: nothing more is taken
            await asyncio.Event().wait()
        written.append(message.get("body", b""))

    try:
        await asyncio.wait_for(application(scope, receive, send), timeout=20)
    except TimeoutError:
        pytest.fail("the stream was still writing 20 s after its client stopped reading")
