"""Open reply streams leave the database pool to the pages: more athletes waiting on a streamed
reply than a web process's pool has connections, and every stream still opens and a page still
answers. Each stream checks the database every ``CHECK_SECONDS`` and waits on Redis in between,
holding no connection while it waits (``chat/views/stream.py``). PostgreSQL: psycopg's pool, here
under the test live server's threads (one request a thread, as uvicorn's per-request threads)."""

import contextlib
import threading

import httpx
import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from chat import stream
from chat.models import Message
from tests.chat.helpers import running_reply
from tests.factories import ConversationFactory

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="psycopg's pool is PostgreSQL's"),
]


OPEN_WITHIN = 15  # seconds; 1 s here on a quiet machine


def test_more_open_streams_than_pooled_connections_still_leave_a_page_its_connection(
    live_server, stream_redis, settings
):
    pool_size = django_settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    streams = pool_size + 8
    # Streams that held their connections would hold them this long, making the others wait
    # past OPEN_WITHIN; the reply below ends them well before.
    settings.CHAT_STREAM_MAX_SECONDS = 30
    settings.CHAT_STREAMS_PER_ACCOUNT = streams  # one account here: all of them stay open
    conversation = ConversationFactory()
    waiting = running_reply(conversation)
    browser = Client()
    browser.force_login(conversation.athlete)
    cookies = {"sessionid": browser.cookies["sessionid"].value}
    url = live_server.url + reverse("chat:message_stream", args=[waiting.pk])
    answered: list[int] = []
    everyone_in = threading.Barrier(streams + 1, timeout=OPEN_WITHIN)

    def hold_a_stream() -> None:
        client = httpx.Client(cookies=cookies, timeout=40)
        with client, client.stream("GET", url) as response:
            answered.append(response.status_code)
            with contextlib.suppress(threading.BrokenBarrierError):  # the test says so
                everyone_in.wait()
            for _ in response.iter_raw():
                pass

    threads = [threading.Thread(target=hold_a_stream, daemon=True) for _ in range(streams)]
    for thread in threads:
        thread.start()
    try:
        try:
            everyone_in.wait()  # every stream has its response: all are open at once
        except threading.BrokenBarrierError:
            pytest.fail(f"{len(answered)} of {streams} streams opened within {OPEN_WITHIN} s")
        page = httpx.get(live_server.url + "/", cookies=cookies, timeout=10)
        assert page.status_code == 200
    finally:
        # The reply is saved and its run says done: each stream wakes, checks and ends.
        Message.objects.filter(pk=waiting.pk).update(
            status=Message.Status.COMPLETE, content="Done."
        )
        stream.ReplyStream(waiting.pk, waiting.attempt).done()
        for thread in threads:
            thread.join(timeout=40)
    assert answered == [200] * streams
