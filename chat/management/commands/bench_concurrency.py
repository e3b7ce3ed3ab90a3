"""Many athletes at once through the real parts: the broker, one threads-pool worker process and
a slow fake model over HTTP (``coach.llm.fake_server`` with ``default_delay``).

    manage.py bench_concurrency                                  # 50 athletes post at once, 2 s model
    manage.py bench_concurrency --messages 5 --delay 1           # the stress run: 50 × 5, 1 s model

Every athlete posts at the same moment (a barrier), then each posts its next message when its
reply arrives. Latency of a reply: the athlete's message saved → the reply saved, both stamped by
the database's clock. Prints median, p95 and max, and the replies received, lost (failed or
missing at the end) and duplicated (more than one reply to one message), the model calls, and the
most database connections the worker process held at one moment during the burst (PostgreSQL:
``pg_stat_activity`` rows whose client port is one of the worker's sockets; SQLite: its open
handles on the database file).

Without ``REDIS_URL`` it starts a private embedded Redis (not the one ``bin/run`` serves). Runs on
the configured database (migrating it first) and deletes the athletes it created.
"""

from __future__ import annotations

import os
import statistics
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection
from django.db.models import Count

from chat.models import Message
from chat.services import conversation_for_athlete, message_send
from coach.llm.fake_server import FakeLLMServer
from coach.plan import plan
from config.workers import worker_on_a_broker

DONE = (Message.Status.COMPLETE, Message.Status.FAILED)


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def _socket_ports(pid: int) -> set[int]:
    """The local TCP ports of process ``pid``'s sockets (Linux /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(fd) if fd.is_symlink() else ""
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def worker_connections(pid: int) -> int:
    """Database connections process ``pid`` holds now."""
    try:
        if connection.vendor == "sqlite":
            database = Path(connection.settings_dict["NAME"]).resolve()
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
            return sum(1 for fd in fds if Path(os.path.realpath(fd)) == database)
        ports = _socket_ports(pid)
    except OSError:  # the process is gone, or a descriptor closed while we looked
        return 0
    if not ports:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND client_port = ANY(%s)",
            [sorted(ports)],
        )
        return cursor.fetchone()[0]


class Command(BaseCommand):
    help = "N athletes post at once against a slow fake model: reply latency, lost, duplicated."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--athletes", type=int, default=50)
        parser.add_argument("--messages", type=int, default=1, help="messages per athlete")
        parser.add_argument("--delay", type=float, default=2.0, help="seconds the model takes")
        parser.add_argument(
            "--concurrency", type=int, default=None, help="worker threads (AGENT_CONCURRENCY)"
        )
        parser.add_argument("--timeout", type=float, default=180.0, help="seconds per reply")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["athletes"] < 1 or options["messages"] < 1:
            raise SystemExit("--athletes and --messages must be at least 1")
        call_command("migrate", verbosity=0)
        tag = uuid.uuid4().hex[:8]
        users = get_user_model().objects
        athletes = [users.create(username=f"bench-{tag}-{i}") for i in range(options["athletes"])]
        try:
            conversations = []
            for athlete in athletes:
                plan().bulk(athlete=athlete, weeks=4, sessions=3, exercises=5)
                conversations.append(conversation_for_athlete(athlete=athlete))
            concurrency = options["concurrency"] or settings.AGENT_CONCURRENCY
            with (
                FakeLLMServer(
                    default_text="OK.\n---\nThanks", default_delay=options["delay"]
                ) as fake,
                worker_on_a_broker(
                    env={"LLM_PROVIDER": "openai", "LLM_BASE_URL": fake.base_url},
                    concurrency=concurrency,
                ) as (worker, log),
            ):
                self._wait(message_send(conversation=conversations[0], text="Warm up")[1], 60)
                warmup_calls = len(fake.requests)
                started = time.monotonic()
                peak = {"connections": 0}
                results = self._burst(
                    conversations, options["messages"], options["timeout"], worker.pid, peak
                )
                elapsed = time.monotonic() - started
                time.sleep(2)  # a late duplicate would show up now
                calls = len(fake.requests) - warmup_calls
                worker_errors = [line for line in log.read_text().splitlines() if "ERROR" in line][
                    -5:
                ]
            self._report(conversations, results, options, concurrency, elapsed, calls)
            self.stdout.write(
                f"  database connections held by the worker: at most {peak['connections']} "
                f"at one moment ({concurrency} threads)"
            )
            for line in worker_errors:
                self.stdout.write(f"  worker: {line[:300]}")
        finally:
            users.filter(pk__in=[a.pk for a in athletes]).delete()

    def _burst(
        self, conversations: list, messages: int, timeout: float, worker_pid: int, peak: dict
    ) -> list[dict]:
        """Each athlete's thread posts (a web request: its connection is closed at once), then
        waits for one monitor that polls every open placeholder in one query, so the benchmark
        itself holds two database connections, not one an athlete."""
        barrier = threading.Barrier(len(conversations))
        results: list[dict] = []
        waiting: dict[int, tuple[Any, threading.Event, dict]] = {}
        lock = threading.Lock()
        finished = threading.Event()

        def athlete(index: int, conversation) -> None:
            barrier.wait()
            for k in range(messages):
                try:
                    user, placeholder = message_send(
                        conversation=conversation, text=f"Question {k} from athlete {index}?"
                    )
                finally:
                    connection.close()
                arrived, outcome = threading.Event(), {}
                with lock:
                    waiting[placeholder.pk] = (user, arrived, outcome)
                arrived.wait(timeout)
                with lock:
                    waiting.pop(placeholder.pk, None)
                    results.append(outcome or {"status": "missing", "latency": None})

        def monitor() -> None:
            try:
                while not finished.is_set():
                    with lock:
                        open_ids = list(waiting)
                    rows = Message.objects.filter(pk__in=open_ids, status__in=DONE).values(
                        "pk", "status", "started_at", "finished_at"
                    )
                    for row in rows:
                        with lock:
                            entry = waiting.get(row["pk"])
                        if entry is None or entry[1].is_set():
                            continue  # seen by an earlier round of this loop
                        user, arrived, outcome = entry
                        outcome["status"] = row["status"]
                        outcome["latency"] = None
                        if row["status"] == Message.Status.COMPLETE:
                            seconds = (row["finished_at"] - user.created_at).total_seconds()
                            outcome["latency"] = seconds
                            outcome["queued"] = (
                                row["started_at"] - user.created_at
                            ).total_seconds()
                        arrived.set()
                    peak["connections"] = max(peak["connections"], worker_connections(worker_pid))
                    time.sleep(0.05)
            finally:
                connection.close()

        watcher = threading.Thread(target=monitor)
        watcher.start()
        threads = [
            threading.Thread(target=athlete, args=(i, c)) for i, c in enumerate(conversations)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        finished.set()
        watcher.join()
        return results

    @staticmethod
    def _wait(placeholder: Message, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            row = Message.objects.filter(pk=placeholder.pk).values("status").get()
            if row["status"] in DONE or time.monotonic() > deadline:
                return row
            time.sleep(0.05)

    def _report(self, conversations, results, options, concurrency, elapsed, calls) -> None:
        sent = options["athletes"] * options["messages"]
        latencies = [r["latency"] for r in results if r["latency"] is not None]
        failed = sum(1 for r in results if r["status"] == Message.Status.FAILED)
        missing = sum(1 for r in results if r["status"] not in DONE)
        duplicated = (
            Message.objects.filter(conversation__in=conversations, role=Message.Role.ASSISTANT)
            .exclude(reply_to=None)
            .values("reply_to")
            .annotate(replies=Count("id"))
            .filter(replies__gt=1)
            .count()
        )
        broker = "redis" if settings.REDIS_URL else "embedded Redis (unix socket)"
        self.stdout.write(
            f"{options['athletes']} athletes × {options['messages']} messages, model "
            f"{options['delay']:.1f} s, one worker process: threads pool × {concurrency}, "
            f"{connection.vendor}, {broker}; {elapsed:.1f} s in all"
        )
        if latencies:
            queued = [r["queued"] for r in results if r.get("queued") is not None]
            self.stdout.write(
                f"  reply latency: median {statistics.median(latencies):.2f} s   "
                f"p95 {percentile(latencies, 95):.2f} s   max {max(latencies):.2f} s   "
                f"(of which before the turn started: median {statistics.median(queued):.2f} s, "
                f"max {max(queued):.2f} s)"
            )
        self.stdout.write(
            f"  sent {sent}   replies received {len(latencies)}   lost {failed + missing} "
            f"(failed {failed}, missing {missing})   duplicated {duplicated}   "
            f"model calls {calls}"
        )
