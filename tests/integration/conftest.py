"""Real services for the integration tests: a redis-server we start on a free port and a Celery
worker process that shares the test database. Without redis-server installed these tests are
skipped locally and fail in CI (SPOTTER_REQUIRE_ALL=1), where .ci/run installs it."""

import os
import shutil
import socket
import subprocess
import time

import pytest

from coach.workers import start_worker

REQUIRE_ALL = os.environ.get("SPOTTER_REQUIRE_ALL") == "1"
HAVE_REDIS = shutil.which("redis-server") is not None

needs_redis = pytest.mark.skipif(
    not HAVE_REDIS and not REQUIRE_ALL,
    reason="redis-server is not installed (bin/system-deps installs it as root)",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


@pytest.fixture
def redis_url():
    port = _free_port()
    proc = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_for_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _reset_connections(app) -> None:
    """Forget pooled broker connections so the next send uses the broker now configured."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def worker_env(tmp_path) -> dict[str, str]:
    """Extra environment for the worker process; a test may add to it before starting the worker."""
    return {}


@pytest.fixture
def celery_worker_process(redis_url, tmp_path, worker_env):
    """A real `celery worker` process on the Redis broker, reading the test database."""
    from config.celery import app

    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        proc = start_worker(
            env={
                "REDIS_URL": redis_url,
                "SPOTTER_VAR_DIR": str(tmp_path),
                "LLM_PROVIDER": os.environ.get("LLM_PROVIDER", "offline"),
                **worker_env,
            },
            output=out,
        )
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    _reset_connections(app)
    app.conf.update(broker_url=redis_url, task_always_eager=False)
    try:
        yield proc, log
    finally:
        _reset_connections(app)
        app.conf.update(saved)
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
