"""A waiting reply stream holds no thread (issue 23 item 2): N streams waiting on a pending reply,
served by the shipped application (``config.asgi``) on an event loop of its own, add no thread to
the process outside its fixed pools, however large N is; each still answers as before (its first wait, a 404
for someone else's reply), and on PostgreSQL the streams leave no connection behind."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from config.asgi import THREADS, application
from tests.chat.helpers import running_reply
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db(transaction=True)  # the application's threads see the rows

STREAMS = 20
WAITING = b": waiting\n\n"


def _scope(path: str, cookie: bytes) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), (b"cookie", cookie)],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def _streams(path: str, cookie: bytes, count: int, while_waiting) -> tuple[object, list]:
    """Open ``count`` streams at once; once every one has sent its first wait, call
    ``while_waiting()``; then every client leaves. What ``while_waiting`` returned, and each
    stream's messages."""
    waiting = [asyncio.Event() for _ in range(count)]
    leave = asyncio.Event()

    async def one(index: int) -> list[dict]:
        sent: list[dict] = []
        requested = False

        async def receive() -> dict:
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await leave.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)
            if message.get("body") == WAITING:
                waiting[index].set()

        await application(_scope(path, cookie), receive, send)
        return sent

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    try:
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in waiting)), 30)
        seen = while_waiting()
    finally:
        leave.set()
        # every stream ends when its client leaves, not at the end of its life (30 s here)
        sent = await asyncio.wait_for(asyncio.gather(*tasks), 5)
    return seen, sent


def _on_a_loop_of_its_own(coroutine):
    """A loop in a thread of its own, as a server's: the suite's Playwright (sync API) leaves its
    loop set as running in the main thread, where asyncio.run refuses to start another."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-loop") as thread:
        return thread.submit(asyncio.run, coroutine).result(timeout=90)


async def _settled() -> None:
    """Until threads that are ending (an executor's join, an earlier test's) have ended: the
    count unchanged for 0.3 s."""
    deadline = time.monotonic() + 5
    count, steady_since = threading.active_count(), time.monotonic()
    while time.monotonic() < min(deadline, steady_since + 0.3):
        await asyncio.sleep(0.05)
        if threading.active_count() != count:
            count, steady_since = threading.active_count(), time.monotonic()


@pytest.fixture
def waiting_reply(stream_redis, settings):
    settings.CHAT_STREAM_MAX_SECONDS = 30
    settings.CHAT_STREAMS_PER_ACCOUNT = STREAMS  # one account: all of them stay open
    conversation = ConversationFactory()
    reply = running_reply(conversation)
    browser = Client()
    browser.force_login(conversation.athlete)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    return reverse("chat:message_stream", args=[reply.pk]), cookie


def _body(sent: list[dict]) -> bytes:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def _threads() -> tuple[int, int]:
    """Live threads outside the process's fixed pools, and in them: the event loop's default pool
    (``asyncio_<n>``: the stream's later database checks) and ``config.asgi``'s pool for plain
    requests (``wsgi_<n>``: the stream's opening), each bounded by its ``max_workers``, made as
    work arrives and kept, however many streams are open."""
    names = [thread.name for thread in threading.enumerate()]
    in_pools = sum(name.startswith(("asyncio_", "wsgi_")) for name in names)
    return len(names) - in_pools, in_pools


def test_twenty_waiting_streams_add_no_thread_outside_the_fixed_pools(waiting_reply):
    path, cookie = waiting_reply

    async def open_them() -> tuple[tuple[int, int], tuple[int, int], int, list]:
        await _settled()
        before = _threads()
        during, sent = await _streams(path, cookie, STREAMS, _threads)
        default_pool = asyncio.get_running_loop()._default_executor
        bound = (default_pool._max_workers if default_pool else 0) + THREADS
        return before, during, bound, sent

    before, during, pools_bound, sent = _on_a_loop_of_its_own(open_them())
    for messages in sent:
        assert messages[0]["status"] == 200
        assert _body(messages).startswith(b"retry: 1000\n\n" + WAITING)
    added = during[0] - before[0]
    assert added <= 1, f"{STREAMS} waiting streams: {before[0]} → {during[0]} threads"
    assert during[1] <= pools_bound  # the same bound for 1 stream or 1000


def test_another_athletes_reply_is_still_a_404_and_a_visitor_still_gets_204(waiting_reply):
    path, _ = waiting_reply
    stranger = Client()
    stranger.force_login(ConversationFactory().athlete)
    other_cookie = f"sessionid={stranger.cookies['sessionid'].value}".encode()
    for cookie, status in ((other_cookie, 404), (b"", 204)):
        sent: list[dict] = []
        incoming = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive(incoming=incoming) -> dict:
            if incoming:
                return incoming.pop()
            await asyncio.Event().wait()  # the client stays until the response ends

        async def send(message: dict, sent=sent) -> None:
            sent.append(message)

        _on_a_loop_of_its_own(application(_scope(path, cookie), receive, send))
        assert sent[0]["status"] == status


@pytest.mark.skipif(connection.vendor != "postgresql", reason="psycopg's pool is PostgreSQL's")
def test_streams_that_ended_leave_no_database_connection_behind(waiting_reply, settings):
    path, cookie = waiting_reply
    pool_size = settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]

    def taken() -> int:
        stats = connection.pool.get_stats()
        return stats["pool_size"] - stats["pool_available"]

    def open_connections() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            )
            return cursor.fetchone()[0]

    before = taken()  # this test's own
    during = []
    for _ in range(3):
        _on_a_loop_of_its_own(_streams(path, cookie, STREAMS, lambda: during.append(taken())))
    assert max(during) <= before  # a waiting stream holds none
    assert taken() == before  # and every one the opening took went back to the pool
    assert open_connections() <= pool_size  # psycopg's pool keeps a few; none pile up
