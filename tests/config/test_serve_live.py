"""``bin/serve`` as shipped serves pages and reply streams from one command, no proxy in front: a
page (a plain view, on a thread) is answered while three reply streams (an async view, on the
event loop; tests/config/test_serving.py shows the routing) are open."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from config import embedded_redis

pytestmark = pytest.mark.integration

ROOT = Path(settings.BASE_DIR)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(port: int, path: str, cookie: str = "") -> tuple[int, str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read().decode()
    finally:
        conn.close()


def _open_stream(port: int, path: str, cookie: str) -> tuple[socket.socket, bytes]:
    """A reply stream as the browser opens it; returns the socket and what arrived first."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    received = b""
    while b"retry:" not in received:
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    return sock, received


@pytest.fixture
def served(tmp_path):
    redis = embedded_redis.start(tmp_path, persist=False, stdout=subprocess.DEVNULL)
    port = _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_"))},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SSL_REDIRECT": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        "REDIS_URL": embedded_redis.broker_url(tmp_path),
        "SPOTTER_VAR_DIR": str(tmp_path),
        "LLM_PROVIDER": "offline",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "ACCESS_LOG": "0",
    }
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    seeded_file = tmp_path / "seeded.json"
    subprocess.run(
        [*manage, "bench_http", "--writers=0", "--mix-accounts=0", f"--seed-into={seeded_file}"],
        cwd=ROOT,
        env={**env, "CELERY_TASK_ALWAYS_EAGER": "1"},
        check=True,
    )
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        ["bash", "bin/serve"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()[-3000:]
            try:
                if _get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        yield port, json.loads(seeded_file.read_text())
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        log.close()
        redis.terminate()
        redis.wait(timeout=10)


def test_bin_serve_serves_a_page_while_reply_streams_are_open(served):
    port, seeded = served
    cookie = "; ".join(f"{k}={v}" for k, v in seeded["cookies"].items())
    stream_path = f"/messages/{seeded['pending_message']}/stream/"

    streams = [_open_stream(port, stream_path, cookie) for _ in range(3)]
    try:
        for _, first in streams:
            head = first.split(b"\r\n\r\n", 1)[0].lower()
            assert head.startswith(b"http/1.1 200") and b"text/event-stream" in head
        status, content_type, page = _get(port, "/", cookie)
        assert status == 200 and content_type.startswith("text/html")
        assert "How heavy should my squat be?" in page  # the conversation, from the database
    finally:
        for sock, _ in streams:
            sock.close()
