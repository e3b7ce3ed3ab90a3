"""One ASGI application that serves each request the cheapest way it can (``config.asgi``).

Django's ASGI handler runs a sync view and each sync middleware through ``sync_to_async``: about
fifteen thread hand-offs a request, which cost more than a small view itself (issue 23: a trivial
view took 2.1 ms of CPU served, 0.11 ms in-process). Django's WSGI handler runs the same middleware
and view in one thread with none. So:

- a request whose view is a coroutine function (``async def``, e.g. a reply stream that waits on
  Redis while holding no thread) goes to Django's ASGI handler, on the event loop;
- every other request goes to Django's WSGI handler in a thread of a fixed pool with ONE
  hand-off (``OneHandOff``): the body is read on the loop first (``config.uploads.BodyLimit``, in
  front, bounds it), the thread runs the whole request and returns the status, headers and body,
  and the loop writes them. A streaming response (a file, a sync generator) is pulled from the
  thread a block at a time as it is written.

The choice is the URLconf's own data (``resolve(path).func``), not a list of paths. The threads
keep their database connections between requests (``CONN_MAX_AGE`` / psycopg's pool), as gthread
WSGI does, instead of one connection a request under the ASGI handler (a new thread each).

**A waiting stream holds no thread, and opens as cheaply as any request** (issue 23 item 2). A
view may answer with a ``StreamingHttpResponse`` over an *async* iterator (the reply stream,
``chat.views.stream``, which sees ``LOOP_STREAMS`` in its environ): its thread runs the middleware
and the view in one pass as for any request, then the iterator is read on the event loop
(``OneHandOff._stream_on_the_loop``) until it ends or the client leaves (it is then cancelled), and
the response is closed on a pool thread. Measured 2026-11-26 (one uvicorn worker on PostgreSQL,
150 streams held 10 s, py-spy and the process's CPU): under ``SharedThreads`` below, a stream's
opening through Django's ASGI handler (its middleware's fifteen hand-offs between the loop and a
thread) was about half of its 17 ms; now the whole stream costs 10 ms (``chat.views.stream``).

``SharedThreads`` serves an async view (none in the shipped URLconf now): Django's
``ASGIHandler.__call__`` wraps every request in asgiref's ``ThreadSensitiveContext``, whose first
thread-sensitive ``sync_to_async`` (the sync-only WhiteNoise middleware, each ``MiddlewareMixin``'s
sync part, the session's and the user's lookups) makes a ``ThreadPoolExecutor(max_workers=1)``
whose thread lives until the request ends: for a long response, idle all the while it waits.
``SharedThreads`` enters the same context with one of a few executors the process keeps
(asgiref's ``ThreadSensitiveContext(executor=…)``; Django's own context inside then finds it and
makes none): a request's thread-sensitive work still runs on one thread, in order, as Django
expects, but the thread is shared, made once, and free while the response waits (measured when the
reply stream was an async view: 30 waiting streams took a worker from 8 to 38 threads before, 10
with it). The price: while one request's middleware and view run, its shared thread is busy, so
such requests take turns on ``ASYNC_THREADS`` threads.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, iscoroutinefunction
from django.core.handlers.asgi import ASGIHandler
from django.urls import Resolver404, get_resolver

SPOOL_BYTES = 1024 * 1024  # a body larger than this waits in a temporary file, not in memory
# In the WSGI environ of a request ``OneHandOff`` serves: a streaming response may be an async
# iterator, read on the event loop (``chat.views.stream`` then waits on Redis holding no thread).
LOOP_STREAMS = "spotter.loop_streams"


def is_async_path(path: str) -> bool:
    """Whether ``path``'s view is a coroutine function (served on the event loop)."""
    try:
        match = get_resolver().resolve(path)
    except Resolver404:
        return False
    return iscoroutinefunction(match.func)


def _path_info(scope: dict[str, Any]) -> str:
    """The path the URLconf sees: the scope's path without the root path (as Django's handlers)."""
    path, root = scope["path"], scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


def _environ(scope: dict[str, Any], body: Any, length: int) -> dict[str, Any]:
    """The WSGI environ for an ASGI HTTP scope (PEP 3333), as uvicorn's and a2wsgi's make it."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf8").decode("latin1"),
        "PATH_INFO": _path_info(scope).encode("utf8").decode("latin1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": str(client[0]),
        "REMOTE_PORT": str(client[1]),
        "CONTENT_LENGTH": str(length),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers") or []:
        name = raw_name.decode("latin1").upper().replace("-", "_")
        value = raw_value.decode("latin1")
        if name == "CONTENT_LENGTH":
            continue  # the bytes actually read
        if name == "CONTENT_TYPE":
            environ["CONTENT_TYPE"] = value
            continue
        key = f"HTTP_{name}"
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


class _Response:
    """What the thread hands back: the status line, the headers, the body read so far and, for a
    streaming response, the rest to pull a block at a time."""

    def __init__(self) -> None:
        self.status = 500
        self.headers: list[tuple[bytes, bytes]] = []
        self.chunks: list[bytes] = []
        self.rest: Iterator[bytes] | None = None
        self.arest: AsyncIterator[bytes] | None = None  # an async streaming response's content
        self.close = lambda: None

    def start_response(self, status: str, headers: list[tuple[str, str]], exc_info=None):
        self.status = int(status.split(" ", 1)[0])
        self.headers = [
            (k.strip().lower().encode("latin1"), v.strip().encode("latin1")) for k, v in headers
        ]  # Django writes Set-Cookie values with a leading space
        return self.chunks.append


def _next_block(rest: Iterator[bytes]) -> bytes | None:
    return next(rest, None)


class OneHandOff:
    """A WSGI application served to ASGI with a single thread hand-off per (non-streaming)
    request."""

    def __init__(self, wsgi_app, *, threads: int) -> None:
        self.app = wsgi_app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="wsgi")

    def _run(self, environ: dict[str, Any]) -> _Response:
        response = _Response()
        iterable = self.app(environ, response.start_response)
        if getattr(iterable, "is_async", False):  # an event stream: read on the loop
            response.arest = iterable.streaming_content
            response.close = iterable.close
            return response
        if getattr(iterable, "streaming", False):  # Django's streaming responses: block by block
            response.rest = iter(iterable)
            response.close = getattr(iterable, "close", response.close)
            return response
        try:
            response.chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()  # request_finished: Django gives the connection back here
        return response

    async def __call__(self, scope, receive, send) -> None:
        body, length = await self._read_body(receive)
        if body is None:
            return  # the client left before its body arrived
        loop = asyncio.get_running_loop()
        environ = _environ(scope, body, length)
        environ[LOOP_STREAMS] = True
        try:
            response = await loop.run_in_executor(self.executor, self._run, environ)
        finally:
            body.close()
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": response.status,
                    "headers": response.headers,
                }
            )
            data = b"".join(response.chunks)
            if response.arest is not None:
                await self._stream_on_the_loop(response.arest, receive, send)
                return
            if response.rest is None:
                await send({"type": "http.response.body", "body": data})
                return
            if data:
                await send({"type": "http.response.body", "body": data, "more_body": True})
            # A client that leaves ends the response (and closes its generator) at the next block.
            left = asyncio.ensure_future(receive())
            while not left.done():
                block = await loop.run_in_executor(self.executor, _next_block, response.rest)
                if block is None:
                    break
                if block:
                    await send({"type": "http.response.body", "body": block, "more_body": True})
            left.cancel()
            await send({"type": "http.response.body", "body": b""})
        finally:
            if response.rest is not None or response.arest is not None:
                await loop.run_in_executor(self.executor, response.close)

    @staticmethod
    async def _stream_on_the_loop(content: AsyncIterator[bytes], receive, send) -> None:
        """An async streaming response (a reply's event stream): its content is read on the event
        loop, holding no thread, until it ends or the client leaves (then it is cancelled, so its
        ``finally`` runs). A write that raised ``CancelledError`` (``config.write_timeout``: the
        client stopped reading) ends the response unfinished: the server closes the connection."""

        async def pump() -> None:
            async for block in content:
                if block:
                    await send({"type": "http.response.body", "body": block, "more_body": True})

        pumping = asyncio.ensure_future(pump())
        left = asyncio.ensure_future(receive())
        try:
            await asyncio.wait({pumping, left}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            left.cancel()
            if not pumping.done():
                pumping.cancel()
        try:
            await pumping
        except asyncio.CancelledError:
            return  # the client left, or stopped reading
        await send({"type": "http.response.body", "body": b""})

    @staticmethod
    async def _read_body(receive) -> tuple[Any, int]:
        chunks, size, spool = [], 0, None
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None, 0
            part = message.get("body", b"")
            size += len(part)
            if spool is None and size > SPOOL_BYTES:
                spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115 (closed by __call__)
                spool.write(b"".join(chunks))
                chunks = []
            if spool is not None:
                spool.write(part)
            elif part:
                chunks.append(part)
            if not message.get("more_body", False):
                break
        if spool is None:
            return io.BytesIO(b"".join(chunks)), size
        spool.seek(0)
        return spool, size


class SharedThreads(ASGIHandler):
    """Django's ASGI handler, whose requests do their thread-sensitive work (the middleware's sync
    parts, the session and the user) on one of a few threads the process keeps, instead of on a
    thread each that lives as long as the request (a waiting reply stream: minutes)."""

    def __init__(self, *, threads: int) -> None:
        super().__init__()
        self.executors = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"asgi-{i}")
            for i in range(threads)
        ]
        self.open = [0] * threads  # the requests each thread serves now

    async def __call__(self, scope, receive, send) -> None:
        # One thread for the whole request, as Django's context gives it, and the fewest open
        # requests; Django's own context (inside) then finds this one and makes no executor.
        index = self.open.index(min(self.open))
        self.open[index] += 1
        try:
            async with ThreadSensitiveContext(executor=self.executors[index]):
                await super().__call__(scope, receive, send)
        finally:
            self.open[index] -= 1


class Split:
    """Async views to the ASGI handler, the rest to the WSGI handler through ``OneHandOff``."""

    def __init__(self, asgi_app, wsgi_app, *, threads: int) -> None:
        self.asgi_app = asgi_app
        self.sync = OneHandOff(wsgi_app, threads=threads)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and not is_async_path(_path_info(scope)):
            await self.sync(scope, receive, send)
            return
        await self.asgi_app(scope, receive, send)
