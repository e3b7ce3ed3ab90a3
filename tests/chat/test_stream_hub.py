"""One subscription per process wakes the waiting reply streams (``chat.stream_hub``): a publish
wakes the streams of that reply only, another athlete's stream never hears of it, and a lost
connection loses nothing (the hub subscribes again and every stream reads its keys again). A real
Redis (the embedded server); each test on an event loop of its own, as a server's."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import AsyncClient
from django.urls import reverse

from chat import stream, stream_hub, stream_slots
from tests.chat.helpers import running_reply
from tests.chat.test_stream import events
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db(transaction=True)  # the view's threads see the rows


def _on_a_loop_of_its_own(coroutine):
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-loop") as thread:
        return thread.submit(asyncio.run, coroutine).result(timeout=60)


async def _until(condition, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.02)


def _kill_subscribers(client) -> int:
    """Cut the hub's connection as a Redis restart or a network cut would."""
    return client.execute_command("CLIENT", "KILL", "TYPE", "pubsub")


def test_a_publish_wakes_the_streams_of_its_reply_only(stream_redis):
    async def scenario() -> tuple[bool, bool, bool]:
        hub = stream_hub.for_this_loop()
        mine, other, close = asyncio.Event(), asyncio.Event(), asyncio.Event()
        slot = stream_slots.Slot(user_id=1)
        assert not await hub.join(mine, [stream.wake_channel(41)])  # not connected yet
        await _until(lambda: hub.connected)
        mine.clear()  # the wake-up every stream gets once the hub is (back) in place
        assert await hub.join(other, [stream.wake_channel(42)])
        assert await hub.join(close, [slot.close_key])
        stream.ReplyStream(41, 1).on_text("Easy run.")  # the worker writes reply 41
        await _until(mine.is_set, 5)
        await asyncio.sleep(0.2)  # time enough for a wrong wake-up to arrive too
        return mine.is_set(), other.is_set(), close.is_set()

    assert _on_a_loop_of_its_own(scenario()) == (True, False, False)


def test_the_slot_script_and_reply_changed_wake_their_streams(stream_redis, settings):
    settings.CHAT_STREAMS_PER_ACCOUNT = 1

    async def scenario() -> tuple[bool, bool]:
        hub = stream_hub.for_this_loop()
        oldest, changed = asyncio.Event(), asyncio.Event()
        slot = stream_slots.Slot(user_id=7)
        slot.open(stream.client())
        await hub.join(oldest, [slot.close_key])
        await hub.join(changed, [stream.wake_channel(43)])
        await _until(lambda: hub.connected)
        await asyncio.sleep(0.1)
        oldest.clear(), changed.clear()
        stream_slots.Slot(user_id=7).open(stream.client())  # one too many: the oldest closes
        stream.reply_changed(43)  # the sweep or Retry changed reply 43
        await _until(lambda: oldest.is_set() and changed.is_set(), 5)
        return oldest.is_set(), changed.is_set()

    assert _on_a_loop_of_its_own(scenario()) == (True, True)


def test_the_hub_subscribes_again_after_a_lost_connection_and_wakes_every_stream(stream_redis):
    async def scenario() -> tuple[int, bool, bool]:
        hub = stream_hub.for_this_loop()
        event = asyncio.Event()
        await hub.join(event, [stream.wake_channel(44)])
        await _until(lambda: hub.connected)
        event.clear()
        assert _kill_subscribers(stream_redis) == 1
        await _until(lambda: hub.reconnects == 1 and hub.connected)
        woken_by_the_reconnect = event.is_set()  # it may have missed something: it reads again
        event.clear()
        stream.ReplyStream(44, 1).on_text("Still here.")
        await _until(event.is_set, 5)
        return hub.reconnects, woken_by_the_reconnect, event.is_set()

    assert _on_a_loop_of_its_own(scenario()) == (1, True, True)


def _running_reply():
    conversation = ConversationFactory()
    reply = running_reply(conversation)
    return conversation.athlete, reply


def test_text_written_while_the_subscription_was_lost_still_reaches_the_stream(
    stream_redis, settings
):
    settings.CHAT_STREAM_MAX_SECONDS = 20
    athlete, reply = _running_reply()
    stranger, other_reply = _running_reply()

    async def scenario() -> tuple[str, str]:
        async def open_stream(user, message):
            client = AsyncClient()
            await client.aforce_login(user)
            response = await client.get(reverse("chat:message_stream", args=[message.pk]))
            return response.streaming_content

        mine = await open_stream(athlete, reply)
        theirs = await open_stream(stranger, other_reply)
        read_mine: list[str] = []
        read_theirs: list[str] = []

        async def read(content, into: list[str]) -> None:
            async for chunk in content:
                into.append(chunk.decode() if isinstance(chunk, bytes) else chunk)

        tasks = [
            asyncio.ensure_future(read(mine, read_mine)),
            asyncio.ensure_future(read(theirs, read_theirs)),
        ]
        hub = stream_hub.for_this_loop()
        await _until(lambda: hub.connected and len(hub.events) == 4)  # two replies, two slots
        _kill_subscribers(stream_redis)
        await _until(lambda: not hub.connected)
        # While the hub is away: the worker writes, and its wake-up is published to no one.
        stream.ReplyStream(reply.pk, reply.attempt).on_text("Written meanwhile.")
        await _until(lambda: any("Written meanwhile." in c for c in read_mine))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return "".join(read_mine), "".join(read_theirs)

    mine, theirs = _on_a_loop_of_its_own(scenario())
    assert [e["data"] for e in events(mine) if e["event"] == "delta"] == ["Written meanwhile."]
    assert "Written meanwhile." not in theirs and events(theirs) == []


def test_a_redis_that_stops_answering_is_noticed_and_the_hub_comes_back(
    stream_redis_server, settings, monkeypatch
):
    """Stopped (SIGSTOP), Redis keeps the connection and never answers: after ``PING_SECONDS`` of
    silence the hub's PING gets no answer within ``REDIS_TIMEOUT``, so it takes the connection for
    lost, wakes every stream (which then ask the database until Redis is back) and connects again
    once Redis answers."""
    monkeypatch.setattr(stream_hub, "PING_SECONDS", 0.3)
    settings.REDIS_TIMEOUT = 0.5

    async def scenario() -> tuple[bool, int]:
        hub = stream_hub.for_this_loop()
        event = asyncio.Event()
        await hub.join(event, [stream.wake_channel(45)])
        await _until(lambda: hub.connected)
        event.clear()
        os.kill(stream_redis_server.pid, signal.SIGSTOP)
        try:
            await _until(lambda: not hub.connected, 5)
            woken = event.is_set()
        finally:
            os.kill(stream_redis_server.pid, signal.SIGCONT)
        await _until(lambda: hub.connected, 10)
        return woken, hub.reconnects

    woken, reconnects = _on_a_loop_of_its_own(scenario())
    assert woken and reconnects >= 1
