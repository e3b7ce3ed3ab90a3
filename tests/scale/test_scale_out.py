"""Spotter scales out (issue 23 item 6): two web processes and two workers (and one beat), started
with ``bin/serve web|worker|beat`` as two boxes would run them, on one PostgreSQL and one Redis
(``tests/scale/cluster.py``). A burst of 100 athletes × 5 messages, half through each web process,
while one web process and one worker are killed (SIGKILL), loses and duplicates nothing (a post
whose answer was lost is sent again with the same idempotency key, without looking); a reply
posted through one web process streams to a page served by the other; the rate limit holds across
both; each periodic task beat sends runs once, on one worker. The model is the fake
OpenAI-compatible server, streaming.

Selected with ``-m scale``; it runs in ``bin/test``'s PostgreSQL pass (one database for every
process: SQLite's test database is in memory) and needs ``redis-server`` (CI, with
``SPOTTER_REQUIRE_ALL=1``, fails instead of skipping without it)."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module

import httpx
import pytest
from django.conf import settings as django_settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.db import connection
from django.test import override_settings
from django.urls import reverse

from chat.models import Message
from chat.services import conversation_for_athlete
from coach.llm.fake_server import FakeLLMServer
from tests.factories import build_program
from tests.integration.waiting import wait_for

from .cluster import Cluster, cluster_env, free_port, wait_for_port

REQUIRE_ALL = os.environ.get("SPOTTER_REQUIRE_ALL") == "1"
HAVE_REDIS = shutil.which("redis-server") is not None

pytestmark = [
    pytest.mark.scale,
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="every process shares the one database: PostgreSQL (bin/test's second pass)",
    ),
    pytest.mark.skipif(
        not HAVE_REDIS and not REQUIRE_ALL,
        reason="redis-server is not installed (bin/system-deps installs it as root)",
    ),
]

ATHLETES, MESSAGES = 100, 5
SECRET_KEY = secrets.token_urlsafe(50)
HTMX = {"HX-Request": "true"}
WORDS = ["Squat ", "on ", "Monday, ", "deadlift ", "on ", "Thursday."]


@pytest.fixture(scope="module")
def redis_url():
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, 10)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def model():
    """The model every worker calls: a short streamed reply unless a test queues its own."""
    with FakeLLMServer(protocol="openai", default_text="Rest well today.") as server:
        yield server


@pytest.fixture(scope="module")
def cluster(django_db_setup, redis_url, model, tmp_path_factory):
    env = cluster_env(redis_url=redis_url, secret_key=SECRET_KEY, llm_base_url=model.base_url)
    running = Cluster(tmp=tmp_path_factory.mktemp("boxes"), env=env)
    try:
        web_a, web_b = running.start("web", "box-a"), running.start("web", "box-b")
        workers = [running.start("worker", "box-a"), running.start("worker", "box-b")]
        beat = running.start("beat", "box-a")
        running.wait_until_serving(web_a)
        running.wait_until_serving(web_b)
        yield {"web": [web_a, web_b], "workers": workers, "beat": beat, "all": running}
    finally:
        running.stop_all()


def signed_in(user) -> dict[str, str]:
    """A session as the login view makes it, and a CSRF secret (a browser's two cookies)."""
    store = import_module(django_settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return {"sessionid": store.session_key, "csrftoken": secrets.token_hex(16)}


def athletes(count: int, prefix: str) -> list[dict]:
    """``count`` athletes, each with a one-week program, a conversation and a session signed
    with the cluster's key; what a browser sends: cookies and the CSRF header."""
    made = []
    users = get_user_model().objects
    with override_settings(SECRET_KEY=SECRET_KEY):
        for index in range(count):
            athlete = users.create(username=f"{prefix}-{index}")
            build_program(weeks=1, sessions=1, exercises=1, athlete=athlete)
            conversation = conversation_for_athlete(athlete=athlete)
            cookies = signed_in(athlete)
            made.append(
                {
                    "conversation": conversation.pk,
                    "headers": {
                        **HTMX,
                        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
                        "X-CSRFToken": cookies["csrftoken"],
                    },
                }
            )
    return made


def post(base_url: str, athlete: dict, text: str, key: str = "") -> int:
    url = base_url + reverse("chat:message_send", args=[athlete["conversation"]])
    data = {"text": text, "key": key}
    return httpx.post(url, data=data, headers=athlete["headers"], timeout=30).status_code


def test_a_reply_posted_through_one_web_process_streams_to_a_page_served_by_the_other(
    cluster, model
):
    web_a, web_b = cluster["web"]
    [athlete] = athletes(1, "stream")
    model.enqueue_openai_stream("".join(WORDS), pieces=WORDS, chunk_delay=0.3)
    assert post(web_a.url, athlete, "When do I lift?") == 200
    reply = Message.objects.filter(
        conversation_id=athlete["conversation"], role=Message.Role.ASSISTANT
    ).get()
    url = web_b.url + reverse("chat:message_stream", args=[reply.pk])
    events: list[tuple[str, str]] = []
    with httpx.stream("GET", url, headers=athlete["headers"], timeout=60) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for block in _blocks(response.iter_text()):
            events.append(block)
            if block[0] == "done":
                break
    kinds = [kind for kind, _ in events]
    assert "delta" in kinds, events  # the worker's words, through Redis, to the other box
    assert "".join(data for kind, data in events if kind == "delta") == "".join(WORDS)
    assert kinds[-1] == "done" and "Thursday." in events[-1][1]


def _blocks(texts):
    buffer = ""
    for text in texts:
        buffer += text
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
            if "event" in fields:
                data = [line[6:] for line in block.split("\n") if line.startswith("data: ")]
                yield fields["event"], "\n".join(data)


def test_the_rate_limit_holds_across_web_processes(cluster, settings):
    webs = cluster["web"]
    [athlete] = athletes(1, "limit")
    limit = settings.CHAT_RATE_LIMIT_PER_MINUTE
    texts = [f"message {n}" for n in range(limit + 5)]
    with ThreadPoolExecutor(8) as pool:
        statuses = list(
            pool.map(lambda n: post(webs[n % len(webs)].url, athlete, texts[n]), range(len(texts)))
        )
    assert Counter(statuses) == Counter({200: limit, 429: 5})
    stored = Message.objects.filter(
        conversation_id=athlete["conversation"], role=Message.Role.USER
    ).count()
    assert stored == limit
    # The workers answer the accepted messages: wait for them, or the test's teardown truncates
    # the tables while a worker writes (a deadlock on PostgreSQL under load).
    replies = Message.objects.filter(
        conversation_id=athlete["conversation"], role=Message.Role.ASSISTANT
    )
    wait_for(
        lambda: not replies.exclude(status=Message.Status.COMPLETE).exists(),
        120,
        "the accepted messages answered",
        log=cluster["workers"][0].log,
    )


def test_a_burst_of_100_athletes_x_5_messages_loses_and_duplicates_nothing_while_a_web_process_and_a_worker_die(
    cluster,
):
    web_a, web_b = cluster["web"]
    _worker_a, worker_b = cluster["workers"]
    people = athletes(ATHLETES, "burst")
    jobs = [(i, m) for m in range(MESSAGES) for i in range(ATHLETES)]  # message 1 of all, then 2…
    answered: dict[str, int | str] = {}
    in_doubt: list[tuple[int, str]] = []
    lock = threading.Lock()
    killed = threading.Event()

    keys = {job: str(uuid.uuid4()) for job in jobs}  # the page's key for each message it sends

    def send(job: tuple[int, int]) -> None:
        index, number = job
        text = f"athlete {index} message {number}"
        # A load balancer's round robin; once box B's web process is gone, it sends to A only.
        web = web_b if index % 2 and not killed.is_set() else web_a
        try:
            status: int | str = post(web.url, people[index], text, keys[job])
        except httpx.HTTPError as exc:  # a request in flight when its process was killed
            status = type(exc).__name__
        with lock:
            answered[text] = status
            if status != 200:
                in_doubt.append((job, text))
            if len(answered) == len(jobs) // 3 and not killed.is_set():
                killed.set()
                web_b.kill()
                worker_b.kill()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(send, jobs))
    assert killed.is_set() and web_b.proc.poll() is not None and worker_b.proc.poll() is not None
    # A post whose answer was lost may have been stored or not: the page sends it again, with
    # the same key, to the box still up, without looking; one that was stored isn't stored twice.
    for job, text in in_doubt:
        answered[text] = post(web_a.url, people[job[0]], text, keys[job])
    assert set(answered.values()) == {200}, answered
    conversations = [p["conversation"] for p in people]
    mine = Message.objects.filter(conversation_id__in=conversations)

    def all_answered() -> bool:
        waiting = mine.filter(role=Message.Role.ASSISTANT).exclude(status=Message.Status.COMPLETE)
        return mine.filter(role=Message.Role.ASSISTANT).count() >= len(jobs) and (
            not waiting.exists()
        )

    wait_for(all_answered, 120, "every message answered", log=cluster["workers"][0].log)
    sent = list(mine.filter(role=Message.Role.USER).values_list("content", flat=True))
    assert sorted(sent) == sorted(answered)  # each message stored once, none lost
    replies = mine.filter(role=Message.Role.ASSISTANT)
    assert replies.count() == len(jobs)  # one reply each, never two
    assert sorted(replies.values_list("reply_to__content", flat=True)) == sorted(answered)
    assert set(replies.values_list("status", flat=True)) == {Message.Status.COMPLETE}


SENT = re.compile(r"Sending due task recover-replies")
RECEIVED = re.compile(r"Task chat\.tasks\.recover_replies\[([0-9a-f-]{36})\] received")


def test_beat_sends_each_periodic_sweep_once_and_one_worker_runs_it(cluster):
    """Runs after the burst: all along, beat sent the sweep every AGENT_RECOVERY_INTERVAL s."""
    beat = cluster["beat"]
    worker_a, worker_b = cluster["workers"]
    wait_for(lambda: len(SENT.findall(beat.output())) >= 3, 30, "three sweeps sent", beat.log)
    beat.stop()
    sent = len(SENT.findall(beat.output()))

    def received() -> list[str]:
        return RECEIVED.findall(worker_a.output()) + RECEIVED.findall(worker_b.output())

    wait_for(lambda: len(set(received())) >= sent, 30, f"{sent} sweeps received", beat.log)
    assert len(set(received())) == sent  # one task a tick: one beat, not one per box
    # A sweep taken twice is one the killed worker had taken and Redis gave back to the other.
    twice = {task for task, seen in Counter(received()).items() if seen > 1}
    assert twice <= set(RECEIVED.findall(worker_b.output()))
    held = int(cluster["all"].env["AGENT_CONCURRENCY"])  # what a worker holds (prefetch 1)
    assert len(twice) <= held
