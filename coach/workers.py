"""Start a real ``celery worker`` process that shares this process's database: the integration
tests and the ``bench_chat`` benchmark use it to go through the real broker and worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

from django.conf import settings
from django.db import connection

# No broadcast chatter between workers: these workers are alone and short-lived.
WORKER_FLAGS = ("--without-gossip", "--without-mingle", "--without-heartbeat")


def database_url() -> str:
    """The URL of the database this process is connected to (the test database under pytest)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_worker(
    *,
    env: dict[str, str],
    output: IO[bytes] | None = None,
    loglevel: str = "info",
    concurrency: int | None = None,
) -> subprocess.Popen:
    """A worker on this project with ``env`` on top of ours, on the pool the settings name
    (``threads``) with ``concurrency`` threads (default ``AGENT_CONCURRENCY``); stop it with
    terminate(). It leads a process group of its own, so ``os.killpg`` reaches all of it."""
    threads = concurrency or settings.AGENT_CONCURRENCY
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=threads"]
    return subprocess.Popen(
        [*command, f"--concurrency={threads}", *WORKER_FLAGS, f"--loglevel={loglevel}"],
        cwd=Path(settings.BASE_DIR),
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DATABASE_URL": database_url(),
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "LOG_LEVEL": loglevel.upper(),
            **env,
        },
        stdout=output,
        stderr=subprocess.STDOUT if output is not None else None,
        process_group=0,
    )
