"""``bench_http --mix``: how many active athletes one box holds, on issue 23's mix.

Each active athlete, every minute on average (exponential gaps, so arrivals are random): 3 page
loads (the plan's offer is part of the page); 2 posts, each followed by a reply stream held open
``REPLY_SECONDS`` (10 s, the reply's time; the stream follows a seeded reply that stays pending, so
it waits as it would while the model writes, and the worker answers the post itself); 3 feed
polls. One keep-alive connection per athlete, as a browser
tab, and one more for each stream. Athletes share the seeded accounts (the rate and stream limits
are raised for the run). The number of athletes grows step by step; each step's figures are taken
after a warm-up: requests per second, p50/p99 of every request (a stream's until its headers), the
errors, the CPU per athlete-second of each part of the box (``_bench_http_box``: web, worker,
PostgreSQL's backends, Redis) and of all of them, and the step where p99 passes ``P99_GOAL_MS`` or more
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
KINDS = ("page", "post", "feed", "send", "stream")


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
    parts: dict[str, float]  # CPU seconds of each part of the box (web, worker, ...)
    client_cpu: float  # seconds
    failed: str  # the statuses of the errors ("none": no answer)

    @property
    def server_cpu(self) -> float:
        """Every part's CPU seconds together."""
        return sum(self.parts.values())

    def ms_per_athlete_second(self, seconds: float) -> float:
        return seconds * 1000 / (self.athletes * self.seconds)

    @property
    def cpu_ms_per_athlete_second(self) -> float:
        return self.ms_per_athlete_second(self.server_cpu)

    @property
    def broken(self) -> bool:
        return self.p99 > P99_GOAL_MS or self.errors > 0.01 * max(1, self.requests)


class _Athlete:
    def __init__(self, port: int, account: dict) -> None:
        self.port = port
        self.conn = Connection(port)
        self.headers = headers_for(account["cookies"])
        self.page = Request("GET", "/", headers_for(account["cookies"], htmx=False))
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


def parse_actions(text: str) -> tuple[tuple[str, int], ...]:
    """``page:3,post:2,feed:3`` (the mix) or a part of it, to see what one kind costs: ``send``
    is a post without its stream, ``stream`` a stream without a post."""
    actions = []
    for part in text.split(","):
        kind, _, count = part.partition(":")
        if kind not in KINDS or not count.isdigit() or int(count) < 1:
            raise ValueError(f"not an action: {part!r} ({', '.join(KINDS)}, then :N a minute)")
        actions.append((kind, int(count)))
    return tuple(actions)


async def _live(athlete: _Athlete, state: dict, stop: float, streams: list) -> None:
    rng = random.Random()
    kinds = [kind for kind, n in state["actions"] for _ in range(n)]
    per_minute = len(kinds)
    await asyncio.sleep(rng.uniform(0, 60 / per_minute))
    while time.monotonic() < stop:
        kind = rng.choice(kinds)
        results = state["results"]
        if kind == "page":
            await _timed(results, athlete.conn.send(athlete.page))
        elif kind == "feed":
            await _timed(results, athlete.conn.send(athlete.feed))
        elif kind == "send":  # a post alone
            await _timed(results, athlete.conn.send(athlete.post))
        elif kind == "stream":  # a stream alone
            streams.append(asyncio.ensure_future(_stream(athlete, state)))
        else:
            await _timed(results, athlete.conn.send(athlete.post))
            streams.append(asyncio.ensure_future(_stream(athlete, state)))
        await asyncio.sleep(rng.expovariate(per_minute / 60))
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


async def _step(port, accounts, athletes, *, warmup, seconds, server, actions) -> Step:
    state: dict = {"results": None, "actions": actions}
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
    cpu, client_cpu, wall = server.cpu_parts(), time.process_time(), time.monotonic()
    await asyncio.sleep(seconds)
    state["results"] = None
    elapsed = time.monotonic() - wall
    cpu = {name: spent - cpu[name] for name, spent in server.cpu_parts().items()}
    client_cpu = time.process_time() - client_cpu
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
        parts=cpu,
        client_cpu=client_cpu,
        failed=", ".join(
            [f"{n}× {s}" for s, n in sorted(results.statuses.items()) if s >= 400]
            + ([f"{results.failures}× none"] if results.failures else [])
        ),
    )


def capacity(
    port, accounts, steps, *, warmup, seconds, server, report, actions=ACTIONS
) -> list[Step]:
    """Run each step in turn (``report`` prints it) until one breaks."""
    done = []
    for athletes in steps:
        step = run(
            _step(
                port,
                accounts,
                athletes,
                warmup=warmup,
                seconds=seconds,
                server=server,
                actions=actions,
            )
        )
        report(step)
        done.append(step)
        if step.broken:
            break
    return done
