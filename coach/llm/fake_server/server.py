"""A real HTTP server on 127.0.0.1 that speaks both LLM protocols, for tests and benchmarks
(``bench_chat``, ``bench_stream``, ``bench_concurrency``). It listens on loopback only and is never
started by the web server or the worker.

``FakeLLMServer`` answers ``POST /v1/chat/completions`` and ``/chat/completions`` (OpenAI) and
``POST /v1/messages`` (Anthropic) from a FIFO queue of scripted responses; when the queue is empty
it answers with a default text reply ("OK") in the protocol of the path, after ``default_delay``
seconds (zero unless given: a benchmark sets it to play a slow model). Every
request is recorded in ``server.requests`` (method, path, lower-cased headers, body, parsed JSON).

    server.enqueue_openai_tool_calls([("call_1", "remove_week", {"weekNumber": 2})], text="Sure")
    provider = server.provider()          # an OpenAIProvider pointing here; waits are recorded
    response = provider.complete(system="...", turns=[...], tools=[...])
    assert server.requests[0].json["messages"][0]["role"] == "system"

**Streaming.** A request with ``"stream": true`` and nothing queued gets the default reply as
server-sent events, one word a chunk: the first after ``default_delay`` (the model's time to first
token), the others ``stream_chunk_delay`` apart. ``enqueue_openai_stream`` /
``enqueue_anthropic_stream`` script a streamed answer (text and tool calls) and ``enqueue_sse``
replays a recorded ``.sse`` body event by event. The wall-clock time each stream's first chunk was
written is appended to ``server.first_chunk_times`` (the benchmark's "provider's first token").

**Hanging.** ``server.hang = True`` plays a model that accepts the connection and the request
and never answers: each request is recorded, then held open until the server stops.

The pytest fixtures ``fake_openai_server`` and ``fake_anthropic_server`` (``tests/fakes/plugin.py``)
yield a started server whose ``protocol`` decides ``base_url`` and ``provider()``.

This module holds ``FakeLLMServer`` (life cycle, scripting, default replies); the rest of the repo
imports from the package (``coach.llm.fake_server``). The request handler and the request/reply
records are in ``http_handler.py``, the reply bodies in ``protocols.py`` and the streamed ones in
``streams.py``.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterable
from http.server import ThreadingHTTPServer
from typing import Any, Literal

from ..anthropic import AnthropicProvider
from ..openai import OpenAIProvider
from .http_handler import RecordedRequest, ScriptedResponse, make_handler
from .protocols import (
    ANTHROPIC_PATHS,
    OPENAI_PATHS,
    anthropic_message,
    json_bytes,
    openai_completion,
)
from .streams import Call, anthropic_stream_chunks, openai_stream_chunks

__all__ = [
    "ANTHROPIC_PATHS",
    "OPENAI_PATHS",
    "Call",
    "FakeLLMServer",
    "RecordedRequest",
    "ScriptedResponse",
    "anthropic_message",
    "openai_completion",
]


class FakeLLMServer:
    """See the module docstring. Start with ``start()`` (or use it as a context manager)."""

    def __init__(
        self,
        *,
        protocol: Literal["openai", "anthropic"] = "openai",
        default_text: str = "OK",
        default_delay: float = 0.0,
        stream_chunk_delay: float = 0.0,
    ) -> None:
        self.protocol = protocol
        self.default_text = default_text
        self.default_delay = default_delay  # seconds the default reply takes (a slow model)
        self.stream_chunk_delay = stream_chunk_delay  # between the chunks of a streamed default
        self.first_chunk_times: list[float] = []  # time.time() of each stream's first chunk
        self.requests: list[RecordedRequest] = []
        self.hang = False  # accept each request and never answer (until ``stop()``)
        self.sleeps: list[float] = []  # waits of providers made by provider(), not slept
        self._queue: deque[ScriptedResponse] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._providers: list[Any] = []

    # --- life cycle ---

    def start(self) -> FakeLLMServer:
        handler = make_handler(self)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        for provider in self._providers:
            provider.close()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "start() the server first"
        return self._server.server_address[1]

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """What ``LLM_BASE_URL`` would be: ``…/v1`` for OpenAI, the root for Anthropic."""
        return f"{self.root_url}/v1" if self.protocol == "openai" else self.root_url

    # --- scripting ---

    def enqueue(
        self,
        status: int = 200,
        json: Any = None,
        body: bytes | str | None = None,
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
    ) -> None:
        """Queue one response: a JSON body (``json=``) or raw ``body`` (bytes or text)."""
        send_headers = dict(headers or {})
        if json is not None:
            raw = json_bytes(json)
            send_headers.setdefault("content-type", "application/json")
        elif isinstance(body, str):
            raw = body.encode()
        else:
            raw = body or b""
        with self._lock:
            self._queue.append(ScriptedResponse(status, raw, send_headers, delay))

    def enqueue_openai_text(self, text: str, **kwargs: Any) -> None:
        """A plain OpenAI chat completion. ``kwargs``: ``finish_reason``, ``usage``, ``model``."""
        self.enqueue(json=openai_completion(text=text, **kwargs))

    def enqueue_openai_tool_calls(
        self, calls: Iterable[Call], text: str = "", **kwargs: Any
    ) -> None:
        """``calls``: ``(id, name, arguments)``; a dict is JSON-encoded as OpenAI does, a string
        is sent as is (to script broken JSON)."""
        tool_calls = [
            {
                "id": call_id,
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": args if isinstance(args, str) else json_bytes(args).decode(),
                },
            }
            for call_id, name, args in calls
        ]
        self.enqueue(json=openai_completion(text=text or None, tool_calls=tool_calls, **kwargs))

    def enqueue_anthropic_text(self, text: str, **kwargs: Any) -> None:
        self.enqueue(json=anthropic_message(content=[{"type": "text", "text": text}], **kwargs))

    def enqueue_anthropic_tool_use(
        self, calls: Iterable[Call], text: str = "", **kwargs: Any
    ) -> None:
        """``calls``: ``(id, name, input)``; Anthropic's ``input`` is an object (a string is
        decoded when it is JSON)."""
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        for call_id, name, args in calls:
            if isinstance(args, str):
                args = json.loads(args)
            content.append({"type": "tool_use", "id": call_id, "name": name, "input": args})
        self.enqueue(json=anthropic_message(content=content, **kwargs))

    def enqueue_error(
        self, status: int, json: Any = None, headers: dict[str, str] | None = None
    ) -> None:
        self.enqueue(
            status=status, json=json or {"error": {"message": f"HTTP {status}"}}, headers=headers
        )

    def enqueue_stream(
        self, chunks: Iterable[bytes | str], *, delay: float = 0.0, chunk_delay: float = 0.0
    ) -> None:
        """Queue a streamed answer (``text/event-stream``) written chunk by chunk."""
        raw = [c.encode() if isinstance(c, str) else c for c in chunks]
        with self._lock:
            self._queue.append(
                ScriptedResponse(
                    200,
                    b"",
                    {"content-type": "text/event-stream"},
                    delay,
                    chunks=raw,
                    chunk_delay=chunk_delay,
                )
            )

    def enqueue_sse(self, body: str | bytes, **kwargs: Any) -> None:
        """Replay a recorded SSE body, one event a chunk (``kwargs``: ``delay``, ``chunk_delay``)."""
        text = body.decode() if isinstance(body, bytes) else body
        events = [part + "\n\n" for part in text.replace("\r\n", "\n").split("\n\n") if part]
        self.enqueue_stream(events, **kwargs)

    def enqueue_openai_stream(
        self,
        text: str = "",
        calls: Iterable[Call] = (),
        *,
        pieces: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        """A streamed chat completion: ``text`` in ``pieces`` (a word each unless given), then
        the tool calls, the finish and usage chunks and ``[DONE]``."""
        self.enqueue_stream(openai_stream_chunks(text, list(calls), pieces=pieces), **kwargs)

    def enqueue_anthropic_stream(
        self,
        text: str = "",
        calls: Iterable[Call] = (),
        *,
        pieces: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        """A streamed Messages answer: ``text`` in ``pieces``, then one ``tool_use`` block a call."""
        self.enqueue_stream(anthropic_stream_chunks(text, list(calls), pieces=pieces), **kwargs)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    @property
    def last_request(self) -> RecordedRequest:
        return self.requests[-1]

    def provider(self, **overrides: Any) -> Any:
        """A provider of this server's protocol pointing here. By default it retries twice and
        records its waits in ``self.sleeps`` instead of sleeping; ``overrides`` go to its
        constructor (e.g. ``read_timeout=0.2``, ``sleep=time.sleep``)."""
        options: dict[str, Any] = {
            "base_url": self.base_url,
            "api_key": "test-key",
            "model": "fake-model",
            "connect_timeout": 2.0,
            "read_timeout": 10.0,
            "max_retries": 2,
            "max_retry_wait": 20.0,
            "sleep": self.sleeps.append,
        }
        options.update(overrides)
        provider: Any
        if self.protocol == "openai":
            provider = OpenAIProvider(**options)
        else:
            provider = AnthropicProvider(**options)
        self._providers.append(provider)
        return provider

    # --- serving ---

    def _next(self, path: str, *, stream: bool = False) -> ScriptedResponse:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if stream:
            chunks = (
                anthropic_stream_chunks(self.default_text, [])
                if path in ANTHROPIC_PATHS
                else openai_stream_chunks(self.default_text, [])
            )
            return ScriptedResponse(
                200,
                b"",
                {"content-type": "text/event-stream"},
                self.default_delay,
                chunks=[c.encode() for c in chunks],
                chunk_delay=self.stream_chunk_delay,
            )
        if path in ANTHROPIC_PATHS:
            data = anthropic_message(content=[{"type": "text", "text": self.default_text}])
        else:
            data = openai_completion(text=self.default_text)
        return ScriptedResponse(
            200, json_bytes(data), {"content-type": "application/json"}, self.default_delay
        )
