"""The reply's server-sent events: the coach's text as the worker writes it (``chat.stream``).

``GET /messages/<id>/stream/`` (the thinking bubble's ``sse-connect``, htmx's SSE extension) sends

* ``delta``: escaped text to append; ``reset``: empty the text (a new model call after reads);
  ``status``: what the coach is looking at while read tools run;
* ``done``: the saved reply, rendered exactly as the poll renders it (escaped, markdown, the
  proposal card and suggestions out of band), or the overdue bubble with Retry; then the browser
  closes the connection (``sse-close``).

Each event's id is ``<run>/<Redis entry id>``: a browser that reconnects sends ``Last-Event-ID``
and gets only what it missed; a new run (Retry, recovery) starts with ``reset``. The database
decides when the reply is over: the view checks it every ``CHECK_SECONDS`` while nothing arrives,
and after ``done``, so a reply finished without a ``done`` (the sweep failed it, Redis lost it)
still ends the stream. A response lasts at most ``CHAT_STREAM_MAX_SECONDS``; the browser then
reconnects and resumes. Redis stops answering mid-stream: each read gives up ``REDIS_TIMEOUT``
seconds after its block, and the view keeps checking the database and still sends the final event.

**One account, a few streams.** A stream holds one of its account's ``CHAT_STREAMS_PER_ACCOUNT``
slots (``chat.stream_slots``, counted in Redis across web processes). Opening one more closes the
oldest at once: its ``XREAD`` also waits on its slot's close key, and it ends with a ``done`` that
is the reply or, still waiting, the polling bubble (``give_way``), so that tab polls instead and no
browser reconnects in a loop. Redis can't count the stream (out of reach): the same ``done`` at
once, and the page polls the database. A client that stops reading ends after
``CHAT_STREAM_WRITE_TIMEOUT`` under ASGI (``config.write_timeout``).

Access is the poll's: the conversation's athlete only (someone else's reply is a 404). Under ASGI
(``bin/serve``: gunicorn with uvicorn workers) the events come from an async generator reading
Redis with ``redis.asyncio``; under WSGI (``bin/run``'s ``runserver``, the test live server) from a
plain generator on the request's thread, since Django would buffer an async one there. Streaming
switched off (``CHAT_STREAMING``) or no session: 204, which tells the browser not to reconnect,
and the page polls.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils.html import escape

from .. import recovery, stream, stream_slots
from ..access import athlete_conversations
from ..models import Message
from .common import PAGE, WAITING, regions, undoable_events

CHECK_SECONDS = 1.5  # how long one read waits before the database is checked
BLOCK_MS = int(CHECK_SECONDS * 1000)
BATCH = 500  # entries per read


def sse(event: str, data: str, *, event_id: str | None = None) -> str:
    """One event in the text/event-stream format (every line of ``data`` its own field)."""
    lines = [f"id: {event_id}"] if event_id else []
    lines.append(f"event: {event}")
    lines += [
        f"data: {line}" for line in data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    ]
    return "\n".join(lines) + "\n\n"


class _Session:
    """One response's reading position and what the database says about the reply."""

    def __init__(self, request: HttpRequest, message: Message, last_event_id: str | None) -> None:
        self.request = request
        self.message_id = message.pk
        self.attempt = message.attempt
        self.after = stream.parse_event_id(last_event_id, attempt=self.attempt)
        # The browser shows text of another run (Retry, recovery): it starts again empty.
        self.opening = [sse("reset", "<!---->")] if last_event_id and self.after == "0" else []
        self.ends_at = time.monotonic() + float(settings.CHAT_STREAM_MAX_SECONDS)
        self.finished = False
        self.evicted = False

    @property
    def key(self) -> str:
        return stream.stream_key(self.message_id, self.attempt)

    @property
    def open(self) -> bool:
        return not self.finished and time.monotonic() < self.ends_at

    def streams(self, slot: stream_slots.Slot) -> dict[str, str]:
        """What one ``XREAD`` waits on: the reply's entries after the last one sent, and the slot's
        close key from its start (a close appended before this read is seen too)."""
        return {self.key: self.after, slot.close_key: "0"}

    def events(self, result: list) -> tuple[list[str], bool]:
        """The SSE events for an ``XREAD`` result, and whether a ``done`` was among them."""
        chunks, done = [], False
        for key, entries in result or []:
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
                    done = True
        return chunks, done

    def settle(self) -> list[str]:
        """Ask the database: the final event when the reply is over (or overdue), a ``reset``
        when another run now writes it, nothing while this run is still at work.

        Then the connection goes (back to psycopg's pool on PostgreSQL): the stream next waits on
        Redis, for as long as ``CHAT_STREAM_MAX_SECONDS``, and 16 open streams holding theirs
        would take a web process's whole pool. (A test wrapped in a transaction keeps it.)"""
        try:
            return self._settle()
        finally:
            if not connection.in_atomic_block:
                connection.close()

    def give_way(self) -> list[str]:
        """The last event of a stream that may not stay open (its account opened more than
        ``CHAT_STREAMS_PER_ACCOUNT``, or Redis can't count it): the reply when it is there, else
        the polling bubble, which fetches it from the database. The browser then closes the
        connection (``sse-close``) and doesn't reconnect."""
        self.finished = True
        try:
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
        finally:
            if not connection.in_atomic_block:
                connection.close()

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
        if recovery.waiting_state(message) == "overdue":
            self.finished = True
            context = {"message": message, "attempt": 0}
            return [sse("done", render_to_string(f"{PAGE}#thinking", context, self.request))]
        if message.attempt != self.attempt:
            self.attempt, self.after = message.attempt, "0"
            return [sse("reset", "<!---->")]
        return []

    def _final(self, message: Message) -> str:
        conversation = message.conversation
        context = {
            "message": message,
            "conversation": conversation,
            "undoable": undoable_events(conversation),
            **regions(conversation),
        }
        return render_to_string(f"{PAGE}#reply", context, self.request)


def _read(client: redis.Redis, session: _Session, slot: stream_slots.Slot) -> list:
    """One wait on Redis for the reply's entries (or the slot's close), ``CHECK_SECONDS`` at
    most; a Redis out of reach gives nothing after as long (each read gives up ``REDIS_TIMEOUT``
    seconds after its block: a Redis that stopped answering holds no stream)."""
    started = time.monotonic()
    try:
        result = client.xread(session.streams(slot), count=BATCH, block=BLOCK_MS)
    except redis.RedisError:
        slot.reachable = False
        time.sleep(max(0.0, CHECK_SECONDS - (time.monotonic() - started)))
        return []
    slot.reachable = True
    return result


async def _aread(client: redis.asyncio.Redis, session: _Session, slot: stream_slots.Slot) -> list:
    started = time.monotonic()
    try:
        result = await client.xread(session.streams(slot), count=BATCH, block=BLOCK_MS)
    except redis.RedisError:
        slot.reachable = False
        await asyncio.sleep(max(0.0, CHECK_SECONDS - (time.monotonic() - started)))
        return []
    slot.reachable = True
    return result


def _sync_events(session: _Session, slot: stream_slots.Slot) -> Iterator[str]:
    client = stream.client(block=CHECK_SECONDS)
    yield "retry: 1000\n\n"
    yield from session.opening
    if not slot.open(stream.client()):
        yield from session.give_way()
        return
    try:
        yield from session.settle()
        while session.open:
            result = _read(client, session, slot)
            chunks, done = session.events(result)
            yield from chunks
            if session.evicted:
                yield from session.give_way()
            elif done or not result:
                yield from session.settle() or ([": waiting\n\n"] if not result else [])
    finally:
        slot.release(stream.client())


async def _async_events(session: _Session, slot: stream_slots.Slot) -> AsyncIterator[str]:
    client = stream.async_client(block=CHECK_SECONDS)
    settle = sync_to_async(session.settle)
    try:
        yield "retry: 1000\n\n"
        for chunk in session.opening:
            yield chunk
        if not await slot.aopen(client):
            for chunk in await sync_to_async(session.give_way)():
                yield chunk
            return
        try:
            for chunk in await settle():
                yield chunk
            while session.open:
                result = await _aread(client, session, slot)
                chunks, done = session.events(result)
                for chunk in chunks:
                    yield chunk
                if session.evicted:
                    for chunk in await sync_to_async(session.give_way)():
                        yield chunk
                elif done or not result:
                    for chunk in await settle() or ([": waiting\n\n"] if not result else []):
                        yield chunk
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


async def message_stream(request: HttpRequest, message_id: int) -> HttpResponse:
    user = await request.auser()
    if not user.is_authenticated or not stream.enabled():
        return HttpResponse(status=204)
    message = await Message.objects.filter(
        pk=message_id,
        role=Message.Role.ASSISTANT,
        conversation__in=athlete_conversations(user),
    ).afirst()
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
