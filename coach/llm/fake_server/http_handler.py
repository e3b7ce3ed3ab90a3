"""The HTTP side of the fake LLM server: how a request is recorded (``RecordedRequest``), what a
reply is written from (``ScriptedResponse``, whole or chunk by chunk) and the request handler that
does both for a ``FakeLLMServer`` (``server.py``)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from .protocols import ANTHROPIC_PATHS, OPENAI_PATHS, json_bytes

if TYPE_CHECKING:
    from .server import FakeLLMServer


@dataclass
class ScriptedResponse:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    # A streamed answer: each chunk is written and flushed on its own, ``chunk_delay`` s apart.
    chunks: list[bytes] | None = None
    chunk_delay: float = 0.0


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any


def make_handler(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # One write per response and no Nagle delay: without these a reply waits ~40 ms for the
        # client's delayed ACK, which would swamp any benchmark.
        wbufsize = -1
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            try:
                parsed = json.loads(body) if body else None
            except json.JSONDecodeError:
                parsed = None
            path = self.path.split("?", 1)[0]
            server.requests.append(
                RecordedRequest(
                    method="POST",
                    path=path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                    json=parsed,
                )
            )
            if path not in OPENAI_PATHS + ANTHROPIC_PATHS:
                self._send(
                    ScriptedResponse(
                        404,
                        json_bytes({"error": {"message": f"No route {path}", "type": "not_found"}}),
                        {"content-type": "application/json"},
                    )
                )
                return
            if server.hang:  # a model that accepts the request and never answers
                server._stopping.wait()
                self.close_connection = True
                return
            stream = isinstance(parsed, dict) and parsed.get("stream") is True
            scripted = server._next(path, stream=stream)
            if scripted.delay and server._stopping.wait(scripted.delay):
                return
            if scripted.chunks is not None:
                self._send_chunks(scripted)
            else:
                self._send(scripted)

        def _send_chunks(self, scripted: ScriptedResponse) -> None:
            """A streamed body: no length, the connection closes at its end."""
            self.close_connection = True
            try:
                self.send_response(scripted.status)
                for name, value in scripted.headers.items():
                    self.send_header(name, value)
                self.send_header("connection", "close")
                self.end_headers()
                self.wfile.flush()
                for number, chunk in enumerate(scripted.chunks or []):
                    delay = scripted.chunk_delay if number else 0.0
                    if delay and server._stopping.wait(delay):
                        return
                    self.wfile.write(chunk)
                    self.wfile.flush()
                    if number == 0:
                        server.first_chunk_times.append(time.time())
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _send(self, scripted: ScriptedResponse) -> None:
            try:
                self.send_response(scripted.status)
                for name, value in scripted.headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(scripted.body)))
                self.end_headers()
                self.wfile.write(scripted.body)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

    return Handler
