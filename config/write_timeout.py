"""A write timeout for event streams under ASGI (``bin/serve``: gunicorn with uvicorn workers).

A client that stops reading a ``text/event-stream`` response (a reply stream, ``chat.views.stream``)
but keeps its connection open would otherwise hold the response for ever: once the socket's
buffers are full, the server's ``send`` waits until the client reads, and the stream's own clock
(``CHAT_STREAM_MAX_SECONDS``) never gets to run. Here every write of such a response must be
taken within ``CHAT_STREAM_WRITE_TIMEOUT`` seconds; a write that waits longer ends the response as
a client that left would (Django closes the stream's generator, which gives its slot back), and the
server closes the connection. Other responses are written as before.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

EVENT_STREAM = b"text/event-stream"


def _is_event_stream(start: dict[str, Any]) -> bool:
    for name, value in start.get("headers") or []:
        if bytes(name).lower() == b"content-type":
            return bytes(value).split(b";")[0].strip().lower() == EVENT_STREAM
    return False


class EventStreamWriteTimeout:
    """ASGI middleware around the Django application (``config.asgi``)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        streaming = False

        async def send_in_time(message: dict[str, Any]) -> None:
            nonlocal streaming
            if message["type"] == "http.response.start":
                streaming = _is_event_stream(message)
            elif streaming and message["type"] == "http.response.body":
                timeout = float(settings.CHAT_STREAM_WRITE_TIMEOUT)
                try:
                    await asyncio.wait_for(send(message), timeout)
                except TimeoutError:
                    logger.warning(
                        "Event stream %s closed: its client read nothing for %s s",
                        scope.get("path", ""),
                        timeout,
                    )
                    # What Django's handler takes for a client that left: it stops writing and
                    # closes the response (and the stream's generator).
                    raise asyncio.CancelledError from None
                return
            await send(message)

        await self.app(scope, receive, send_in_time)
