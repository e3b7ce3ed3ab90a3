"""A worker's database connections don't grow with its threads: while many turns wait for a slow
model, the worker process holds (almost) none without a pool, since the agent closes its
connection before each model call; with psycopg's pool (the default on PostgreSQL) they stay within
``DATABASE_POOL_MAX_SIZE``. PostgreSQL: counted in ``pg_stat_activity``; SQLite: open handles on
the file."""

import time

import pytest
from django.db import connection

from chat.management.commands.bench_concurrency import worker_connections
from chat.models import Message
from chat.services import conversation_for_athlete, message_send
from programs.demo_builders import build_program_bulk
from tests.factories import UserFactory

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

TURNS = 8
MODEL_SECONDS = 3.0


@pytest.fixture
def worker_concurrency() -> int:
    return TURNS


@pytest.fixture
def slow_model(fake_openai_server, worker_env):
    fake_openai_server.default_delay = MODEL_SECONDS
    worker_env.update(
        LLM_PROVIDER="openai", LLM_BASE_URL=fake_openai_server.base_url, LLM_MODEL="fake"
    )
    return fake_openai_server


@pytest.fixture
def worker_env(request) -> dict[str, str]:
    if "pooled" in request.node.name:
        return {"DATABASE_POOL": "1", "DATABASE_POOL_MIN_SIZE": "1", "DATABASE_POOL_MAX_SIZE": "3"}
    return {"DATABASE_POOL": "0"}


def test_turns_waiting_for_the_model_hold_no_database_connection(
    slow_model, worker_env, celery_worker_process
):
    """Without a pool (``DATABASE_POOL=0``; SQLite has none)."""
    worker, log = celery_worker_process
    placeholders = []
    for index in range(TURNS):
        athlete = UserFactory()
        build_program_bulk(athlete=athlete, weeks=1, sessions=2, exercises=2)
        conversation = conversation_for_athlete(athlete=athlete)
        placeholders.append(message_send(conversation=conversation, text=f"Hi {index}")[1])

    deadline = time.monotonic() + 60
    while len(slow_model.requests) < TURNS and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(slow_model.requests) == TURNS, log.read_text()[-3000:]
    # Every turn is now waiting for the model.
    time.sleep(0.3)
    # The fewest of 10 looks 50 ms apart. Turns that held their connection through the model's
    # 3 s would show in every look (8 of them); what shows in a few looks only is passing, e.g. on
    # a loaded machine the first turn's answer arriving (its requests spread over more than 2 s)
    # and the turn opening a connection to save it, which the largest look once counted as held.
    looks = []
    for _ in range(10):
        looks.append(worker_connections(worker.pid))
        time.sleep(0.05)
    held = min(looks)
    running = Message.objects.filter(pk__in=[p.pk for p in placeholders], status="running")
    assert running.count() == TURNS
    assert held <= 1, f"{held} connections held by {TURNS} turns waiting for the model"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="psycopg's pool is PostgreSQL's")
def test_pooled_connections_stay_within_the_pool_size_while_every_turn_finishes(
    slow_model, celery_worker_process
):
    """With the pool (3 connections at most) 8 turns at once still all finish: each holds a
    connection only between model calls, so they share the pool's few."""
    worker, log = celery_worker_process
    opened_before = _sessions_opened()
    placeholders = []
    for index in range(TURNS):
        athlete = UserFactory()
        build_program_bulk(athlete=athlete, weeks=1, sessions=2, exercises=2)
        conversation = conversation_for_athlete(athlete=athlete)
        placeholders.append(message_send(conversation=conversation, text=f"Hi {index}")[1])

    held, deadline = 0, time.monotonic() + 60
    pending = {p.pk for p in placeholders}
    while pending and time.monotonic() < deadline:
        held = max(held, worker_connections(worker.pid))
        done = Message.objects.filter(pk__in=pending, status=Message.Status.COMPLETE)
        pending -= set(done.values_list("pk", flat=True))
        time.sleep(0.05)
    assert not pending, f"replies missing; worker log:\n{log.read_text()[-3000:]}"
    assert len(slow_model.requests) == TURNS
    assert 1 <= held <= 3, f"{held} connections held by the worker (pool of 3)"
    # The pool is what kept them few: it opened at most its 3 connections for the 8 turns, where
    # without it every step of every turn opens one (at least 16 here).
    time.sleep(0.5)  # a closed session is counted as its backend exits
    opened = _sessions_opened() - opened_before
    assert opened <= 3, f"{opened} connections opened for {TURNS} turns (pool of 3)"


def _sessions_opened() -> int:
    """Sessions PostgreSQL has opened to this database so far (its statistics, read afresh)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]
