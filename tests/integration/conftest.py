"""Real services for the integration tests: a redis-server we start on a free port and a Celery
worker process that shares the test database. Without redis-server installed these tests are
skipped locally and fail in CI (SPOTTER_REQUIRE_ALL=1), where .ci/run installs it."""

import os
import shutil
import socket
import subprocess
import time

import pytest
from django.conf import settings

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


@pytest.fixture(params=[pytest.param("redis", marks=needs_redis), "embedded"])
def broker(request, tmp_path) -> dict[str, object]:
    """Both brokers the project runs on: a real redis-server (production) and the embedded
    filesystem broker (a machine with no service). Gives the worker's environment and the
    settings the test process sends with."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        return {"env": {"REDIS_URL": url}, "conf": {"broker_url": url}}
    # The worker builds its broker folders from SPOTTER_VAR_DIR exactly as settings do.
    folders = {name: tmp_path / "broker" / name for name in ("queue", "processed", "control")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    options = {
        **getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}),
        "polling_interval": 0.05,
        "store_processed": False,
        "data_folder_in": str(folders["queue"]),
        "data_folder_out": str(folders["queue"]),
        "processed_folder": str(folders["processed"]),
        "control_folder": str(folders["control"]),
    }
    return {
        "env": {"REDIS_URL": ""},
        "conf": {"broker_url": "filesystem://", "broker_transport_options": options},
    }


@pytest.fixture
def celery_worker_process(broker, tmp_path, worker_env):
    """A real `celery worker` process on ``broker``, reading the test database."""
    from config.celery import app

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
        )
    changed = {"task_always_eager": False, **broker["conf"]}
    saved = {key: app.conf[key] for key in changed}
    _reset_connections(app)
    app.conf.update(changed)
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
