"""``bench_http --mix``: one capacity run of a design (``_bench_http_mix`` drives the athletes;
``_bench_http_box`` reads what each part of the box spends)."""

from __future__ import annotations

import os
import statistics
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from . import _bench_http_box
from ._bench_http_client import Request, run_batch
from ._bench_http_mix import P99_GOAL_MS, REPLY_SECONDS, capacity, parse_actions
from ._bench_http_plans import headers_for


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def run_capacity(cmd, env, var_dir, seeded, design, vendor, options) -> None:
    """One capacity run (``--mix``) of ``design``: its server, a Celery worker, the steps."""
    if not seeded["mix"]:
        raise CommandError("no mix accounts were seeded (--mix-accounts)")
    workers = options["mix_worker_concurrency"]
    try:
        actions = parse_actions(options["mix_set"])
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    stream = f"{REPLY_SECONDS:.0f} s streams"
    what = {
        "page": "pages",
        "post": f"posts + a {REPLY_SECONDS:.0f} s stream",
        "feed": "feeds",
        "send": "posts (no stream)",
        "stream": f"{stream} (no post)",
    }
    cmd.stdout.write(
        f"\ncapacity: {design}, {vendor}, {options['web_concurrency']} web workers, "
        + (f"a Celery worker × {workers} threads" if workers else "no Celery worker")
        + "; per athlete a minute: "
        + ", ".join(f"{n} {what[kind]}" for kind, n in actions)
        + f"; goal p99 ≤ {P99_GOAL_MS:.0f} ms; CPU of the whole box (web, worker, "
        "PostgreSQL's backends, Redis), then each part's ms/athlete-s"
    )
    proc, port, log = cmd._start(design, env, var_dir, options)
    worker = None
    if workers:
        worker = _bench_http_box.start_worker(
            env, Path(settings.BASE_DIR), var_dir / "worker.log", workers
        )
    database = env["DATABASE_URL"].rsplit("/", 1)[1] if vendor == "postgresql" else None
    box = _bench_http_box.box(
        web_pid=proc.pid,
        worker_pid=worker.pid if worker else None,
        redis_pid=options["redis_pid"],
        database=database,
    )
    names = list(box.parts)
    # Steady state: each account's page once in each process (its program panel and plan
    # offer are cached per process, by version and day), as after minutes of real traffic.
    # Each request goes to one of many connections, so to a process at random: 3 per
    # process each.
    pages = [
        Request("GET", "/", headers_for(account["cookies"], htmx=False))
        for account in seeded["mix"]
    ]
    run_batch(port, pages * 3 * options["web_concurrency"], 4 * options["web_concurrency"])
    cmd.stdout.write(
        f"  {'athletes':>8} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} "
        f"{'streams':>7} {'box CPU %':>12} {'CPU ms/athlete-s':>16} {'client ms/req':>13}"
        + "".join(f" {name:>8}" for name in names)
    )

    def report(step) -> None:
        cmd.stdout.write(
            f"  {step.athletes:>8} {step.rate:>7.1f} {step.p50:>7.1f} {step.p99:>7.1f} "
            f"{step.errors:>6} {step.streams:>7} "
            f"{step.server_cpu * 100 / step.seconds:>12.0f} "
            f"{step.cpu_ms_per_athlete_second:>16.3f} "
            f"{step.client_cpu * 1000 / max(1, step.requests):>13.3f}"
            + "".join(f" {step.ms_per_athlete_second(step.parts[n]):>8.3f}" for n in names)
            + (f"  ({step.failed})" if step.failed else "")
            + ("  ← breaks" if step.broken else "")
        )

    try:
        steps = capacity(
            port,
            seeded["mix"],
            _ints(options["mix_steps"]),
            warmup=options["mix_warmup"],
            seconds=options["mix_seconds"],
            server=box,
            report=report,
            actions=actions,
        )
    finally:
        cmd._stop(proc, log)
        if worker is not None:
            _bench_http_box.stop(worker)
    held = [s.athletes for s in steps if not s.broken]
    cmd.stdout.write(
        f"  held: {max(held) if held else 0} athletes"
        + (f"; broke at {steps[-1].athletes}" if steps and steps[-1].broken else "")
    )
    per = statistics.median(s.cpu_ms_per_athlete_second for s in steps) if steps else 0
    if steps:
        cmd.stdout.write(
            "  CPU ms per athlete-second by part (median of the steps): "
            + ", ".join(
                f"{n} {statistics.median(s.ms_per_athlete_second(s.parts[n]) for s in steps):.3f}"
                for n in names
            )
        )
    if per <= 0:  # /proc counts in 10 ms ticks: a short step can read no CPU at all
        cmd.stdout.write("  CPU: too little to read; run longer steps (--mix-seconds)")
    else:  # what the CPU alone allows, whatever else the machine is running
        cores = os.cpu_count() or 1
        cmd.stdout.write(
            f"  CPU: {per:.2f} ms per athlete-second (median of the steps): {cores} cores "
            f"busy with this box's parts alone would hold ≈ {cores * 1000 / per:.0f} athletes"
        )
