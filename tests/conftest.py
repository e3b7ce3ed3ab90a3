import contextlib
import os
import signal
import subprocess

import pytest
from django.core.cache import cache

from chat import stream
from config import embedded_redis
from tests.factories import build_program

pytest_plugins = ["tests.fakes.plugin"]


@pytest.fixture
def program(db):
    """Two weeks × three sessions × four exercises, owned by a fresh athlete."""
    return build_program(weeks=2, sessions=3, exercises=4)


@pytest.fixture
def stream_redis_server(tmp_path, settings):
    """Streamed replies switched on, with the embedded Redis on a socket of its own; yields the
    server's process (a test may stop it with SIGSTOP: it is let go on again at the end)."""
    proc = embedded_redis.start(
        tmp_path, persist=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    settings.CHAT_STREAMING = True
    settings.CHAT_STREAM_REDIS_URL = f"unix://{embedded_redis.socket_path(tmp_path)}"
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGCONT)
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def stream_redis(stream_redis_server):
    """Streamed replies switched on, with a Redis of their own; yields the ``chat.stream``
    client."""
    return stream.client()


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: rolled-back tests can reuse a primary key (SQLite),
    so a rendering cached by one test must not be found by the next."""
    cache.clear()
    yield
    cache.clear()
