"""``bin/run`` as a developer runs it: real processes, a free port, its own var/ and database."""

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(predicate, timeout: float, what: str, log: Path) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what} after {timeout} s; log:\n{log.read_text()[-4000:]}")


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def test_bin_run_restarts_a_killed_worker_and_redis_and_ctrl_c_leaves_no_process(tmp_path):
    port = _free_port()
    log = tmp_path / "run.log"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_DEBUG"}
    }
    env.update(
        PORT=str(port),
        SPOTTER_VAR_DIR=str(tmp_path / "var"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        AGENT_CONCURRENCY="4",
    )
    with log.open("wb") as out:
        run = subprocess.Popen(
            ["bash", "bin/run"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_for(lambda: _http_ok(f"http://127.0.0.1:{port}/healthz"), 90, "no HTTP 200", log)
        # DEBUG is off, yet the stylesheet is served (whitenoise).
        assert _http_ok(f"http://127.0.0.1:{port}/static/spotter.css")
        started = lambda name: re.findall(rf"started {name} \(pid (\d+)\)", log.read_text())  # noqa: E731
        first_worker = int(started("Celery worker")[0])
        redis_pid = int(started("embedded Redis")[0])
        web_pid = int(started("web server")[0])
        beat_pid = int(started("Celery beat")[0])

        os.kill(first_worker, signal.SIGKILL)

        restarted = _wait_for(
            lambda: len(started("Celery worker")) > 1, 30, "the worker was not restarted", log
        )
        assert restarted
        text = log.read_text()
        assert re.search(
            rf"Celery worker \(pid {first_worker}\) died with status -9 .*restarting it", text
        )
        second_worker = int(started("Celery worker")[1])
        assert second_worker != first_worker
        after_restart = lambda: log.read_text().split("restarting it")[-1]  # noqa: E731
        _wait_for(lambda: "ready." in after_restart(), 30, "the new worker is not ready", log)

        os.kill(redis_pid, signal.SIGKILL)
        _wait_for(lambda: len(started("embedded Redis")) > 1, 30, "Redis was not restarted", log)
        assert re.search(
            rf"embedded Redis \(pid {redis_pid}\) died with status -9", log.read_text()
        )
        second_redis = int(started("embedded Redis")[1])

        os.killpg(run.pid, signal.SIGINT)  # Ctrl-C in the terminal
        assert run.wait(timeout=30) == 0
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert "stopped everything" in log.read_text()
    for pid in (redis_pid, second_redis, first_worker, second_worker, web_pid, beat_pid):
        assert not _group_alive(pid), f"process group {pid} survived Ctrl-C"


def test_programs_stop_when_the_supervisor_itself_is_killed(tmp_path):
    port = _free_port()
    log = tmp_path / "run.log"
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(
        PORT=str(port),
        SPOTTER_VAR_DIR=str(tmp_path / "var"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        AGENT_CONCURRENCY="2",
    )
    with log.open("wb") as out:
        run = subprocess.Popen(
            ["bash", "bin/run"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_for(lambda: _http_ok(f"http://127.0.0.1:{port}/healthz"), 90, "no HTTP 200", log)
        # Every program is up, beat included: a beat the worker ran as its child (``--beat``)
        # outlived the kill every time from here on.
        _wait_for(lambda: "ready." in log.read_text(), 90, "the worker is not ready", log)
        _wait_for(lambda: "beat: Starting" in log.read_text(), 90, "beat did not start", log)
        groups = [int(pid) for pid in re.findall(r"started [\w ]+ \(pid (\d+)\)", log.read_text())]
        assert len(groups) == 4
    finally:
        os.kill(run.pid, signal.SIGKILL)  # the supervisor only: it cannot clean up
        run.wait()
    _wait_for(
        lambda: not any(_group_alive(pgid) for pgid in groups),
        20,
        "programs outlived their supervisor",
        log,
    )
