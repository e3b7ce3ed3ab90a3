"""One worker process serves many turns at once (Celery's threads pool) and, without a pool, holds
no database connection once they are done: a real broker, a real worker and a slow fake model over
HTTP (psycopg's pool, the default on PostgreSQL, keeps a few: tests/integration/test_connections)."""

import os
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
MODEL_SECONDS = 1.5


@pytest.fixture
def worker_concurrency() -> int:
    return TURNS


@pytest.fixture
def slow_model(fake_openai_server, worker_env):
    fake_openai_server.default_delay = MODEL_SECONDS
    fake_openai_server.default_text = "OK.\n---\nThanks"
    worker_env.update(
        LLM_PROVIDER="openai",
        LLM_BASE_URL=fake_openai_server.base_url,
        LLM_MODEL="fake",
        DATABASE_POOL="0",
    )
    return fake_openai_server


def test_the_connection_count_sees_a_process_that_holds_one():
    """The measurement the test below relies on: this test process holds its own connection."""
    connection.ensure_connection()
    assert worker_connections(os.getpid()) >= 1


def test_one_worker_process_runs_many_turns_at_once_and_then_holds_no_connection(
    slow_model, celery_worker_process
):
    worker, log = celery_worker_process
    placeholders = []
    for index in range(TURNS):
        athlete = UserFactory()
        build_program_bulk(athlete=athlete, weeks=2, sessions=2, exercises=3)
        conversation = conversation_for_athlete(athlete=athlete)
        placeholders.append(message_send(conversation=conversation, text=f"Hi {index}")[1])

    deadline = time.monotonic() + 60
    pending = {p.pk for p in placeholders}
    while pending and time.monotonic() < deadline:
        done = Message.objects.filter(pk__in=pending, status=Message.Status.COMPLETE)
        pending -= set(done.values_list("pk", flat=True))
        time.sleep(0.05)
    assert not pending, f"replies missing; worker log:\n{log.read_text()[-3000:]}"

    spans = list(
        Message.objects.filter(pk__in=[p.pk for p in placeholders]).values_list(
            "started_at", "finished_at"
        )
    )
    # The most turns in progress at one moment: one at a time would be 1.
    overlap = max(sum(1 for s, f in spans if s <= moment < f) for moment, _ in spans)
    assert overlap >= TURNS // 2, f"at most {overlap} turns ran at once"
    assert len(slow_model.requests) == TURNS

    connection.close()  # the test's own connection is not the worker's
    time.sleep(0.5)
    assert worker_connections(worker.pid) == 0
