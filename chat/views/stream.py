"""The reply's server-sent events: the coach's text as the worker writes it (``chat.stream``).

``GET /messages/<id>/stream/`` (the thinking bubble's ``sse-connect``, htmx's SSE extension) sends

* ``delta``: escaped text to append; ``reset``: empty the text (a new model call after reads);
  ``status``: what the coach is looking at while read tools run;
* ``done``: the saved reply, rendered exactly as the poll renders it (escaped, markdown, the
  proposal card and suggestions out of band), or the overdue bubble with Retry; then the browser
  closes the connection (``sse-close``).

Each event's id is ``<run>/<Redis entry id>``: a browser that reconnects sends ``Last-Event-ID``
and gets only what it missed; a new run (Retry, recovery) starts with ``reset``.

**A waiting stream asks nothing of the database.** The database decides when the reply is over,
and is asked only when something happened: once when the response opens, after the run's ``done``, when the reply's
*changed* key wakes the stream (the sweep failed or restarted it, Retry started a new run:
``chat.stream.reply_changed``) and when the reply reaches its deadline (the overdue bubble). In
between, one ``XREAD BLOCK`` waits on the run's entries, the changed key and the slot's close key
at once, for as long as the response may last: no query, no timer and no thread; the view's
database checks run on the event loop's shared pool and give their thread back, and the
middleware's sync hand-offs run on threads the process shares (``config.serving.SharedThreads``).
Two cases ask again every ``CHECK_SECONDS``: a ``done`` whose reply the database doesn't show
saved yet, and Redis out of reach (each read gives up ``REDIS_TIMEOUT`` seconds after its block; the view then
asks the database and still sends the final event). A wake-up that was lost (Redis restarted
empty) costs at most one response: it lasts ``CHAT_STREAM_MAX_SECONDS`` (55), then the browser
reconnects and the new response asks the database. That is the safety check.

**One account, a few streams.** A stream holds one of its account's ``CHAT_STREAMS_PER_ACCOUNT``
slots (``chat.stream_slots``, counted in Redis across web processes). Opening one more closes the
oldest at once: its ``XREAD`` also waits on its slot's close key, and it ends with a ``done`` that
is the reply or, still waiting, the polling bubble (``give_way``), so that tab polls instead and no
browser reconnects in a loop. Redis can't count the stream (out of reach): the same ``done`` at
once, and the page polls the database. A client that stops reading ends after
``CHAT_STREAM_WRITE_TIMEOUT`` under ASGI (``config.write_timeout``).

Access is the poll's: the conversation's athlete only (someone else's reply is a 404). Under ASGI
(``bin/serve``) the events come from an async generator reading Redis with ``redis.asyncio``; under
WSGI (``bin/run``'s ``runserver``, the test live server) from a
plain generator on the request's thread, since Django would buffer an async one there. Streaming
switched off (``CHAT_STREAMING``) or no session: 204, which tells the browser not to reconnect,
and the page polls.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import redis
import redis.asyncio
from asgiref.sync import AsyncToSync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import escape

from .. import recovery, stream, stream_slots
from ..access import athlete_conversations
from ..models import Message
from .common import PAGE, WAITING, regions, undoable_events

CHECK_SECONDS = 1.5  # how often the database is asked while Redis can't wake the stream
BATCH = 500  # entries per read
WAITING_NOTE = ": waiting\n\n"  # a comment: the stream is open and waits (the browser ignores it)


def sse(event: str, data: str, *, event_id: str | None = None) -> str:
    """One event in the text/event-stream format (every line of ``data`` its own field)."""
    lines = [f"id: {event_id}"] if event_id else []
    lines.append(f"event: {event}")
    lines += [
        f"data: {line}" for line in data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    ]
    return "\n".join(lines) + "\n\n"


def _closing_connection(work: Callable[[], Any]) -> Any:
    """Run ``work``, then give the connection back (to psycopg's pool on PostgreSQL): the stream
    next waits on Redis for as long as ``CHAT_STREAM_MAX_SECONDS``, and 16 open streams holding
    theirs would take a web process's whole pool. (A test wrapped in a transaction keeps it.)"""
    try:
        return work()
    finally:
        if not connection.in_atomic_block:
            connection.close()


def _db(work: Callable[[], Any]) -> Callable[[], Any]:
    """``work`` (database work) made awaitable. In a server it runs on the event loop's shared
    pool and its thread goes back at once: a thread-sensitive call would run on the request's
    shared thread (``config.serving.SharedThreads``), in turn with other streams' openings, or,
    under Django's own handler, on a thread of the response's own for its whole life. Under a
    sync caller (Django's test client, an ``AsyncClient`` inside ``async_to_sync``, the
    middleware's chain inside WhiteNoise's ``async_to_sync`` while the view runs) it runs in that
    caller's thread, whose connection holds a test's transaction."""
    under_sync_caller = getattr(AsyncToSync.executors, "current", None) is not None
    return sync_to_async(work, thread_sensitive=under_sync_caller)


class _Session:
    """One response's reading position and what the database says about the reply."""

    def __init__(self, request: HttpRequest, message: Message, last_event_id: str | None) -> None:
        self.request = request
        self.message_id = message.pk
        self.attempt = message.attempt
        self.after = stream.parse_event_id(last_event_id, attempt=self.attempt)
        self.changed_key = stream.changed_key(message.pk)
        self.changed_after = "0"  # the changed key's newest entry when the response opened
        # The browser shows text of another run (Retry, recovery): it starts again empty.
        self.opening = [sse("reset", "<!---->")] if last_event_id and self.after == "0" else []
        self.ends_at = time.monotonic() + float(settings.CHAT_STREAM_MAX_SECONDS)
        self.ask_at: float | None = None  # when to ask the database with no wake-up (deadline)
        self.woken = False  # something happened: ask the database
        self.done_seen = False  # this run wrote ``done``
        self.finished = False
        self.evicted = False

    @property
    def key(self) -> str:
        return stream.stream_key(self.message_id, self.attempt)

    @property
    def open(self) -> bool:
        return not self.finished and time.monotonic() < self.ends_at

    def streams(self, slot: stream_slots.Slot) -> dict[str, str]:
        """What one ``XREAD`` waits on: the run's entries after the last one sent, the reply's
        changed key after its entry seen at the start, and the slot's close key from its start (a
        close appended before this read is seen too)."""
        return {self.key: self.after, self.changed_key: self.changed_after, slot.close_key: "0"}

    def block_ms(self) -> int:
        """How long the next read may wait: until the response ends or the database must be
        asked anyway (at least 1 ms: ``BLOCK 0`` would wait for ever)."""
        until = self.ends_at if self.ask_at is None else min(self.ends_at, self.ask_at)
        return max(1, int((until - time.monotonic()) * 1000))

    def must_ask(self, slot: stream_slots.Slot) -> bool:
        """Whether the database is asked now: something happened, the deadline came, or Redis
        can't wake the stream."""
        due = self.ask_at is not None and time.monotonic() >= self.ask_at
        return self.woken or due or not slot.reachable

    def events(self, result: list) -> list[str]:
        """The SSE events for an ``XREAD`` result; notes a ``done``, a wake-up or a close."""
        chunks = []
        for key, entries in result or []:
            key = key.decode() if isinstance(key, bytes) else str(key)
            last = entries[-1][0] if entries else None
            last = last.decode() if isinstance(last, bytes) else last
            if key == self.changed_key:
                self.changed_after, self.woken = last or self.changed_after, True
                continue
            if key != self.key:  # the slot's close key: the account opened one stream too many
                self.evicted = True
                continue
            for entry_id, fields in entries:
                entry_id = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
                self.after = entry_id
                kind, text = stream.entry_fields(fields)
                ident = stream.event_id(self.attempt, entry_id)
                if kind == "delta":
                    chunks.append(sse("delta", str(escape(text)), event_id=ident))
                elif kind == "status":
                    chunks.append(sse("status", str(escape(text)), event_id=ident))
                elif kind == "reset":
                    chunks.append(sse("reset", "<!---->", event_id=ident))
                elif kind == "done":
                    self.woken = self.done_seen = True
        return chunks

    def settle(self) -> list[str]:
        """Ask the database: the final event when the reply is over (or overdue), a ``reset``
        when another run now writes it, nothing while this run is still at work."""
        self.woken = False
        return _closing_connection(self._settle)

    def give_way(self) -> list[str]:
        """The last event of a stream that may not stay open (its account opened more than
        ``CHAT_STREAMS_PER_ACCOUNT``, or Redis can't count it): the reply when it is there, else
        the polling bubble, which fetches it from the database. The browser then closes the
        connection (``sse-close``) and doesn't reconnect."""
        self.finished = True
        return _closing_connection(self._give_way)

    def _give_way(self) -> list[str]:
        message = (
            Message.objects.select_related("conversation__program")
            .filter(pk=self.message_id)
            .first()
        )
        if message is None:
            return []
        if message.status not in WAITING:
            return [sse("done", self._final(message))]
        context = {"message": message, "attempt": 0, "fallback": True}
        return [sse("done", render_to_string(f"{PAGE}#thinking", context, self.request))]

    def _settle(self) -> list[str]:
        message = (
            Message.objects.select_related("conversation__program").filter(pk=self.message_id)
        ).first()
        if message is None:
            self.finished = True
            return []
        if message.status not in WAITING:
            self.finished = True
            return [sse("done", self._final(message))]
        now = timezone.now()
        if recovery.waiting_state(message, now) == "overdue":
            self.finished = True
            context = {"message": message, "attempt": 0}
            return [sse("done", render_to_string(f"{PAGE}#thinking", context, self.request))]
        self._ask_again(message, now)
        if message.attempt != self.attempt:
            self.attempt, self.after, self.done_seen = message.attempt, "0", False
            return [sse("reset", "<!---->")]
        return []

    def _ask_again(self, message: Message, now: datetime.datetime) -> None:
        """When to ask without a wake-up: at the reply's deadline (it then shows as overdue), or
        soon when its run wrote ``done`` and the saved reply isn't visible yet."""
        since = message.started_at or message.queued_at or message.created_at
        left = (since + recovery.deadline() - now).total_seconds()
        self.ask_at = time.monotonic() + max(0.0, left)
        if self.done_seen and message.attempt == self.attempt:
            self.ask_at = min(self.ask_at, time.monotonic() + CHECK_SECONDS)

    def _final(self, message: Message) -> str:
        conversation = message.conversation
        context = {
            "message": message,
            "conversation": conversation,
            "undoable": undoable_events(conversation),
            **regions(conversation),
        }
        return render_to_string(f"{PAGE}#reply", context, self.request)


def _block_seconds() -> float:
    """The longest a read may wait (the response's whole life): what the clients' socket timeouts
    allow for (``chat.stream.client``)."""
    return float(settings.CHAT_STREAM_MAX_SECONDS)


def _read(client: redis.Redis, session: _Session, slot: stream_slots.Slot) -> list:
    """One wait on Redis for the run's entries, the reply's changed key or the slot's close, until
    the response ends or the database must be asked; a Redis out of reach gives nothing after
    ``CHECK_SECONDS`` (each read gives up ``REDIS_TIMEOUT`` seconds after its block: a Redis that
    stopped answering holds no stream)."""
    started = time.monotonic()
    try:
        result = client.xread(session.streams(slot), count=BATCH, block=session.block_ms())
    except redis.RedisError:
        slot.reachable = False
        time.sleep(max(0.0, CHECK_SECONDS - (time.monotonic() - started)))
        return []
    slot.reachable = True
    return result


async def _aread(client: redis.asyncio.Redis, session: _Session, slot: stream_slots.Slot) -> list:
    started = time.monotonic()
    try:
        result = await client.xread(session.streams(slot), count=BATCH, block=session.block_ms())
    except redis.RedisError:
        slot.reachable = False
        await asyncio.sleep(max(0.0, CHECK_SECONDS - (time.monotonic() - started)))
        return []
    slot.reachable = True
    return result


def _newest(entries: list) -> str:
    """The id of the newest entry of an ``XREVRANGE … COUNT 1`` answer ("0" when there is none)."""
    if not entries:
        return "0"
    newest = entries[0][0]
    return newest.decode() if isinstance(newest, bytes) else str(newest)


def _sync_events(session: _Session, slot: stream_slots.Slot) -> Iterator[str]:
    client = stream.client(block=_block_seconds())
    yield "retry: 1000\n\n"
    yield from session.opening
    if not slot.open(stream.client()):
        yield from session.give_way()
        return
    try:
        try:  # before the database is asked: a change after that wakes the stream
            newest = stream.client().xrevrange(session.changed_key, count=1)  # REDIS_TIMEOUT
            session.changed_after = _newest(newest)
        except redis.RedisError:
            slot.reachable = False
        yield from session.settle() or [WAITING_NOTE]
        while session.open:
            result = _read(client, session, slot)
            yield from session.events(result)
            if session.evicted:
                yield from session.give_way()
            elif session.must_ask(slot):
                yield from session.settle() or ([WAITING_NOTE] if not result else [])
            elif not result:
                yield WAITING_NOTE
    finally:
        slot.release(stream.client())


async def _async_events(session: _Session, slot: stream_slots.Slot) -> AsyncIterator[str]:
    client = stream.async_client(block=_block_seconds())
    settle, give_way = _db(session.settle), _db(session.give_way)
    try:
        yield "retry: 1000\n\n"
        for chunk in session.opening:
            yield chunk
        if not await slot.aopen(client):
            for chunk in await give_way():
                yield chunk
            return
        try:
            try:  # before the database is asked: a change after that wakes the stream
                newest = client.xrevrange(session.changed_key, count=1)
                session.changed_after = _newest(
                    await asyncio.wait_for(newest, float(settings.REDIS_TIMEOUT))
                )
            except (redis.RedisError, TimeoutError):
                slot.reachable = False
            for chunk in await settle() or [WAITING_NOTE]:
                yield chunk
            while session.open:
                result = await _aread(client, session, slot)
                for chunk in session.events(result):
                    yield chunk
                if session.evicted:
                    for chunk in await give_way():
                        yield chunk
                elif session.must_ask(slot):
                    for chunk in await settle() or ([WAITING_NOTE] if not result else []):
                        yield chunk
                elif not result:
                    yield WAITING_NOTE
        finally:
            await slot.arelease(client)
    finally:
        await client.aclose()


class _AsyncEvents:
    """The ASGI path's events, and a ``close`` that Django calls when the response ends (it
    closes only its own wrapper of an async generator: ours would end when collected, its
    ``finally`` later, in a task of its own), so the slot is given back at once."""

    def __init__(self, session: _Session, slot: stream_slots.Slot) -> None:
        self.slot = slot
        self.events = _async_events(session, slot)

    def __aiter__(self) -> AsyncIterator[str]:
        return self.events

    def close(self) -> None:
        self.slot.release(stream.client())


def _own_reply(user: Any, message_id: int) -> Message | None:
    return _closing_connection(
        lambda: Message.objects.filter(
            pk=message_id,
            role=Message.Role.ASSISTANT,
            conversation__in=athlete_conversations(user),
        ).first()
    )


async def message_stream(request: HttpRequest, message_id: int) -> HttpResponse:
    user = await request.auser()
    if not user.is_authenticated or not stream.enabled():
        return HttpResponse(status=204)
    message = await _db(lambda: _own_reply(user, message_id))()
    if message is None:
        raise Http404("No such reply.")
    session = _Session(request, message, request.headers.get("Last-Event-ID"))
    slot = stream_slots.Slot(user.pk)
    if isinstance(request, ASGIRequest):
        events: Iterator[str] | _AsyncEvents = _AsyncEvents(session, slot)
    else:
        events = _sync_events(session, slot)  # Django closes it: its ``finally`` runs
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
