"""What serving costs: each endpoint's CPU served against the same request in-process, and capacity.

    manage.py bench_http                          # a throwaway SQLite database
    manage.py bench_http --database-url postgres://postgres@127.0.0.1:5432/postgres
    manage.py bench_http --designs split,asgi --mix   # + how many active athletes a box holds

Each serving design (``_bench_http_servers``: ``split`` is what ``bin/serve`` runs) is started
with production settings and ``bin/serve``'s worker count on a free loopback port, against a
throwaway database (a SQLite file, or a fresh database on ``--database-url``'s PostgreSQL server,
dropped afterwards) and a private embedded Redis (no Celery worker: queued turns wait). Every
endpoint is driven over ``--connections`` keep-alive connections by a raw asyncio client whose own
CPU a request is printed (it must stay far below the server's). The designs are interleaved,
``--rounds`` times, in a different order each round.

**The figures.** ``served`` is the CPU time (user + system, from ``/proc``) of the server's
processes a request; the machine's other load hardly moves it, unlike requests per second.
``in-process`` is the same request (same database, same settings, same session) through Django's
WSGI handler called directly in one process: the view and the middleware, nothing of a server.
``efficiency`` = in-process ÷ served (1.0: serving adds nothing). Medians over the rounds.
``--mix`` then runs the capacity test (``_bench_http_mix``) on each design.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config import embedded_redis

from . import _bench_http_box
from ._bench_http_capacity import run_capacity
from ._bench_http_client import Request, quantile, run_batch
from ._bench_http_mix import ACTIONS
from ._bench_http_plans import ENDPOINTS, POSTS, in_process, requests_for
from ._bench_http_seed import seed
from ._bench_http_servers import CANDIDATES, ProcessTree, command


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Command(BaseCommand):
    help = "Served CPU per request against in-process, per endpoint and design; capacity (--mix)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--designs", default="split,asgi,gthread,granian")
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--connections", type=int, default=8)
        parser.add_argument("--requests", type=int, default=300, help="per read endpoint")
        parser.add_argument("--writers", type=int, default=40, help="posts and applies each")
        parser.add_argument(
            "--web-concurrency", type=int, default=2 * (os.cpu_count() or 1), help="workers"
        )
        parser.add_argument("--database-url", default="", help="a PostgreSQL server to use")
        parser.add_argument("--mix", action="store_true", help="run the capacity test too")
        parser.add_argument("--mix-only", action="store_true", help="only the capacity test")
        parser.add_argument("--mix-steps", default="250,500,1000,1500,2000,2500,3000")
        parser.add_argument("--mix-seconds", type=float, default=30.0, help="measured, a step")
        parser.add_argument("--mix-warmup", type=float, default=10.0, help="unmeasured, a step")
        parser.add_argument("--mix-accounts", type=int, default=200)
        parser.add_argument(
            "--mix-actions",
            default=",".join(f"{kind}:{n}" for kind, n in ACTIONS),
            help="per athlete a minute; a part of it shows what one kind costs ('a;b': each)",
        )
        parser.add_argument(
            "--mix-worker-concurrency", type=int, default=64, help="0: no Celery worker"
        )
        parser.add_argument("--seed-into", default="", help="(internal)")
        parser.add_argument("--in-process-into", default="", help="(internal)")

    def handle(self, *args: Any, **options: Any) -> None:
        designs = [d for d in options["designs"].split(",") if d]
        if options["seed_into"]:  # the seeding half, run in the throwaway environment
            data = seed(writers=options["writers"], athletes=options["mix_accounts"])
            Path(options["seed_into"]).write_text(json.dumps(data))
            return
        if options["in_process_into"]:
            self._in_process(Path(options["in_process_into"]), options)
            return
        unknown = sorted(set(designs) - set(CANDIDATES))
        if unknown or not designs:
            raise CommandError(f"unknown designs {unknown}; choose from {sorted(CANDIDATES)}")
        if not 1 <= options["connections"] <= 64 or options["requests"] < 10:
            raise CommandError("--connections must be 1..64 and --requests at least 10")
        with tempfile.TemporaryDirectory(prefix="spotter-bench-http-") as tmp:
            var_dir = Path(tmp)
            redis = embedded_redis.start(var_dir, persist=False, stdout=subprocess.DEVNULL)
            db_url, drop = self._database(options["database_url"], var_dir)
            try:
                env = self._environment(var_dir, db_url)
                options["redis_pid"] = redis.pid
                self._run(env, var_dir, designs, options)
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
            # The mix's athletes share accounts: one account's limits would refuse them.
            "CHAT_RATE_LIMIT_PER_MINUTE": "1000000",
            "CHAT_STREAMS_PER_ACCOUNT": "1000000",
        }

    def _groups(self, designs: list[str], options: dict) -> int:
        return 0 if options["mix_only"] else 1 + len(designs) * options["rounds"]

    def _run(self, env: dict, var_dir: Path, designs: list[str], options: dict) -> None:
        manage = [sys.executable, "manage.py"]
        cwd = Path(settings.BASE_DIR)
        for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([*manage, *step, "-v", "0"], cwd=cwd, env=env, check=True)
        seeded_file = var_dir / "seeded.json"
        groups = self._groups(designs, options)
        accounts = options["mix_accounts"] if (options["mix"] or options["mix_only"]) else 0
        started = time.monotonic()
        subprocess.run(
            [
                *manage,
                "bench_http",
                f"--writers={groups * options['writers']}",
                f"--mix-accounts={accounts}",
                f"--seed-into={seeded_file}",
            ],
            cwd=cwd,
            env={**env, "CELERY_TASK_ALWAYS_EAGER": "1"},
            check=True,
        )
        seeded = json.loads(seeded_file.read_text())
        self.stdout.write(f"seeded in {time.monotonic() - started:.0f} s")
        vendor = "postgresql" if env["DATABASE_URL"].startswith("postgres") else "sqlite"
        if not options["mix_only"]:
            floor = self._measure_in_process(env, seeded, var_dir, options)
            served = self._endpoints(env, var_dir, seeded, designs, options)
            self._table(vendor, designs, floor, served, options)
        if options["mix"] or options["mix_only"]:
            for design in designs:
                for mix in options["mix_actions"].split(";"):
                    self._capacity(
                        env, var_dir, seeded, design, vendor, {**options, "mix_set": mix}
                    )

    def _writers(self, seeded: dict, group: int, options: dict) -> list[dict]:
        size = options["writers"]
        return seeded["writers"][group * size : (group + 1) * size]

    def _plans(self, seeded: dict, group: int, options: dict) -> dict[str, list[Request]]:
        writers = self._writers(seeded, group, options)
        # The lightest endpoints get more requests: /proc counts CPU in ticks of 10 ms.
        more = {"trivial view": 5, "feed": 2, "poll": 2}
        return {
            name: requests_for(
                name, seeded, count=options["requests"] * more.get(name, 1), writers=writers
            )
            for name in ENDPOINTS
        }

    def _measure_in_process(self, env, seeded, var_dir: Path, options) -> dict[str, float]:
        out = var_dir / "in_process.json"
        (var_dir / "seeded-in.json").write_text(json.dumps(seeded))
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "bench_http",
                f"--in-process-into={out}",
                f"--requests={options['requests']}",
                f"--writers={options['writers']}",
                f"--rounds={options['rounds']}",
            ],
            cwd=Path(settings.BASE_DIR),
            env={**env, "SPOTTER_BENCH_SEEDED": str(var_dir / "seeded-in.json")},
            check=True,
        )
        return json.loads(out.read_text())

    def _in_process(self, out: Path, options: dict) -> None:
        seeded = json.loads(Path(os.environ["SPOTTER_BENCH_SEEDED"]).read_text())
        figures = in_process(self._plans(seeded, 0, options), rounds=options["rounds"])
        out.write_text(json.dumps(figures))

    # --- served -----------------------------------------------------------------------------

    def _start(self, design: str, env: dict, var_dir: Path, options: dict):
        port = _free_port()
        server_env = {
            **env,
            "PORT": str(port),
            "HOST": "127.0.0.1",
            "WEB_CONCURRENCY": str(options["web_concurrency"]),
        }
        log = (var_dir / f"{design}.log").open("ab")
        cmd = command(design, port=port, workers=options["web_concurrency"])
        proc = subprocess.Popen(
            cmd, cwd=settings.BASE_DIR, env=server_env, stdout=log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:
            results, _, _ = run_batch(port, [Request("GET", "/healthz")], 1)
            if results.statuses.get(200):
                # Every worker up: a burst wide enough to reach each of them.
                run_batch(port, [Request("GET", "/healthz")] * 200, 16)
                return proc, port, log
            time.sleep(0.2)
        proc.kill()
        raise CommandError(
            f"{design} did not come up:\n" + (var_dir / f"{design}.log").read_text()[-3000:]
        )

    @staticmethod
    def _stop(proc, log) -> None:
        _bench_http_box.stop(proc)
        log.close()

    def _endpoints(self, env, var_dir, seeded, designs, options) -> dict:
        """{design: {endpoint: [(served ms, p50, p99, errors, client ms), ...per round]}}"""
        served: dict = {d: {e: [] for e in ENDPOINTS} for d in designs}
        group = 1
        for round_no in range(options["rounds"]):
            order = designs[round_no % len(designs) :] + designs[: round_no % len(designs)]
            for design in order:
                proc, port, log = self._start(design, env, var_dir, options)
                tree = ProcessTree(proc.pid)
                try:
                    plans = self._plans(seeded, group, options)
                    group += 1
                    for name in ENDPOINTS:  # warm each endpoint's templates and connections
                        if name not in POSTS:
                            run_batch(port, plans[name][:40], options["connections"])
                    for name in ENDPOINTS:
                        cpu = tree.cpu_seconds()
                        results, _, client = run_batch(port, plans[name], options["connections"])
                        cpu = tree.cpu_seconds() - cpu
                        count = max(1, len(results.latencies))
                        served[design][name].append(
                            (
                                cpu * 1000 / count,
                                quantile(results.latencies or [0], 0.5),
                                quantile(results.latencies or [0], 0.99),
                                results.errors,
                                client * 1000 / count,
                            )
                        )
                finally:
                    self._stop(proc, log)
                self.stdout.write(f"  round {round_no + 1}: {design} done")
        return served

    def _table(self, vendor, designs, floor, served, options) -> None:
        w = options["web_concurrency"]
        self.stdout.write(
            f"\n{vendor}, {w} workers, {options['connections']} connections, "
            f"{options['rounds']} rounds (medians); ms = CPU a request; eff = in-process ÷ served"
        )
        head = f"  {'endpoint':<13} {'in-process':>10}"
        for design in designs:
            head += f" | {design:>12} {'eff':>4} {'p50':>5} {'p99':>6}"
        self.stdout.write(head)
        client_ms, lowest = [], {d: 9.9 for d in designs}
        for name in ENDPOINTS:
            line = f"  {name:<13} {floor[name]:>10.2f}"
            for design in designs:
                rows = served[design][name]
                ms = statistics.median(r[0] for r in rows)
                eff = floor[name] / ms if ms else 0.0
                lowest[design] = min(lowest[design], eff)
                errors = sum(r[3] for r in rows)
                client_ms += [r[4] for r in rows]
                line += (
                    f" | {ms:>12.2f} {eff:>4.2f} {statistics.median(r[1] for r in rows):>5.1f} "
                    f"{statistics.median(r[2] for r in rows):>6.1f}"
                ) + (f" ({errors} errors)" if errors else "")
            self.stdout.write(line)
        self.stdout.write(
            "  lowest efficiency: "
            + ", ".join(f"{d} {lowest[d]:.2f}" for d in designs)
            + f"; the client's own CPU: median {statistics.median(client_ms):.3f} ms a request"
        )

    # --- capacity (``_bench_http_capacity``) -------------------------------------------------

    def _capacity(self, env, var_dir, seeded, design, vendor, options) -> None:
        run_capacity(self, env, var_dir, seeded, design, vendor, options)
