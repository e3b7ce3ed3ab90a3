"""Two boxes' worth of Spotter on this machine, started with the production commands: two web
processes (``bin/serve web``), two workers (``bin/serve worker``) and one beat (``bin/serve
beat``), each with a folder of its own (``SPOTTER_VAR_DIR``: what a box does not share), all on
one PostgreSQL (the test database) and one Redis (a ``redis-server`` on TCP), which is all they
share. Used by ``tests/scale``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from django.conf import settings

from config.workers import database_url

ROOT = Path(settings.BASE_DIR)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


@dataclass
class Role:
    """One process of the cluster: ``bin/serve <role>`` in a process group of its own."""

    name: str
    proc: subprocess.Popen
    log: Path
    port: int | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL the whole group: a box that loses power, no graceful shutdown."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def tail(self) -> str:
        return self.output()[-3000:]


@dataclass
class Cluster:
    tmp: Path
    env: dict[str, str]
    roles: list[Role] = field(default_factory=list)

    def start(self, role: str, name: str) -> Role:
        box = self.tmp / name
        box.mkdir(parents=True, exist_ok=True)
        port = free_port() if role == "web" else None
        env = {**os.environ, **self.env, "SPOTTER_VAR_DIR": str(box)}
        if port is not None:
            env["PORT"] = str(port)
        log = box / f"{role}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                ["bash", "bin/serve", role],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                process_group=0,
            )
        started = Role(name=name, proc=proc, log=log, port=port)
        self.roles.append(started)
        return started

    def wait_until_serving(self, web: Role, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if web.proc.poll() is not None:
                raise RuntimeError(f"{web.name} exited\n{web.tail()}")
            try:
                if httpx.get(web.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{web.name} did not answer in {timeout} s\n{web.tail()}")

    def stop_all(self) -> None:
        for role in reversed(self.roles):
            role.stop()


def cluster_env(*, redis_url: str, secret_key: str, llm_base_url: str) -> dict[str, str]:
    """What every box is given: the production settings, the one database and the one Redis, the
    model (the fake server, streaming), and short recovery times so a killed worker's replies come
    back within the test."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": secret_key,
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SSL_REDIRECT": "0",
        "SPOTTER_MIGRATE": "0",  # the test database is migrated
        "HOST": "127.0.0.1",
        "WEB_CONCURRENCY": "1",
        "ACCESS_LOG": "0",
        "LOG_FORMAT": "text",
        "LOG_LEVEL": "INFO",
        "AGENT_CONCURRENCY": "8",
        "DATABASE_POOL_MAX_SIZE": "8",  # four processes on one PostgreSQL
        "LLM_PROVIDER": "openai",
        "LLM_BASE_URL": llm_base_url,
        "LLM_API_KEY": "test-key",
        "LLM_MODEL": "fake-model",
        "CHAT_STREAMING": "1",
        # A killed worker: its task comes back from Redis after the visibility timeout, and the
        # sweep (every AGENT_RECOVERY_INTERVAL s) re-sends or restarts what is still lost.
        "CELERY_VISIBILITY_TIMEOUT": "10",
        "AGENT_TURN_TIMEOUT": "8",
        "AGENT_TURN_DEADLINE": "12",
        "AGENT_QUEUE_GRACE": "8",
        "AGENT_RECOVERY_INTERVAL": "2",
    }
