"""Requests per second of the production server, page by page, against a trivial view.

    manage.py bench_http                       # a throwaway SQLite database
    manage.py bench_http --database-url postgres://postgres@127.0.0.1:5432/postgres

Starts ``gunicorn`` exactly as ``bin/serve`` does (uvicorn workers, ``config.asgi``,
``config.settings.production``) on a free loopback port, against a throwaway database (a SQLite
file in a temporary folder, or a fresh database on the PostgreSQL server named by
``--database-url``, dropped afterwards) and a private embedded Redis (no worker runs: queued turns
just wait). It seeds a demo athlete (an 8-week program and a conversation with a pending reply),
logs in through the login form, and ``--writers`` more athletes, each with a pending batch of
changes (proposed by the offline coach). Then, with ``--connections`` concurrent keep-alive
connections, it drives each endpoint for ``--requests`` requests (posting and Apply: one per
writer athlete, each request a fresh message or batch) and prints requests per second, p50 and
p99, and the ratio to ``GET /healthz``.

**The baseline.** ``GET /healthz`` is the trivial view: a plain Django view behind the same
middleware stack as every page (security, whitenoise, sessions, common, CSRF, auth, messages,
clickjacking, htmx) that reads no session, no user and no table. It stays the baseline, as the
issue defines it ("a bare Django view"): a logged-in trivial view would hide the session and user
reads every page pays, and they are part of what a page costs. This machine is shared, so the
load around a run changes from one second to the next: each endpoint is measured between two
half-runs of the trivial view (the same number of requests in all), and its ratio is to those
two, not to a figure taken a minute earlier. ``server ms`` is the CPU time the gunicorn workers
spent per request (user + system, from ``/proc``), which the machine's other load hardly moves:
read it beside the ratios.

Apply sends ``program_version`` as the page does (the card includes ``#program-version``); the
program changes, so the panel is sent anyway.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config import embedded_redis

from ._bench_http_figures import Figures, Workers, combined
from ._bench_http_seed import seed


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Command(BaseCommand):
    help = "Requests per second of each chat endpoint under gunicorn, and the ratio to /healthz."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--connections", type=int, default=8)
        parser.add_argument("--requests", type=int, default=400, help="per read endpoint")
        parser.add_argument("--writers", type=int, default=120, help="posts and applies each")
        parser.add_argument("--web-concurrency", type=int, default=2, help="gunicorn workers")
        parser.add_argument("--database-url", default="", help="a PostgreSQL server to use")
        parser.add_argument(
            "--seed-into", default="", help="(internal) seed, then write the ids here"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["seed_into"]:  # the seeding half, run in the throwaway environment
            Path(options["seed_into"]).write_text(json.dumps(seed(writers=options["writers"])))
            return
        if not 1 <= options["connections"] <= 64 or options["requests"] < 10:
            raise CommandError("--connections must be 1..64 and --requests at least 10")
        with tempfile.TemporaryDirectory(prefix="spotter-bench-http-") as tmp:
            var_dir = Path(tmp)
            redis = embedded_redis.start(var_dir, persist=False, stdout=subprocess.DEVNULL)
            db_url, drop = self._database(options["database_url"], var_dir)
            try:
                env = self._environment(var_dir, db_url)
                self._run(env, var_dir, options)
            finally:
                redis.terminate()
                redis.wait(timeout=10)
                drop()

    # --- environment ------------------------------------------------------------------------

    @staticmethod
    def _database(server_url: str, var_dir: Path):
        if not server_url:
            return f"sqlite:///{var_dir / 'bench.sqlite3'}", lambda: None
        name = f"bench_http_{uuid.uuid4().hex[:10]}"
        admin = server_url.replace("postgres://", "postgresql://", 1)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop() -> None:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        return server_url.rsplit("/", 1)[0] + f"/{name}", drop

    @staticmethod
    def _environment(var_dir: Path, db_url: str) -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_"))}
        return {
            **keep,
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SSL_REDIRECT": "0",  # plain HTTP on loopback: no proxy in front
            "DATABASE_URL": db_url,
            "REDIS_URL": embedded_redis.broker_url(var_dir),
            "SPOTTER_VAR_DIR": str(var_dir),
            "LLM_PROVIDER": "offline",
            "ACCESS_LOG": "0",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }

    def _run(self, env: dict[str, str], var_dir: Path, options: dict[str, Any]) -> None:
        manage = [sys.executable, "manage.py"]
        cwd = Path(settings.BASE_DIR)
        for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([*manage, *step, "-v", "0"], cwd=cwd, env=env, check=True)
        seeded_file = var_dir / "seeded.json"
        subprocess.run(
            [
                *manage,
                "bench_http",
                "--writers",
                str(options["writers"]),
                "--seed-into",
                str(seeded_file),
            ],
            cwd=cwd,
            env={**env, "CELERY_TASK_ALWAYS_EAGER": "1"},
            check=True,
        )
        seeded = json.loads(seeded_file.read_text())
        port = _free_port()
        server_env = {
            **env,
            "PORT": str(port),
            "HOST": "127.0.0.1",
            "WEB_CONCURRENCY": str(options["web_concurrency"]),
        }
        log = (var_dir / "gunicorn.log").open("wb")
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--config",
                "python:config.gunicorn",
                "config.asgi:application",
            ],
            cwd=cwd,
            env=server_env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            self._wait_up(base, server, var_dir)
            self._drive(base, seeded, options, env, Workers(server.pid))
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()

    @staticmethod
    def _wait_up(base: str, server: subprocess.Popen, var_dir: Path) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if server.poll() is not None:
                break
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise CommandError(
            "gunicorn did not come up:\n" + (var_dir / "gunicorn.log").read_text()[-3000:]
        )

    # --- load -----------------------------------------------------------------------------

    def _login(self, base: str, username: str, password: str) -> dict[str, str]:
        """The login form, as a browser submits it; returns the cookies it set."""
        with httpx.Client(base_url=base, timeout=60) as client:  # password hashing is slow
            page = client.get("/accounts/login/")
            csrf = page.cookies["csrftoken"]
            token = page.text.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
            done = client.post(
                "/accounts/login/",
                data={"username": username, "password": password, "csrfmiddlewaretoken": token},
                headers={"Cookie": f"csrftoken={csrf}"},
            )
            if done.status_code != 302 or "sessionid" not in done.cookies:
                raise CommandError(f"login failed: HTTP {done.status_code}")
            return {"sessionid": done.cookies["sessionid"], "csrftoken": csrf}

    def _drive(self, base: str, seeded: dict, options: dict, env: dict, workers: Workers) -> None:
        logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line a request
        main = self._login(base, seeded["username"], seeded["password"])
        n = options["requests"]
        htmx = {"HX-Request": "true"}

        def as_user(cookies: dict[str, str]) -> dict[str, str]:
            cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
            return {"Cookie": cookie, "X-CSRFToken": cookies["csrftoken"], **htmx}

        writers = seeded["writers"]
        poll = f"/messages/{seeded['pending_message']}/"
        # What every open page asks every CHAT_FEED_SECONDS: the session, the user, one query and
        # a 204. The lightest real signed-in request, so its row shows what any page starts from.
        feed = f"/conversations/{seeded['conversation']}/feed/?after={seeded['pending_message']}"
        plans: list[tuple[str, list[tuple[str, str, dict, dict]]]] = [
            ("GET /healthz (trivial)", [("GET", "/healthz", {}, {})] * n),
            ("GET feed (nothing new)", [("GET", feed, as_user(main), {})] * n),
            ("GET /", [("GET", "/", {"Cookie": as_user(main)["Cookie"]}, {})] * n),
            ("GET thinking poll", [("GET", poll, as_user(main), {})] * n),
            (
                "POST message",
                [
                    (
                        "POST",
                        f"/conversations/{w['conversation']}/messages/",
                        as_user(w["cookies"]),
                        {"text": "How should my squat feel this week?"},
                    )
                    for w in writers
                ],
            ),
            (
                "POST Apply",
                [
                    (
                        "POST",
                        f"/batches/{w['batch']}/apply/",
                        as_user(w["cookies"]),
                        {"revision": str(w["revision"]), "program_version": str(w["version"])},
                    )
                    for w in writers
                ],
            ),
        ]
        answer = httpx.get(f"{base}{feed}", headers=as_user(main), timeout=60)
        if answer.status_code != 204:  # the row is meant to measure "nothing new"
            raise CommandError(f"the feed answered {answer.status_code}, not 204")
        trivial_name, trivial = plans[0]
        self._load(base, trivial[:50] + plans[1][1][:30], options, workers)  # warm
        rows = []
        for name, requests in plans[1:]:
            # The trivial view just before and just after: the same machine load around both.
            half = len(trivial) // 2
            before = self._load(base, trivial[:half], options, workers)
            measured = self._load(base, requests, options, workers)
            after = self._load(base, trivial[half:], options, workers)
            rows.append((name, measured, combined(before, after)))
        self._table(trivial_name, rows, options, env)

    def _load(self, base: str, requests: list, options: dict, workers: Workers) -> Figures:
        """Send ``requests`` over ``--connections`` keep-alive connections; rate, latency and the
        workers' CPU time."""
        local = threading.local()
        clients: list[httpx.Client] = []
        lock = threading.Lock()

        def client() -> httpx.Client:
            if not hasattr(local, "client"):
                local.client = httpx.Client(base_url=base, timeout=60)
                with lock:
                    clients.append(local.client)
            return local.client

        def one(request: tuple[str, str, dict, dict]) -> tuple[float, int]:
            method, path, headers, data = request
            started = time.perf_counter()
            response = client().request(method, path, headers=headers, data=data or None)
            return time.perf_counter() - started, response.status_code

        cpu = workers.cpu_seconds()
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=options["connections"]) as pool:
            results = list(pool.map(one, requests))
        elapsed = time.perf_counter() - started
        cpu = workers.cpu_seconds() - cpu
        for each in clients:
            each.close()
        return Figures(
            elapsed=elapsed,
            latencies=[r[0] * 1000 for r in results],
            errors=sum(1 for r in results if r[1] >= 400),
            cpu=cpu,
        )

    def _table(self, trivial_name: str, rows: list, options: dict, env: dict) -> None:
        vendor = "postgresql" if env["DATABASE_URL"].startswith("postgres") else "sqlite"
        self.stdout.write(
            f"gunicorn + uvicorn workers × {options['web_concurrency']}, "
            f"{options['connections']} connections, {vendor}, production settings"
        )
        self.stdout.write(
            f"  {'endpoint':<22} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} "
            f"{'server ms':>9} {'trivial req/s':>13} {'trivial server ms':>17} "
            f"{'× trivial':>9} {'errors':>6}"
        )
        everything = rows[0][2]
        for _, _, trivial in rows[1:]:
            everything = combined(everything, trivial)
        ratios = []
        for name, measured, trivial in [(trivial_name, everything, everything), *rows]:
            ratio = measured.rate / trivial.rate
            if measured is not trivial:
                ratios.append(ratio)
            self.stdout.write(
                f"  {name:<22} {measured.count:>8} {measured.rate:>7.1f} {measured.p50:>7.1f} "
                f"{measured.p99:>7.1f} {measured.cpu_ms:>9.2f} {trivial.rate:>13.1f} "
                f"{trivial.cpu_ms:>17.2f} {ratio:>9.2f} {measured.errors:>6}"
            )
        self.stdout.write(
            f"  (the trivial view: {options['requests']} requests around each endpoint, half "
            f"before, half after; its row is all of them; server ms = the workers' CPU time a "
            f"request)"
        )
        self.stdout.write(
            f"  lowest ratio {min(ratios):.2f}, median {statistics.median(ratios):.2f}"
        )
