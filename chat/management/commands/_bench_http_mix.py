"""``bench_http --mix``: how many active athletes one box holds, on issue 23's mix.

Each active athlete, every minute on average (exponential gaps, so arrivals are random): 3 page
loads, each followed by the plan offer it fetches; 2 posts, each followed by its reply stream held
open ``REPLY_SECONDS`` (10 s, the reply's time; the reply stays pending, so the stream waits as it
would while the model writes); 3 feed polls. One keep-alive connection per athlete, as a browser
tab, and one more for each stream. Athletes share the seeded accounts (the rate and stream limits
are raised for the run). The number of athletes grows step by step; each step's figures are taken
after a warm-up: requests per second, p50/p99 of every request (a stream's until its headers), the
errors, the server's CPU per athlete-second, and the step where p99 passes ``P99_GOAL_MS`` or more
than 1 % of requests fail: the break point.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from urllib.parse import urlencode

from ._bench_http_client import Connection, Request, Results, quantile, run
from ._bench_http_plans import headers_for

REPLY_SECONDS = 10.0
P99_GOAL_MS = 250.0
ACTIONS = (("page", 3), ("post", 2), ("feed", 3))  # per athlete per minute
PER_MINUTE = sum(n for _, n in ACTIONS)


@dataclass
class Step:
    athletes: int
    seconds: float
    requests: int
    rate: float
    p50: float
    p99: float
    errors: int
    streams: int
    server_cpu: float  # seconds
    client_cpu: float  # seconds
    failed: str  # the statuses of the errors ("none": no answer)

    @property
    def cpu_ms_per_athlete_second(self) -> float:
        return self.server_cpu * 1000 / (self.athletes * self.seconds)

    @property
    def broken(self) -> bool:
        return self.p99 > P99_GOAL_MS or self.errors > 0.01 * max(1, self.requests)


class _Athlete:
    def __init__(self, port: int, account: dict) -> None:
        self.port = port
        self.conn = Connection(port)
        self.headers = headers_for(account["cookies"])
        self.page = Request("GET", "/", headers_for(account["cookies"], htmx=False))
        self.offer = Request("GET", "/plan/offer/", self.headers)
        body = urlencode({"text": "How should my squat feel this week?"}).encode()
        self.post = Request(
            "POST", f"/conversations/{account['conversation']}/messages/", self.headers, body
        )
        self.stream = Request("GET", f"/messages/{account['reply']}/stream/", self.headers)
        self.feed = Request(
            "GET",
            f"/conversations/{account['conversation']}/feed/?after={account['reply']}",
            self.headers,
        )


async def _timed(results: Results | None, coroutine) -> None:
    started = time.perf_counter()
    status = await coroutine
    if results is None:
        return
    if status is None:
        results.failures += 1
    else:
        results.add((time.perf_counter() - started) * 1000, status)


async def _live(athlete: _Athlete, state: dict, stop: float, streams: list) -> None:
    rng = random.Random()
    kinds = [kind for kind, n in ACTIONS for _ in range(n)]
    await asyncio.sleep(rng.uniform(0, 60 / PER_MINUTE))
    while time.monotonic() < stop:
        kind = rng.choice(kinds)
        results = state["results"]
        if kind == "page":
            await _timed(results, athlete.conn.send(athlete.page))
            await _timed(results, athlete.conn.send(athlete.offer))
        elif kind == "feed":
            await _timed(results, athlete.conn.send(athlete.feed))
        else:
            await _timed(results, athlete.conn.send(athlete.post))
            streams.append(asyncio.ensure_future(_stream(athlete, state)))
        await asyncio.sleep(rng.expovariate(PER_MINUTE / 60))
    athlete.conn.close()


async def _stream(athlete: _Athlete, state: dict) -> None:
    results = state["results"]
    if results is not None:
        results.streams += 1
    conn = Connection(athlete.port)
    started = time.perf_counter()
    status = await conn.hold(athlete.stream, REPLY_SECONDS, on_head=lambda: _head(state, started))
    if status is None and results is not None:
        results.failures += 1


def _head(state: dict, started: float) -> None:
    if state["results"] is not None:
        state["results"].add((time.perf_counter() - started) * 1000, 200)


async def _step(port, accounts, athletes, *, warmup, seconds, server) -> Step:
    state: dict = {"results": None}
    stop = time.monotonic() + warmup + seconds
    streams: list = []
    tasks = [
        asyncio.ensure_future(
            _live(_Athlete(port, accounts[i % len(accounts)]), state, stop, streams)
        )
        for i in range(athletes)
    ]
    await asyncio.sleep(warmup)
    results = Results()
    state["results"] = results
    cpu, client_cpu, wall = server.cpu_seconds(), time.process_time(), time.monotonic()
    await asyncio.sleep(seconds)
    state["results"] = None
    elapsed = time.monotonic() - wall
    cpu, client_cpu = server.cpu_seconds() - cpu, time.process_time() - client_cpu
    await asyncio.gather(*tasks)
    await asyncio.gather(*streams)
    latencies = results.latencies or [0.0]
    return Step(
        athletes=athletes,
        seconds=elapsed,
        requests=len(results.latencies) + results.failures,
        rate=len(results.latencies) / elapsed,
        p50=quantile(latencies, 0.5),
        p99=quantile(latencies, 0.99),
        errors=results.errors,
        streams=results.streams,
        server_cpu=cpu,
        client_cpu=client_cpu,
        failed=", ".join(
            [f"{n}× {s}" for s, n in sorted(results.statuses.items()) if s >= 400]
            + ([f"{results.failures}× none"] if results.failures else [])
        ),
    )


def capacity(port, accounts, steps, *, warmup, seconds, server, report) -> list[Step]:
    """Run each step in turn (``report`` prints it) until one breaks."""
    done = []
    for athletes in steps:
        step = run(_step(port, accounts, athletes, warmup=warmup, seconds=seconds, server=server))
        report(step)
        done.append(step)
        if step.broken:
            break
    return done
