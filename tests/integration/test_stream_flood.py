"""One account opening 100 reply streams and never reading them (raw sockets on the test live
server, a real Redis): the account keeps at most ``CHAT_STREAMS_PER_ACCOUNT`` open, every other
stream ends at once with its final event, and another athlete's page and reply stream answer as
if nothing happened (issue 18 item 2)."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat import stream, stream_slots
from chat.models import Message
from chat.views.stream import CHECK_SECONDS
from tests.factories import ConversationFactory

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

STREAMS = 100
PAGE_WITHIN = 2.0  # seconds; 0.04 s measured on an idle machine
REPLY_WITHIN = CHECK_SECONDS + 2.0  # from the reply's save (and its run's done) to its final event


def waiting_reply(conversation) -> Message:
    return Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        status=Message.Status.RUNNING,
        started_at=timezone.now(),
    )


def session_cookie(user) -> str:
    browser = Client()
    browser.force_login(user)
    return browser.cookies["sessionid"].value


def open_without_reading(url: str, cookie: str) -> socket.socket:
    """A stream request whose client never reads (a small receive buffer, as a stalled client)."""
    parts = urlsplit(url)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((parts.hostname, parts.port))
    sock.sendall(
        f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        f"Cookie: sessionid={cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    return sock


def ended_with_final_event(sock: socket.socket) -> bool:
    """Read what the server sent (only now): its final event, then it closed the connection."""
    sock.settimeout(0.2)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except TimeoutError:
        return False  # still open
    return b"event: done" in data


def test_100_never_reading_streams_of_one_account_leave_another_athlete_unaffected(
    live_server, stream_redis, settings
):
    settings.CHAT_STREAM_MAX_SECONDS = 40
    cap = settings.CHAT_STREAMS_PER_ACCOUNT
    flooder = ConversationFactory()
    flooded = waiting_reply(flooder)
    athlete = ConversationFactory()
    theirs = waiting_reply(athlete)
    flood_url = live_server.url + reverse("chat:message_stream", args=[flooded.pk])
    flooder_cookie = session_cookie(flooder.athlete)
    cookies = {"sessionid": session_cookie(athlete.athlete)}

    sockets = [open_without_reading(flood_url, flooder_cookie) for _ in range(STREAMS)]
    try:
        # The stream requests reach the server: the account soon holds its cap of slots.
        deadline = time.monotonic() + 15
        while stream_slots.open_streams(stream_redis, flooder.athlete.pk) < cap:
            if time.monotonic() > deadline:
                break  # the counts below say what is open
            time.sleep(0.1)

        # Another athlete meanwhile: their page, and their own reply's stream.
        started = time.monotonic()
        page = httpx.get(live_server.url + "/", cookies=cookies, timeout=30)
        page_took = time.monotonic() - started
        assert page.status_code == 200
        assert page_took < PAGE_WITHIN, f"the page took {page_took:.2f} s"
        url = live_server.url + reverse("chat:message_stream", args=[theirs.pk])
        with httpx.stream("GET", url, cookies=cookies, timeout=30) as response:
            assert response.status_code == 200
            lines = response.iter_lines()
            assert next(lines) == "retry: 1000"
            saved = time.monotonic()
            Message.objects.filter(pk=theirs.pk).update(
                status=Message.Status.COMPLETE, content="All good."
            )
            stream.ReplyStream(theirs.pk, theirs.attempt).done()  # as the worker does
            body = "\n".join(lines)
            reply_took = time.monotonic() - saved
        assert "event: done" in body and "All good." in body
        assert reply_took < REPLY_WITHIN, f"the reply took {reply_took:.2f} s"

        # The flood: all but the newest ``cap`` streams ended with their final event (their
        # bubbles would poll), and the account still holds only its cap.
        time.sleep(CHECK_SECONDS)
        ended = sum(ended_with_final_event(sock) for sock in sockets)
        assert ended >= STREAMS - cap, f"{STREAMS - ended} of {STREAMS} streams still open"
        assert stream_slots.open_streams(stream_redis, flooder.athlete.pk) == cap
        print(
            f"{STREAMS} never-reading streams: {ended} ended at once; another athlete's page "
            f"{page_took:.2f} s, reply {reply_took:.2f} s after its save"
        )
    finally:
        Message.objects.filter(pk=flooded.pk).update(
            status=Message.Status.COMPLETE, content="Done."
        )
        for sock in sockets:
            sock.close()
