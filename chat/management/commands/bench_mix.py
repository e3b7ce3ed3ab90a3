"""What one active athlete costs the web process in a minute of issue 23's mix, measured in-process.

    manage.py bench_mix [--repeat 30] [--streams 3] [--reply-seconds 10] [--profile page]

The mix, per active athlete per minute: 3 page loads, 2 posts each followed by its reply stream
(a reply that takes ``--reply-seconds``: nothing for the first half, the model thinking, then its
text in 20 pieces, then it is saved), 3
polls of the feed. When the page asks for the plan's offer on its own (it did before issue 23:
``hx-get`` on load and after every swap) the mix adds that request after each page load and each
reply, as the issue counted it.

Each request goes through Django's whole handler and middleware in this process (the test
client), so the figures are the views' own cost, without a server: CPU milliseconds of the thread
that served it (``time.thread_time``) and its SQL queries. A stream is served on the request's
thread (the WSGI path, whose database checks are the ASGI path's) while another thread publishes
the reply to Redis; its CPU and queries are counted from its opening to its final event, and
``while waiting`` counts the queries of the first half, between the opening check and the first
piece.

``--profile NAME`` (page, offer, feed, post, or reply: a message and the worker's run of its reply
by the offline coach) then runs that request ``--repeat`` times more
under cProfile (CPU time) and prints the functions that took the most CPU, with their calls, and
with ``--callees REGEX`` what the functions matching it called.

It runs on a throwaway database (Django's test database for the configured one: SQLite in memory,
or ``test_<name>`` on PostgreSQL, destroyed afterwards) and a private embedded Redis. Run it on
two checkouts to compare designs (the figures of issue 23 are in docs/scaling.md).
"""

from __future__ import annotations

import cProfile
import datetime
import io
import pstats
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext, setup_test_environment
from django.urls import reverse
from django.utils import timezone

from chat import stream
from chat.models import Message
from chat.services import conversation_for_athlete, message_send
from coach.plan import plan
from config import embedded_redis
from config.celery import app as celery_app

HTMX = {"HX-Request": "true"}
PIECES = 20
QUESTION = "How should my squat feel this week?"  # what the capacity mix's athletes ask


class Cost:
    def __init__(self) -> None:
        self.cpu_ms: list[float] = []
        self.queries: list[int] = []

    def add(self, cpu_seconds: float, queries: int) -> None:
        self.cpu_ms.append(cpu_seconds * 1000)
        self.queries.append(queries)

    @property
    def ms(self) -> float:
        return statistics.median(self.cpu_ms)

    @property
    def per_request_queries(self) -> float:
        return statistics.median(self.queries)


def _measured(call) -> tuple[object, float, int]:
    with CaptureQueriesContext(connection) as queries:
        started = time.thread_time()
        result = call()
        spent = time.thread_time() - started
    return result, spent, len(queries.captured_queries)


class Command(BaseCommand):
    help = "In-process CPU and queries of one active athlete-minute of issue 23's mix."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--repeat", type=int, default=30)
        parser.add_argument("--streams", type=int, default=3)
        parser.add_argument("--reply-seconds", type=float, default=10.0)
        parser.add_argument(
            "--profile", choices=["page", "offer", "feed", "post", "reply"], default=""
        )
        parser.add_argument("--callees", default="", help="with --profile: a regex of functions")

    def handle(
        self, *args, repeat: int, streams: int, reply_seconds: float, profile: str, **options
    ) -> None:
        self.profile, self.callees = profile, options["callees"]
        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        with tempfile.TemporaryDirectory() as tmp:
            redis_proc = embedded_redis.start(
                Path(tmp), persist=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
            )
            try:
                with override_settings(
                    CHAT_STREAMING=True,
                    CHAT_STREAM_REDIS_URL=f"unix://{embedded_redis.socket_path(Path(tmp))}",
                    CHAT_RATE_LIMIT_PER_MINUTE=10**6,
                    CHAT_STREAM_MAX_SECONDS=reply_seconds + 30,
                ):
                    self._run(Path(tmp), repeat, streams, reply_seconds)
            finally:
                redis_proc.terminate()
                redis_proc.wait(timeout=10)
                connection.creation.destroy_test_db(old_name, verbosity=0)

    def _run(self, tmp: Path, repeat: int, streams: int, reply_seconds: float) -> None:
        athlete = get_user_model().objects.create_user(username="bench-mix-athlete")
        today = timezone.localdate()
        monday = today - datetime.timedelta(days=today.weekday())
        plan().bulk(athlete=athlete, weeks=8, sessions=4, exercises=6, start_date=monday)
        conversation = conversation_for_athlete(athlete=athlete)
        celery_app.conf.task_always_eager = True  # the offline coach answers the history here
        for text in ("help", "What is on today?", "How heavy should my squat be?"):
            message_send(conversation=conversation, text=text)
        # Posts are queued on the embedded Redis, where no worker takes them (the worker's cost
        # is not the web's).
        celery_app.conf.update(task_always_eager=False, broker_url=embedded_redis.broker_url(tmp))
        celery_app.close()  # the connection pool of the old broker's address goes with it
        client = Client()
        client.force_login(athlete)
        page_html = client.get("/").content.decode()
        asks_for_offer = 'hx-get="/plan/offer/"' in page_html
        costs = {name: Cost() for name in ("page", "offer", "post", "feed")}
        feed_url = reverse("chat:message_feed", args=[conversation.pk])
        post_url = reverse("chat:message_send", args=[conversation.pk])
        calls = (
            ("page", lambda: client.get("/")),
            ("offer", lambda: client.get(reverse("chat:plan_offer"), headers=HTMX)),
            ("feed", lambda: client.get(f"{feed_url}?after=0", headers=HTMX)),
            ("post", lambda: client.post(post_url, {"text": QUESTION}, headers=HTMX)),
        )
        for _ in range(repeat):
            for name, call in calls:
                response, cpu, queries = _measured(call)
                assert response.status_code in (200, 204), (name, response.status_code)
                costs[name].add(cpu, queries)
        if self.profile == "reply":  # the worker's part: a post and its reply, run here
            celery_app.conf.task_always_eager = True
            self._profile(lambda: message_send(conversation=conversation, text=QUESTION), repeat)
            celery_app.conf.task_always_eager = False
        elif self.profile:
            self._profile(dict(calls)[self.profile], repeat)
        stream_cost, waiting_queries = Cost(), []
        for _ in range(streams):
            cpu, queries, waiting = self._stream(client, conversation, reply_seconds)
            stream_cost.add(cpu, queries)
            waiting_queries.append(waiting)
        self._print(costs, stream_cost, waiting_queries, asks_for_offer, reply_seconds)

    def _profile(self, call, repeat: int) -> None:
        profiler = cProfile.Profile(time.thread_time)  # CPU, not the waits on the database
        profiler.enable()
        for _ in range(repeat):
            call()
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(45)
        self.stdout.write(out.getvalue())
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
        self.stdout.write(out.getvalue())
        if self.callees:  # what the functions matching it called, and their CPU
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_callees(self.callees)
            self.stdout.write(out.getvalue())

    def _stream(self, client: Client, conversation, reply_seconds: float) -> tuple[float, int, int]:
        """One reply stream from its opening to the saved reply's final event."""
        _, reply = message_send(conversation=conversation, text="And tomorrow?")
        Message.objects.filter(pk=reply.pk).update(
            status=Message.Status.RUNNING, started_at=timezone.now()
        )
        publisher = stream.ReplyStream(reply.pk, reply.attempt)
        opened = threading.Event()

        def the_worker() -> None:
            opened.wait(10)
            time.sleep(reply_seconds / 2)  # the model thinks: nothing to send
            for index in range(PIECES):
                time.sleep(reply_seconds / 2 / PIECES)
                publisher.on_text(f"word{index} ")
            Message.objects.filter(pk=reply.pk).update(
                status=Message.Status.COMPLETE, content="Done.", finished_at=timezone.now()
            )
            publisher.done()
            connection.close()

        worker = threading.Thread(target=the_worker)
        worker.start()
        with CaptureQueriesContext(connection) as queries:
            started = time.thread_time()
            response = client.get(reverse("chat:message_stream", args=[reply.pk]))
            waiting_from = None
            waiting = 0
            for chunk in response.streaming_content:
                if waiting_from is None and b"waiting" in chunk:
                    waiting_from = len(queries.captured_queries)
                    opened.set()
                elif waiting_from is not None and not waiting and b"event: delta" in chunk:
                    waiting = len(queries.captured_queries) - waiting_from
            spent = time.thread_time() - started
        worker.join()
        return spent, len(queries.captured_queries), waiting

    def _print(self, costs, stream_cost, waiting_queries, asks_for_offer, reply_seconds) -> None:
        offers = (3 + 2) if asks_for_offer else 0  # after each page load and each reply
        mix = [("page", 3), ("post", 2), ("feed", 3), ("offer", offers)]
        out = self.stdout.write
        out(f"database: {connection.vendor}; the page asks for the offer itself: {asks_for_offer}")
        out(f"{'request':<10}{'CPU ms':>9}{'queries':>9}")
        for name, cost in costs.items():
            out(f"{name:<10}{cost.ms:>9.2f}{cost.per_request_queries:>9.0f}")
        out(
            f"{'stream':<10}{stream_cost.ms:>9.2f}{stream_cost.per_request_queries:>9.0f}"
            f"   (a {reply_seconds:g} s reply; queries in its first {reply_seconds / 2:g} s, waiting:"
            f" {statistics.median(waiting_queries):.0f})"
        )
        requests = sum(n for _, n in mix) + 2
        cpu = sum(costs[name].ms * n for name, n in mix) + 2 * stream_cost.ms
        offer_cpu = costs["offer"].ms * offers
        out(
            f"one athlete-minute: {requests} requests, {cpu:.1f} ms CPU"
            f" (the offer requests {offer_cpu:.1f} ms, the streams {2 * stream_cost.ms:.1f} ms),"
            f" {sum(costs[n].per_request_queries * k for n, k in mix) + 2 * stream_cost.per_request_queries:.0f} queries"
        )
