"""What the whole box spends during ``bench_http --mix``: the web server, the Celery worker, Redis
and PostgreSQL, each read from ``/proc`` (CPU time, user + system).

The worker is ``bin/serve worker``'s command (Celery's threads pool) on the bench's Redis and
database, started with ``--purge``: the seeded replies the streams wait on were queued for no
worker, and must stay pending (a stream waits as it would while the model writes); the posts of
the run are answered by the offline coach, as in production with ``LLM_PROVIDER=offline``.

PostgreSQL's share is its backends serving the bench's throwaway database (the server's shared
processes, its WAL writer and checkpointer, also serve the machine's other databases and are left
out); a backend that ends during a step takes its CPU with it, which the pools (web and worker)
make rare.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from ._bench_http_servers import ProcessTree

WORKER = [
    sys.executable,
    "-m",
    "celery",
    "-A",
    "config",
    "worker",
    "--pool=threads",
    "--without-gossip",
    "--without-mingle",
    "--purge",
    "--loglevel=WARNING",
]


def _cpu_of(pid: int, ticks: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / ticks


class PostgresBackends:
    """The CPU time of the PostgreSQL backends connected to one database (by their process title,
    ``postgres: <cluster>: <user> <database> <client> <state>``)."""

    def __init__(self, database: str) -> None:
        self.marker = f" {database} "
        self.ticks = os.sysconf("SC_CLK_TCK")

    def cpu_seconds(self) -> float:
        total = 0.0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                title = (
                    (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                )
            except OSError:
                continue
            if title.startswith("postgres:") and self.marker in title:
                total += _cpu_of(int(entry.name), self.ticks)
        return total


class Box:
    """The CPU each part has spent so far, in seconds: ``{"web": ..., "worker": ..., ...}``."""

    def __init__(self, parts: dict) -> None:
        self.parts = parts

    def cpu_parts(self) -> dict[str, float]:
        return {name: part.cpu_seconds() for name, part in self.parts.items()}


def start_worker(env: dict, cwd: Path, log_path: Path, concurrency: int) -> subprocess.Popen:
    log = log_path.open("ab")
    proc = subprocess.Popen(
        [*WORKER, f"--concurrency={concurrency}"],
        cwd=cwd,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    # Celery's start (imports, the broker's connection) is not the mix's cost: wait until the
    # worker is idle (under a second's CPU in 2 s), which on a loaded machine takes a while.
    tree, deadline = ProcessTree(proc.pid), time.monotonic() + 120
    spent = tree.cpu_seconds()
    while time.monotonic() < deadline:
        time.sleep(2)
        if proc.poll() is not None:
            raise RuntimeError("the Celery worker ended:\n" + log_path.read_text()[-3000:])
        now = tree.cpu_seconds()
        if now > 1.0 and now - spent < 0.05:
            break
        spent = now
    return proc


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def box(*, web_pid: int, worker_pid: int | None, redis_pid: int, database: str | None) -> Box:
    parts: dict = {"web": ProcessTree(web_pid)}
    if worker_pid is not None:
        parts["worker"] = ProcessTree(worker_pid)
    if database:
        parts["postgres"] = PostgresBackends(database)
    parts["redis"] = ProcessTree(redis_pid)
    return Box(parts)
