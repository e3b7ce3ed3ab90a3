"""Streamed replies: what the worker publishes while it writes a reply, and how it is read back.

**The channel.** Each run of a reply has one Redis Stream, ``spotter:reply:<message id>:<run>``.
The worker appends (``XADD``) one entry per event and the key expires ``CHAT_STREAM_TTL`` seconds
after the last one. Entries:

* ``delta``: text the model just wrote (what the athlete may see of it, ``VisibleText``);
* ``reset``: a new model call begins after read tools ran; its text replaces the earlier text (the
  stored reply is the last call's text, so the bubble must end with that too);
* ``status``: a read tool starts ("Looking at your last run…", seed 003's ``function_call``);
* ``done``: the reply is saved (published after the transaction committed).

An entry's id (``1700000000000-0``) prefixed by the run (``2/1700000000000-0``) is the SSE event
id, so a browser that reconnects with ``Last-Event-ID`` resumes after the last event it had
(``parse_event_id``). The database stays the source of truth: the view answers the final event
from the saved message.

**The wake-up.** A reply can change without its run writing a ``done``: the sweep fails it or
starts a new run, the athlete's Retry starts one (``chat.recovery``). Each then appends one entry
to the reply's *changed* stream, ``spotter:reply-changed:<message id>`` (``reply_changed``, once
the transaction committed). Every append, the run's and the changed key's, is also published on the
reply's wake channel (``wake_channel``), which wakes the streams waiting on the reply in every web
process (``chat.stream_hub``); they read both keys, so they ask the database only when something
happened, never on a timer while nothing does (``chat.views.stream``).

Publishing is best effort: Redis unreachable, the run goes on, the page gets the reply by its
fallback poll. Every client here gives up ``REDIS_TIMEOUT`` seconds after what a command may
block (a stopped Redis accepts connections and never answers). ``CHAT_STREAMING=False`` switches streaming off everywhere (the page polls).
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

import redis
from django.conf import settings

from coach.registry import get_tool

logger = logging.getLogger(__name__)

KEY = "spotter:reply:{message_id}:{attempt}"
CHANGED_KEY = "spotter:reply-changed:{message_id}"
# What is appended to either key is also published here: it wakes the streams waiting on the reply
# (``chat.stream_hub``: one subscription per web process).
WAKE_CHANNEL = "spotter:reply-wake:{message_id}"
CHANGED_MAXLEN = 16  # a reply changes a few times at most; a reader needs only the newest entry
_EVENT_ID = re.compile(r"^(\d{1,9})/(\d{1,20}-\d{1,20})$")
_TOOL_MARKER = "[TOOL_CALL"


def stream_key(message_id: int, attempt: int) -> str:
    return KEY.format(message_id=message_id, attempt=attempt)


def changed_key(message_id: int) -> str:
    return CHANGED_KEY.format(message_id=message_id)


def wake_channel(message_id: int) -> str:
    return WAKE_CHANNEL.format(message_id=message_id)


def event_id(attempt: int, entry_id: str) -> str:
    return f"{attempt}/{entry_id}"


def parse_event_id(raw: str | None, *, attempt: int) -> str:
    """Where to resume reading run ``attempt``: after ``Last-Event-ID`` when it names an entry of
    that run, else from the start ("0")."""
    match = _EVENT_ID.match((raw or "").strip())
    if match is None or int(match.group(1)) != attempt:
        return "0"
    return match.group(2)


def enabled() -> bool:
    return bool(getattr(settings, "CHAT_STREAMING", False))


# --- what the athlete may see of the text --------------------------------------------------------


class VisibleText:
    """The part of a streaming reply that may be shown, growing as text arrives.

    Held back: everything from a ``[TOOL_CALL`` marker on (it becomes a tool call, never text),
    everything from a ``---`` line on (the suggested replies, ``coach.replies``), a trailing piece
    that may still turn into one of those, and anything past ``CHAT_MAX_REPLY_CHARS``."""

    def __init__(self, limit: int | None = None) -> None:
        self.text = ""
        self.shown = 0  # characters already handed out
        self.limit = int(settings.CHAT_MAX_REPLY_CHARS if limit is None else limit)
        self.closed = False

    def feed(self, piece: str) -> str:
        """Add ``piece``; return the newly showable text ("" when nothing new may be shown)."""
        if self.closed or not piece:
            return ""
        self.text += piece
        visible = self._visible()
        if len(visible) <= self.shown:
            return ""
        new, self.shown = visible[self.shown :], len(visible)
        return new

    def _visible(self) -> str:
        text = self.text[: self.limit]
        marker = text.find(_TOOL_MARKER)
        if marker >= 0:
            text, self.closed = text[:marker], True
        separator = re.search(r"(?:^|\n)[ \t]*---[ \t]*(?:\n|$)", text)
        if separator is not None and separator.end() < len(text):
            text, self.closed = text[: separator.start()], True
        elif separator is not None:  # "---" ends the text: maybe a separator, maybe not yet
            text = text[: separator.start()]
        # A trailing "[TOOL" or a last line that may become "---" waits for the next piece.
        bracket = text.rfind("[")
        if bracket >= 0 and _TOOL_MARKER.startswith(text[bracket:]):
            text = text[:bracket]
        last_line = text.rsplit("\n", 1)[-1]
        if "\n" in text and "---".startswith(last_line.strip()):
            text = text[: len(text) - len(last_line) - 1]
        return text


# --- what a read tool's status says --------------------------------------------------------------

LOOKING_UP = "Looking that up…"


def looking_at(name: str, arguments: dict[str, Any] | None) -> str:
    """What the bubble says while read tool ``name`` runs, in the athlete's words, as the tool
    declares it (``ToolSpec.looking_at``)."""
    spec = get_tool(name)
    said = spec.looking_at if spec is not None else ""
    if callable(said):
        said = said(arguments if isinstance(arguments, dict) else {})
    return said or LOOKING_UP


# --- publishing (the worker) ---------------------------------------------------------------------

_clients: dict[tuple[str, float, float], redis.Redis] = {}
_clients_lock = threading.Lock()


def redis_url() -> str:
    """``CHAT_STREAM_REDIS_URL`` as redis-py reads it (Kombu's ``redis+socket://`` for a unix
    socket, as ``REDIS_URL`` may be written, is ``unix://``)."""
    url = str(settings.CHAT_STREAM_REDIS_URL)
    if url.startswith("redis+socket://"):
        return "unix://" + url.removeprefix("redis+socket://")
    return url


def client(*, block: float = 0.0) -> redis.Redis:
    """The process's Redis client for ``CHAT_STREAM_REDIS_URL`` (thread-safe, pooled), for
    commands that block at most ``block`` seconds (``XREAD BLOCK``): each gives up
    ``REDIS_TIMEOUT`` seconds after that, so a Redis that stopped answering holds no request."""
    url = redis_url()
    timeout = float(settings.REDIS_TIMEOUT)
    with _clients_lock:
        found = _clients.get((url, timeout, block))
        if found is None:
            found = _clients[(url, timeout, block)] = redis.Redis.from_url(
                url,
                socket_timeout=block + timeout,
                socket_connect_timeout=timeout,
                decode_responses=True,
            )
        return found


class ReplyStream:
    """What one run of the agent publishes for its reply (see the module docstring)."""

    def __init__(self, message_id: int, attempt: int) -> None:
        self.key = stream_key(message_id, attempt)
        self.wake = wake_channel(message_id)
        self.redis: redis.Redis | None = client() if enabled() else None
        self.visible = VisibleText()

    @property
    def live(self) -> bool:
        """Publishing (streaming on, Redis answering): worth asking the model to stream."""
        return self.redis is not None

    def _add(self, kind: str, text: str = "") -> None:
        if self.redis is None:
            return
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.xadd(self.key, {"type": kind, "text": text})
            pipe.expire(self.key, int(settings.CHAT_STREAM_TTL))
            pipe.publish(self.wake, kind)  # the streams waiting on it read it (``stream_hub``)
            pipe.execute()
        except redis.RedisError as exc:
            logger.warning(
                "Streaming %s stopped (Redis: %s); the page polls instead", self.key, exc
            )
            self.redis = None

    def on_text(self, piece: str) -> None:
        """The provider's callback: publish what may be shown of the new text."""
        new = self.visible.feed(piece)
        if new:
            self._add("delta", new)

    def reading(self, calls: list[Any]) -> None:
        """Read tools start: the text so far gives way to what the coach is looking at."""
        if self.visible.text:
            self._add("reset")
        self.visible = VisibleText()
        for call in calls:
            self._add("status", looking_at(call.name, call.arguments))

    def done(self) -> None:
        self._add("done")


def reply_changed(message_id: int) -> None:
    """Wake the reply's open streams: it changed without its run's ``done`` (failed or restarted
    by the sweep, restarted by Retry). Best effort, like every publish: with Redis out of reach
    the streams notice at their next response (``CHAT_STREAM_MAX_SECONDS``)."""
    if not enabled():
        return
    try:
        pipe = client().pipeline(transaction=False)
        pipe.xadd(changed_key(message_id), {"type": "changed"}, maxlen=CHANGED_MAXLEN)
        pipe.expire(changed_key(message_id), int(settings.CHAT_STREAM_TTL))
        pipe.publish(wake_channel(message_id), "changed")
        pipe.execute()
    except redis.RedisError as exc:
        logger.warning("Could not wake the streams of reply %s (Redis: %s)", message_id, exc)


def entry_fields(fields: dict[Any, Any]) -> tuple[str, str]:
    """An entry's ``(type, text)``, whether the client decoded responses or not."""

    def text(value: Any) -> str:
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")

    decoded = {text(k): text(v) for k, v in fields.items()}
    return decoded.get("type", ""), decoded.get("text", "")
