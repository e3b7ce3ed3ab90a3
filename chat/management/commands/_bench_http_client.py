"""``bench_http``'s load generator: a raw HTTP/1.1 keep-alive client on asyncio (uvloop).

No HTTP library: a request is one ``write`` of prepared bytes, a response is the status line, the
headers up to the blank line and a body by ``Content-Length`` or chunks. It costs the bench a few
tens of microseconds of CPU a request (printed with every run), so the server, not the client, is
what the figures measure (issue 23: an httpx-on-threads client spent 1.1–1.5 ms a request).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import uvloop


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""

    def encode(self) -> bytes:
        lines = [f"{self.method} {self.path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{name}: {value}" for name, value in self.headers]
        if self.body or self.method == "POST":
            lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append(f"Content-Length: {len(self.body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin1") + self.body


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)  # ms
    statuses: dict[int, int] = field(default_factory=dict)
    failures: int = 0  # no answer at all (connection refused, reset, timeout)
    streams: int = 0  # event streams opened (bench_http --mix)

    def add(self, ms: float, status: int) -> None:
        self.latencies.append(ms)
        self.statuses[status] = self.statuses.get(status, 0) + 1

    @property
    def errors(self) -> int:
        return self.failures + sum(n for s, n in self.statuses.items() if s >= 400)


class Connection:
    """One keep-alive connection; ``None`` from ``send`` means it broke (a new one is opened)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def send(self, request: Request, *, timeout: float = 60.0) -> int | None:
        """The status of the answer to ``request``, its body read and dropped. A kept-alive
        connection the server closed meanwhile (its keep-alive timeout) is opened again and the
        request sent once more, as a browser does."""
        reused = self.writer is not None
        try:
            if self.writer is None:
                await self._open()
            self.writer.write(request.encode())
            return await asyncio.wait_for(self._answer(), timeout)
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            self.close()
            if reused and not getattr(exc, "partial", b""):
                return await self.send(request, timeout=timeout)
            return None
        except (OSError, TimeoutError, ValueError):
            self.close()
            return None

    async def _answer(self) -> int:
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                await self.reader.readexactly(size + 2)
                if size == 0:
                    break
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status

    async def hold(self, request: Request, seconds: float, on_head=None) -> int | None:
        """Open a streamed response (an event stream) and read it for ``seconds`` at most, then
        leave, as a browser whose reply took that long; the connection is closed either way."""
        try:
            if self.writer is None:
                await self._open()
            self.writer.write(request.encode())
            head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 60)
            status = int(head.split(b" ", 2)[1])
            if on_head is not None:
                on_head()
            deadline = time.monotonic() + seconds
            while (left := deadline - time.monotonic()) > 0:
                try:
                    if not await asyncio.wait_for(self.reader.read(65536), left):
                        break
                except TimeoutError:
                    break
            return status
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError):
            return None
        finally:
            self.close()


async def _batch(port: int, requests: list[Request], connections: int) -> Results:
    results = Results()
    queue = list(reversed(requests))

    async def one_connection() -> None:
        conn = Connection(port)
        while queue:
            request = queue.pop()
            started = time.perf_counter()
            status = await conn.send(request)
            if status is None:
                results.failures += 1
                continue
            results.add((time.perf_counter() - started) * 1000, status)
        conn.close()

    await asyncio.gather(*(one_connection() for _ in range(connections)))
    return results


def run_batch(port: int, requests: list[Request], connections: int) -> tuple[Results, float, float]:
    """Send ``requests`` over ``connections`` keep-alive connections: the results, the wall time
    and the client's own CPU seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    results = run(_batch(port, requests, connections))
    return results, time.perf_counter() - wall, time.process_time() - cpu


def run(coroutine):
    return uvloop.run(coroutine)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]
