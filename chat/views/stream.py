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
and is asked only when something happened: once when the response opens (one query: access, state
and program, ``stream_session.own_reply``), after the run's ``done``, when the reply's *changed*
key wakes the stream (the sweep failed or restarted it, Retry started a new run:
``chat.stream.reply_changed``) and when the reply reaches its deadline (the overdue bubble).

**Where it runs.** The view is a plain one: ``bin/serve`` (``config.serving.OneHandOff``) runs it
with the middleware in one pass on a thread of its pool, like any request, and the opening (the
query, the slot, the first events) happens there. The wait then runs on the event loop
(``_async_events``; ``config.serving.LOOP_STREAMS``, or Django's ASGI handler): it joins the
process's one Redis subscription (``chat.stream_hub``) and waits on an ``asyncio.Event``, with no
connection, no thread and no query of its own; a publish for its reply (or its slot) wakes it and
it reads the run's entries, the changed key and the slot's close key without blocking. Measured
2026-11-26 (one uvicorn worker on PostgreSQL, 150 streams held 10 s, CPU of the process per
stream, medians of 4 interleaved runs): 17.2 ms before (Django's ASGI handler, a Redis
connection per stream), 10.1 ms now.
Two cases ask again every ``CHECK_SECONDS``: a ``done`` whose reply the database doesn't show
saved yet, and Redis out of reach (the view then asks the database and still sends the final
event). A wake-up that was lost (Redis restarted empty) costs at most one response: it lasts
``CHAT_STREAM_MAX_SECONDS`` (55), then the browser reconnects and the new response asks the
database. That is the safety check. Under ``runserver`` and the test live server (WSGI, no loop)
the wait is a plain generator on the request's thread, one ``XREAD BLOCK`` at a time.

**One account, a few streams.** A stream holds one of its account's ``CHAT_STREAMS_PER_ACCOUNT``
slots (``chat.stream_slots``, counted in Redis across web processes). Opening one more closes the
oldest at once: its slot's close key wakes it, and it ends with a ``done`` that is the reply or,
still waiting, the polling bubble (``give_way``), so that tab polls instead and no browser
reconnects in a loop. Redis can't count the stream (out of reach): the same ``done`` at once, and
the page polls the database. A reply already over when the stream opens takes no slot. A client
that stops reading ends after ``CHAT_STREAM_WRITE_TIMEOUT`` under ``bin/serve``
(``config.write_timeout``).

Access is the poll's: the conversation's athlete only (someone else's reply is a 404). Streaming
switched off (``CHAT_STREAMING``) or no session: 204, which tells the browser not to reconnect,
and the page polls.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse

from config.serving import LOOP_STREAMS

from .. import stream, stream_hub, stream_slots
from ..models import Message
from .stream_session import CHECK_SECONDS, Session, _closing_connection, _db, own_reply

__all__ = ["CHECK_SECONDS", "message_stream"]

BATCH = 500  # entries per read
RETRY = "retry: 1000\n\n"  # the browser reconnects after 1 s (a response lasts at most 55 s)
WAITING_NOTE = ": waiting\n\n"  # a comment: the stream is open and waits (the browser ignores it)


def _block_seconds() -> float:
    """The longest a read may wait (the response's whole life): what the clients' socket timeouts
    allow for (``chat.stream.client``)."""
    return float(settings.CHAT_STREAM_MAX_SECONDS)


def _read(client: redis.Redis, session: Session, slot: stream_slots.Slot) -> list:
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


def _newest_change(message_id: int) -> str | None:
    """The newest entry of the reply's changed key ("0": none), read before the database is asked
    so that a change after that wakes the stream; None when Redis can't be reached."""
    try:
        entries = stream.client().xrevrange(stream.changed_key(message_id), count=1)
    except redis.RedisError:
        return None
    if not entries:
        return "0"
    newest = entries[0][0]
    return newest.decode() if isinstance(newest, bytes) else str(newest)


def _sync_events(session: Session, slot: stream_slots.Slot, first: list[str]) -> Iterator[str]:
    client = stream.client(block=_block_seconds())
    try:
        yield from first
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


async def _async_events(
    session: Session, slot: stream_slots.Slot, first: list[str]
) -> AsyncIterator[str]:
    """The wait on the event loop: the process's one subscription (``chat.stream_hub``) wakes the
    stream; each wake-up reads its keys without blocking."""
    hub = stream_hub.for_this_loop()
    woken, channels = asyncio.Event(), [stream.wake_channel(session.message_id), slot.close_key]
    settle, give_way = _db(session.settle), _db(session.give_way)
    try:
        for chunk in first:
            yield chunk
        slot.reachable = await hub.join(woken, channels)
        _unless_cancelled()
        read = True  # once subscribed: what came before
        while True:
            result: list = []
            if read:
                found = await hub.read(session.streams(slot))
                _unless_cancelled()
                slot.reachable, result = found is not None, found or []
            for chunk in session.events(result):
                yield chunk
            if session.evicted:
                for chunk in await give_way():
                    yield chunk
            elif session.must_ask(slot):
                for chunk in await settle() or ([WAITING_NOTE] if not read else []):
                    yield chunk
            elif not read:  # the wait ended with nothing published
                yield WAITING_NOTE
            if not session.open:
                break
            read = await _woken(woken, session, slot)
    finally:
        await hub.leave(woken, channels)
        # In a thread, on the process's pooled client (this generator may be finishing in a task
        # that was cancelled: a client that left).
        await sync_to_async(slot.release, thread_sensitive=False)(stream.client())


def _unless_cancelled() -> None:
    """Raise ``CancelledError`` if the stream's task was cancelled (its client left) during the
    last await: redis-py (8.1) swallows a cancellation that arrives while a pooled connection is
    being made, and the stream would then wait out its whole life (up to 55 s, holding its slot).
    Measured in test_serving_threads: 3–4 of 20 streams left at their opening did, in half the
    runs."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def _woken(woken: asyncio.Event, session: Session, slot: stream_slots.Slot) -> bool:
    """Wait until something was published for the stream (True), or until it ends, the database
    must be asked or, Redis out of reach, ``CHECK_SECONDS`` passed (False)."""
    # A few ms past the end: a loop's timer may fire a little early (uvloop counts whole ms),
    # and a wait that ended just before the response's end would only start another.
    seconds = session.seconds_left() + 0.005
    if not slot.reachable:
        seconds = min(seconds, CHECK_SECONDS)
    try:
        async with asyncio.timeout(seconds):
            await woken.wait()
    except TimeoutError:
        return not slot.reachable  # Redis out of reach: try reading again
    woken.clear()
    return True


class _AsyncEvents:
    """The events read on the event loop, and a ``close`` that the server calls when the response
    ends (Django closes only its own wrapper of an async generator: ours would end when collected,
    its ``finally`` later, in a task of its own), so the slot is given back at once."""

    def __init__(self, session: Session, slot: stream_slots.Slot, first: list[str]) -> None:
        self.slot = slot
        self.events = _async_events(session, slot, first)

    def __aiter__(self) -> AsyncIterator[str]:
        return self.events

    def close(self) -> None:
        self.slot.release(stream.client())


async def _replay(chunks: list[str]) -> AsyncIterator[str]:
    for chunk in chunks:
        yield chunk


def _event_stream(request: HttpRequest, chunks: list[str], wait=None) -> HttpResponse:
    """The response: ``chunks``, then, with ``wait`` (a session and its slot), the events of the
    wait, read on the event loop where the server can (``config.serving.LOOP_STREAMS``, Django's
    ASGI handler), else in the request's thread (``runserver``; Django closes the generator, so
    its ``finally`` runs)."""
    on_the_loop = isinstance(request, ASGIRequest) or request.META.get(LOOP_STREAMS)
    if wait is None:
        content = _replay(chunks) if on_the_loop else iter(chunks)
    elif on_the_loop:
        content = _AsyncEvents(*wait, chunks)
    else:
        content = _sync_events(*wait, chunks)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def message_stream(request: HttpRequest, message_id: int) -> HttpResponse:
    """The opening runs here, in the request's thread, after the middleware in the same pass (no
    thread hand-off of its own); the wait that follows is ``_event_stream``'s."""
    if not request.user.is_authenticated or not stream.enabled():
        return HttpResponse(status=204)
    changed_after = _newest_change(message_id)  # before the database is asked
    last_event_id = request.headers.get("Last-Event-ID")

    def opening() -> tuple[Session, Message, list[str]]:
        message = own_reply(request.user, message_id)
        if message is None:
            raise Http404("No such reply.")
        session = Session(request, message, last_event_id)
        return session, message, session.check(message)

    session, message, checked = _closing_connection(opening)
    first = [RETRY, *session.opening, *checked]
    if session.finished:  # over (or overdue) already: the final event, and no slot to take
        return _event_stream(request, first)
    slot = stream_slots.Slot(request.user.pk)
    if changed_after is None or not slot.open(stream.client()):  # Redis can't count it
        last = _closing_connection(lambda: session.give_way_from(message))
        return _event_stream(request, first + last)
    session.changed_after = changed_after
    return _event_stream(request, [*first, WAITING_NOTE], (session, slot))
