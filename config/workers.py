"""Start a real ``celery worker`` process that shares this process's database: the integration
tests and the ``bench_chat`` benchmark use it to go through the real broker and worker."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from django.conf import settings
from django.db import connection
from kombu import pools as kombu_pools

from config import embedded_redis
from config.celery import app as celery_app

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


def reset_broker_connections() -> None:
    """Forget pooled broker connections so the next send uses the broker now configured.

    kombu keeps its connection and producer pools in process-wide registries keyed by the broker's
    URL, and Celery sends through them even for an eager task (to learn the serializer). Closing
    the app's pool alone left the closed pool registered under its URL, so every later send to
    that broker in the process failed ("Acquire on closed pool"); ``kombu.pools.reset`` closes
    them and empties the registries."""
    kombu_pools.reset()
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@contextlib.contextmanager
def worker_on_a_broker(
    *, env: dict[str, str], concurrency: int | None = None
) -> Iterator[tuple[subprocess.Popen, Path]]:
    """A worker process (see ``start_worker``) logging to a temporary file and, without
    ``REDIS_URL``, a private embedded Redis in the same temporary folder (not the one ``bin/run``
    may be serving); this process sends its tasks to the same broker until the block ends.
    Yields the worker and its log. For benchmarks."""
    with contextlib.ExitStack() as stack:
        worker_env = dict(env)
        var_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="spotter-")))
        if not settings.REDIS_URL:
            server = embedded_redis.start(
                var_dir, persist=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
            )
            stack.callback(server.wait, 10)
            stack.callback(server.terminate)
            worker_env |= {"SPOTTER_VAR_DIR": str(var_dir), "REDIS_URL": ""}
            saved = celery_app.conf.broker_url
            reset_broker_connections()
            celery_app.conf.broker_url = embedded_redis.broker_url(var_dir)
            stack.callback(setattr, celery_app.conf, "broker_url", saved)
            stack.callback(reset_broker_connections)
        # Through the worker even where tasks otherwise run in-process (the test settings).
        stack.callback(
            setattr, celery_app.conf, "task_always_eager", celery_app.conf.task_always_eager
        )
        celery_app.conf.task_always_eager = False
        log = var_dir / "worker.log"
        output = stack.enter_context(log.open("wb"))
        worker = start_worker(
            env=worker_env, output=output, loglevel="warning", concurrency=concurrency
        )
        stack.callback(_stop, worker)
        yield worker, log


def _stop(worker: subprocess.Popen) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
