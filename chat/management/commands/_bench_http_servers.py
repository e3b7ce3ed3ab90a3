"""The serving designs ``bench_http`` compares, each started as its own server on a free port.

``split`` is what ``bin/serve`` runs (config/gunicorn.py: uvicorn workers with httptools and uvloop
on ``config.asgi``, async views on the loop and the rest through Django's WSGI handler with one
thread hand-off). The others are the alternatives it was chosen against (docs/operations.md):

- ``asgi``: the design before issue 23, Django's ASGI handler for everything (h11, asyncio);
- ``gthread``: gunicorn's threaded WSGI workers (no async view can wait without a thread);
- ``split-h11``: ``split`` on uvicorn's pure-Python parser and asyncio's loop;
- ``split-a2wsgi``: ``split`` with a2wsgi's WSGI adapter (a hand-off for each message sent);
- ``granian``: the Rust server granian running ``config.asgi``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:config.gunicorn"]
APPS = "chat.management.commands._bench_http_apps"

CANDIDATES: dict[str, list[str]] = {
    "split": [*GUNICORN, "config.asgi:application"],
    "asgi": [*GUNICORN, "-k", "uvicorn_worker.UvicornH11Worker", f"{APPS}:django_asgi"],
    "gthread": [*GUNICORN, "-k", "gthread", "--threads", "8", "config.wsgi:application"],
    "split-h11": [*GUNICORN, "-k", "uvicorn_worker.UvicornH11Worker", "config.asgi:application"],
    "split-a2wsgi": [*GUNICORN, f"{APPS}:a2wsgi_split"],
    "granian": [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "asgi",
        "--loop",
        "uvloop",
        "--no-access-log",
        "--log-level",
        "warning",
        "config.asgi:application",
    ],
}


def command(name: str, *, port: int, workers: int) -> list[str]:
    base = CANDIDATES[name]
    if name == "granian":
        return [*base, "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    return base


class ProcessTree:
    """The CPU time (user + system) of a server and every process under it, from ``/proc``."""

    def __init__(self, root_pid: int) -> None:
        self.root = root_pid
        self.ticks = os.sysconf("SC_CLK_TCK")

    def _pids(self) -> list[int]:
        found, todo = [], [self.root]
        while todo:
            pid = todo.pop()
            found.append(pid)
            try:
                tasks = list(Path(f"/proc/{pid}/task").iterdir())
            except OSError:
                continue
            for task in tasks:
                try:
                    todo += [int(c) for c in (task / "children").read_text().split()]
                except OSError:
                    continue
        return found

    def cpu_seconds(self) -> float:
        total = 0
        for pid in self._pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        return total / self.ticks
