"""One reply stream's state (``chat.views.stream``): where it reads, what the database says about
the reply, and the events that says.

**The opening is one query.** The view loads the reply once, with its access check and its
program (``own_reply``), and decides from that row whether the reply is over (the final event at
once), overdue (the bubble with Retry) or still being written (wait). Later checks
(``settle``) happen only when something woke the stream, each one query, each giving its
database connection back at once (``_closing_connection``).
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import AsyncToSync, sync_to_async
from django.conf import settings
from django.db import connection
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import escape

from .. import recovery, stream, stream_slots
from ..access import athlete_conversations
from ..models import Message
from .common import PAGE, WAITING, regions, undoable_events

CHECK_SECONDS = 1.5  # how often the database is asked while Redis can't wake the stream


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
    pool and its thread goes back at once. Under a sync caller (Django's test client, an
    ``AsyncClient`` inside ``async_to_sync``) it runs in that caller's thread, whose connection
    holds a test's transaction."""
    under_sync_caller = getattr(AsyncToSync.executors, "current", None) is not None
    return sync_to_async(work, thread_sensitive=under_sync_caller)


def own_reply(user: Any, message_id: int) -> Message | None:
    """The athlete's own assistant reply ``message_id`` with its conversation and program (what
    the checks and the final event read), or None."""
    return _one(
        Message.objects.filter(
            pk=message_id,
            role=Message.Role.ASSISTANT,
            conversation__in=athlete_conversations(user),
        )
    )


def _one(messages: QuerySet[Message]) -> Message | None:
    """The reply of a primary-key filter with its conversation and program, or None. ``get``, not
    ``first``: no ORDER BY to build for one row (compiling ``Message``'s ordering was 6 % of a
    stream's CPU, py-spy 2026-11-26)."""
    try:
        return messages.select_related("conversation__program").get()
    except Message.DoesNotExist:
        return None


class Session:
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

    def seconds_left(self) -> float:
        """How long the next wait may last (``block_ms``, to the millisecond's fraction)."""
        until = self.ends_at if self.ask_at is None else min(self.ends_at, self.ask_at)
        return max(0.0, until - time.monotonic())

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
        return _closing_connection(lambda: self.check(self._load()))

    def give_way(self) -> list[str]:
        """The last event of a stream that may not stay open (its account opened more than
        ``CHAT_STREAMS_PER_ACCOUNT``, or Redis can't count it): the reply when it is there, else
        the polling bubble, which fetches it from the database. The browser then closes the
        connection (``sse-close``) and doesn't reconnect."""
        return _closing_connection(lambda: self.give_way_from(self._load()))

    def give_way_from(self, message: Message | None) -> list[str]:
        """``give_way`` with the reply as just loaded."""
        self.finished = True
        if message is None:
            return []
        if message.status not in WAITING:
            return [sse("done", self._final(message))]
        context = {"message": message, "attempt": 0, "fallback": True}
        return [sse("done", render_to_string(f"{PAGE}#thinking", context, self.request))]

    def _load(self) -> Message | None:
        return _one(Message.objects.filter(pk=self.message_id))

    def check(self, message: Message | None) -> list[str]:
        """What the reply as just loaded means for the stream (see ``settle``)."""
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
