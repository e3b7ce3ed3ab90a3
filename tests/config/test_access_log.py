"""``ACCESS_LOG`` turns gunicorn's one-line-a-request log on (1, the default) and off (0), as
``bin/serve`` runs it: uvicorn's workers copy the access logger's handlers, so the switch has to
reach the logging configuration, not only gunicorn's ``accesslog``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:config.gunicorn"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _served_log(tmp_path: Path, access_log: str) -> str:
    """Start gunicorn with ``ACCESS_LOG=access_log``, fetch /healthz three times, stop it, and
    return everything it printed."""
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"HOST", "PORT", "ACCESS_LOG"}},
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "ACCESS_LOG": access_log,
        "LOG_FORMAT": "text",
        "SPOTTER_VAR_DIR": str(tmp_path),
    }
    out = tmp_path / "server.log"
    with out.open("w") as sink:
        server = subprocess.Popen(
            [*GUNICORN, "config.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 60
            served = 0
            while served < 3:
                assert time.monotonic() < deadline and server.poll() is None
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                        served += 1
                except OSError:
                    time.sleep(0.2)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    return out.read_text()


@pytest.mark.integration
@pytest.mark.parametrize(("access_log", "lines"), [("1", 3), ("0", 0)])
def test_access_log_switches_the_request_lines_on_and_off(tmp_path, access_log, lines):
    log = _served_log(tmp_path, access_log)

    assert "Booting worker" in log  # the server did log, so silence is the switch
    assert log.count("GET /healthz") == lines
