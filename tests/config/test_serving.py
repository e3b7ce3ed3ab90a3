"""config.serving: async views go to the ASGI handler, every other request to the WSGI handler in a
thread with one hand-off, body and headers intact, streaming responses block by block."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings

from config import serving
from config.asgi import application


def _scope(path: str, *, method: str = "GET", headers=(), query: bytes = b"") -> dict:
    return {
        "type": "http",
        "method": method,
        "path": path,
        "root_path": "",
        "query_string": query,
        "headers": list(headers),
        "http_version": "1.1",
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
    }


def _call(app, scope: dict, bodies=(b"",), *, disconnect_after_sends: int | None = None):
    """Run one request through ``app``; the messages it sent."""
    sent: list[dict] = []
    incoming = [
        {"type": "http.request", "body": body, "more_body": i < len(bodies) - 1}
        for i, body in enumerate(bodies)
    ]

    async def receive():
        if incoming:
            return incoming.pop(0)
        if disconnect_after_sends is not None:
            while len(sent) < disconnect_after_sends:
                await asyncio.sleep(0.001)
            return {"type": "http.disconnect"}
        await asyncio.Event().wait()  # never: the client stays

    async def send(message):
        sent.append(message)

    # A loop of its own in a thread of its own: the suite's Playwright (sync API) leaves its loop
    # set as running in the main thread, where asyncio.run refuses to start another.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, app(scope, receive, send)).result()
    return sent


def _body(sent: list[dict]) -> bytes:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


class Recorder:
    """A WSGI application that notes what it was given."""

    def __init__(self, chunks=(b"ok",), headers=(("Content-Type", "text/plain"),)) -> None:
        self.chunks, self.headers = list(chunks), list(headers)
        self.seen: list[dict] = []

    def __call__(self, environ, start_response):
        self.seen.append(
            {
                **environ,
                "body": environ["wsgi.input"].read(),
                "thread": threading.get_ident(),
            }
        )
        start_response("201 Created", self.headers)
        return self.chunks


ASYNC_URLS = "tests.config.async_urls"


@override_settings(ROOT_URLCONF=ASYNC_URLS)
def test_the_urlconf_decides_an_async_view_goes_to_the_loop():
    assert serving.is_async_path("/async-probe/")  # an async def
    assert not serving.is_async_path("/messages/7/stream/")  # a plain view: its wait on the loop
    assert not serving.is_async_path("/healthz")
    assert not serving.is_async_path("/messages/7/")  # the poll: a plain view
    assert not serving.is_async_path("/no/such/page/")  # Django's 404, from the WSGI side


@override_settings(ROOT_URLCONF=ASYNC_URLS)
def test_split_sends_sync_views_to_wsgi_and_async_views_to_asgi():
    asgi_paths = []

    async def asgi_app(scope, receive, send):
        asgi_paths.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"asgi"})

    wsgi = Recorder(chunks=[b"wsgi"])
    app = serving.Split(asgi_app, wsgi, threads=2)

    assert _body(_call(app, _scope("/async-probe/"))) == b"asgi"
    assert _body(_call(app, _scope("/healthz"))) == b"wsgi"
    assert asgi_paths == ["/async-probe/"]
    assert [seen["PATH_INFO"] for seen in wsgi.seen] == ["/healthz"]


def test_the_wsgi_side_gets_the_body_headers_and_query_and_answers_with_them():
    wsgi = Recorder(
        chunks=[b"a", b"b"],
        headers=[("Content-Type", "text/html"), ("Set-Cookie", " a=1"), ("Set-Cookie", " b=2")],
    )
    sent = _call(
        serving.OneHandOff(wsgi, threads=1),
        _scope(
            "/conversations/1/messages/",
            method="POST",
            headers=[
                (b"content-type", b"application/x-www-form-urlencoded"),
                (b"cookie", b"sessionid=x"),
                (b"x-csrftoken", b"t"),
            ],
            query=b"week=2",
        ),
        bodies=(b"text=hel", b"lo", b""),
    )
    environ = wsgi.seen[0]
    assert environ["body"] == b"text=hello" and environ["CONTENT_LENGTH"] == "10"
    assert environ["CONTENT_TYPE"] == "application/x-www-form-urlencoded"
    assert environ["HTTP_COOKIE"] == "sessionid=x" and environ["HTTP_X_CSRFTOKEN"] == "t"
    assert environ["QUERY_STRING"] == "week=2" and environ["REQUEST_METHOD"] == "POST"
    start = sent[0]
    assert start["status"] == 201
    # Django writes each cookie with a leading space; strict servers (h11) refuse that.
    assert start["headers"] == [
        (b"content-type", b"text/html"),
        (b"set-cookie", b"a=1"),
        (b"set-cookie", b"b=2"),
    ]
    assert _body(sent) == b"ab" and len(sent) == 2  # the whole body in one message


def test_a_body_larger_than_the_spool_threshold_arrives_whole(monkeypatch):
    monkeypatch.setattr(serving, "SPOOL_BYTES", 1000)
    wsgi = Recorder()
    parts = [bytes([65 + i]) * 700 for i in range(4)]
    _call(serving.OneHandOff(wsgi, threads=1), _scope("/up/", method="POST"), bodies=parts)
    assert wsgi.seen[0]["body"] == b"".join(parts) and wsgi.seen[0]["CONTENT_LENGTH"] == "2800"


def test_requests_share_the_pools_threads_so_their_database_connections_last():
    wsgi = Recorder()
    app = serving.OneHandOff(wsgi, threads=1)
    for _ in range(3):
        _call(app, _scope("/healthz"))
    assert len({seen["thread"] for seen in wsgi.seen}) == 1
    assert wsgi.seen[0]["thread"] != threading.get_ident()  # not on the event loop's thread


class Streaming:
    """A WSGI app answering like Django's StreamingHttpResponse (``streaming`` is true)."""

    def __init__(self, blocks) -> None:
        self.blocks, self.closed, self.pulled = blocks, False, 0

    def __call__(self, environ, start_response):
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        return self

    streaming = True

    def __iter__(self):
        for block in self.blocks:
            self.pulled += 1
            yield block

    def close(self):
        self.closed = True


def test_a_streaming_response_is_written_block_by_block_and_closed():
    stream = Streaming([b"one", b"two", b"three"])
    sent = _call(serving.OneHandOff(stream, threads=1), _scope("/s/"))
    bodies = [m for m in sent if m["type"] == "http.response.body"]
    assert [m["body"] for m in bodies] == [b"one", b"two", b"three", b""]
    assert [m.get("more_body", False) for m in bodies] == [True, True, True, False]
    assert stream.closed


def test_a_client_that_leaves_ends_a_streaming_response():
    def endless():
        while True:
            yield b"tick"

    stream = Streaming(endless())
    _call(serving.OneHandOff(stream, threads=1), _scope("/s/"), disconnect_after_sends=3)
    assert stream.closed
    assert stream.pulled < 1000


@pytest.mark.django_db
def test_the_shipped_application_serves_a_plain_view_through_the_wsgi_side():
    sent = _call(application, _scope("/healthz"))
    assert sent[0]["status"] == 200 and _body(sent) == b"ok"


def test_shared_threads_run_each_requests_sync_work_on_one_thread_of_a_few_the_process_keeps():
    seen: list[tuple[int, int]] = []

    class Probe(serving.SharedThreads):
        async def handle(self, scope, receive, send):
            first = await sync_to_async(threading.get_ident)()  # thread-sensitive by default
            await asyncio.sleep(0.01)  # the others start meanwhile
            seen.append((first, await sync_to_async(threading.get_ident)()))

    app = Probe(threads=2)

    async def five_at_once():
        await asyncio.gather(*(app(_scope("/s/"), None, None) for _ in range(5)))

    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, five_at_once()).result()
        thread.submit(asyncio.run, five_at_once()).result()
    assert len(seen) == 10
    assert all(first == second for first, second in seen)  # one thread for a whole request
    # The same two threads for ten requests, not one a request; the app's own (other instances
    # in the process, config.asgi's, keep threads with the same names).
    used = {first for first, _ in seen}
    names = {t.ident: t.name for t in threading.enumerate()}
    assert len(used) == 2 and all(names[ident].startswith("asgi-") for ident in used)


class AsyncStreaming:
    """A WSGI application answering with an async streaming response, as a reply stream does
    under ``OneHandOff`` (``LOOP_STREAMS`` in its environ)."""

    def __init__(self, blocks, *, forever: bool = False) -> None:
        self.blocks, self.forever = list(blocks), forever
        self.threads: list[int] = []
        self.ended = self.closed = False
        self.flagged = None

    async def content(self):
        try:
            for block in self.blocks:
                self.threads.append(threading.get_ident())
                yield block
            while self.forever:
                await asyncio.sleep(0.01)
        finally:
            self.ended = True

    def __call__(self, environ, start_response):
        from django.http import StreamingHttpResponse

        self.flagged = environ.get(serving.LOOP_STREAMS)
        response = StreamingHttpResponse(self.content(), content_type="text/event-stream")
        response.close = lambda: setattr(self, "closed", True)
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        return response


def test_an_async_streaming_response_is_read_on_the_loop_and_closed():
    app = AsyncStreaming([b"one", b"two"])
    loop_threads = []

    async def on_the_loop(scope, receive, send):
        loop_threads.append(threading.get_ident())
        await serving.OneHandOff(app, threads=1)(scope, receive, send)

    sent = _call(on_the_loop, _scope("/s/"))
    bodies = [m for m in sent if m["type"] == "http.response.body"]
    assert [m["body"] for m in bodies] == [b"one", b"two", b""]
    assert app.flagged is True
    assert set(app.threads) == set(loop_threads)  # no pool thread while it streams
    assert app.ended and app.closed


def test_a_client_that_leaves_cancels_an_async_streaming_response():
    app = AsyncStreaming([b"one"], forever=True)
    sent = _call(serving.OneHandOff(app, threads=1), _scope("/s/"), disconnect_after_sends=2)
    assert app.ended and app.closed  # its ``finally`` ran, and the response was closed
    assert sent[-1].get("more_body") is True  # nothing more written to a client that left


def test_a_write_that_timed_out_ends_an_async_streaming_response_unfinished():
    app = AsyncStreaming([b"one", b"two"], forever=True)
    sent: list[dict] = []

    async def receive():
        if not sent:
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()

    async def send(message):
        sent.append(message)
        if message.get("body") == b"one":  # config.write_timeout's way of ending a response
            raise asyncio.CancelledError

    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(
            asyncio.run, serving.OneHandOff(app, threads=1)(_scope("/s/"), receive, send)
        ).result()
    assert [m.get("body") for m in sent[1:]] == [b"one"]  # no final block: the server closes it
    assert app.ended and app.closed
