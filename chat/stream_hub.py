"""One Redis subscription per web process that wakes every reply stream waiting in it.

A waiting stream (``chat.views.stream``, on the event loop) used to hold a Redis connection of
its own, blocked in ``XREAD`` for the response's whole life: a connection made (and a handshake)
for every stream, and made again to give its slot back when a client that left had cancelled the
read. Here a process keeps ONE pub/sub connection for all of them (``Hub``, one per event loop):

* whoever appends to a key a stream reads also publishes one word on its *wake channel*: the
  worker for each entry of a run (``chat.stream.ReplyStream``), ``chat.stream.reply_changed``, the
  slot script closing a stream (``chat.stream_slots``). The channels: ``chat.stream.wake_channel(reply)`` and
  the slot's close key's name;
* a stream subscribes its two channels (``Hub.join``: its ``asyncio.Event``), then reads its keys
  once without blocking (what came before the subscription), and waits on the event, which costs
  no connection, no thread and no timer beyond its own deadline;
* a message sets the events of the streams subscribed to its channel, and only theirs; each then
  reads its keys without blocking (``Hub.read``, the process's pooled client), so what it sends
  still comes from the keys, as before: a lost wake-up loses no text, it only comes later;
* the connection lost (Redis restarted, a network cut, no answer to a ``PING`` within
  ``REDIS_TIMEOUT`` after ``PING_SECONDS`` of silence): the hub makes a new one, subscribes every
  channel again and sets EVERY event, since any message may have been missed meanwhile; the
  streams read their keys again (and until the hub is back, ask the database every
  ``CHECK_SECONDS``, as when Redis can't be reached).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref

import redis
import redis.asyncio
from django.conf import settings
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from . import stream

logger = logging.getLogger(__name__)

HUB_CHANNEL = "spotter:hub"  # always subscribed: the connection is a subscriber from the start
PING_SECONDS = 15.0  # silence on the connection after which it is asked to answer a PING
BATCH = 500  # entries per read

_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def for_this_loop() -> Hub:
    """The hub of the running event loop (a process's server has one loop: one hub)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub()
    return hub


def _client(**options) -> redis.asyncio.Redis:
    timeout = float(settings.REDIS_TIMEOUT)
    return redis.asyncio.Redis.from_url(
        stream.redis_url(),
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        decode_responses=True,
        # No CLIENT SETINFO and the package-metadata lookup of redis-py's version behind it: a
        # connect and a PING cost 1.0 ms of CPU instead of 2.0 (300 in a row, 2026-11-26).
        driver_info=None,
        **options,
    )


class Hub:
    """The process's subscription: channels → the events of the streams waiting on them."""

    def __init__(self) -> None:
        self.events: dict[str, set[asyncio.Event]] = {}
        self.connected = False  # subscribed, and every channel's subscription confirmed
        self.reconnects = 0  # connections lost and made again (for tests and the operator)
        self._pubsub = None
        self._listening: redis.asyncio.Redis | None = None
        self._task: asyncio.Task | None = None
        self._confirmed: dict[str, asyncio.Future] = {}
        self._commands = _client()  # pooled: the streams' reads without blocking

    # --- what a stream calls ----------------------------------------------------------------

    async def join(self, event: asyncio.Event, channels: list[str]) -> bool:
        """Wake ``event`` on any message to ``channels``; True once Redis confirmed the
        subscription, False when it can't be reached now (the hub subscribes them when it is back,
        and then sets the event)."""
        self._start()
        new = []
        for channel in channels:
            waiting = self.events.setdefault(channel, set())
            if not waiting:
                new.append(channel)
            waiting.add(event)
        if not self.connected:
            return False
        loop = asyncio.get_running_loop()
        confirmations = [self._confirmed.setdefault(c, loop.create_future()) for c in new]
        confirmations += [self._confirmed[c] for c in channels if c in self._confirmed]
        try:
            if new:
                await self._pubsub.subscribe(*new)
            async with asyncio.timeout(float(settings.REDIS_TIMEOUT)):
                await asyncio.gather(*confirmations)
        except (redis.RedisError, OSError, TimeoutError):
            return False
        return True

    async def leave(self, event: asyncio.Event, channels: list[str]) -> None:
        gone = []
        for channel in channels:
            waiting = self.events.get(channel)
            if waiting is None:
                continue
            waiting.discard(event)
            if not waiting:
                del self.events[channel]
                gone.append(channel)
        if gone and self.connected:
            with contextlib.suppress(redis.RedisError, OSError, TimeoutError):
                async with asyncio.timeout(float(settings.REDIS_TIMEOUT)):
                    await self._pubsub.unsubscribe(*gone)

    async def read(self, streams: dict[str, str]) -> list | None:
        """The entries of ``streams`` after their ids, without blocking; None when Redis can't be
        reached."""
        try:
            return await self._commands.xread(streams, count=BATCH)
        except (redis.RedisError, OSError):
            return None

    # --- the connection ---------------------------------------------------------------------

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self._listen()
            except (redis.RedisError, OSError, TimeoutError) as exc:
                logger.warning("Reply streams' subscription lost (Redis: %s); reconnecting", exc)
            finally:
                self.connected = False
                for future in self._confirmed.values():
                    if not future.done():
                        future.set_exception(redis.ConnectionError("subscription lost"))
                self._confirmed.clear()
                self._wake_all()  # they read their keys (or, Redis gone, ask the database)
                pubsub, self._pubsub = self._pubsub, None
                if pubsub is not None:
                    with contextlib.suppress(redis.RedisError, OSError):
                        await pubsub.aclose()
                        await self._listening.aclose()
            await asyncio.sleep(1.0)
            self.reconnects += 1

    async def _listen(self) -> None:
        self._listening = _client(retry=Retry(NoBackoff(), 0))  # a lost connection is ours
        pubsub = self._pubsub = self._listening.pubsub()
        answer = float(settings.REDIS_TIMEOUT)
        subscribed: set[str] = set()
        channels = [HUB_CHANNEL, *self.events]
        while channels:  # every channel confirmed (those joined meanwhile too) before anyone reads
            await pubsub.subscribe(*channels)
            waiting_for = set(channels)
            while waiting_for:
                message = await pubsub.get_message(timeout=answer)
                if message is None:
                    raise TimeoutError("no confirmation of the subscription")
                if message["type"] == "subscribe":
                    waiting_for.discard(message["channel"])
            subscribed.update(channels)
            channels = [channel for channel in self.events if channel not in subscribed]
        self.connected = True
        self._wake_all()
        pinged = False  # a PING is on its way: the next silence ends the connection
        while True:
            message = await pubsub.get_message(timeout=answer if pinged else PING_SECONDS)
            if message is None:
                if pinged:
                    raise TimeoutError(f"no answer to PING in {answer:.0f} s")
                await pubsub.ping()
                pinged = True
                continue
            pinged = False
            kind, channel = message["type"], message.get("channel")
            if kind == "message":
                for event in self.events.get(channel, ()):
                    event.set()
            elif kind == "subscribe":
                confirmed = self._confirmed.pop(channel, None)
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(True)

    def _wake_all(self) -> None:
        for waiting in self.events.values():
            for event in waiting:
                event.set()
