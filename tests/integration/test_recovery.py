"""A reply can't hang, with real processes: a worker killed with SIGKILL in the middle of a reply,
and a broker that is down when the athlete posts. Each ends with exactly one reply.

The fake model answers slowly, so the turn is in flight when the worker dies. The worker's
deadline (``AGENT_TURN_DEADLINE``) is a few seconds here instead of minutes; the broker's
visibility timeout too, so the killed worker's task also comes back from the broker (and finds its
run replaced: no second reply)."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from chat import refusals
from chat.models import Message
from chat.services import conversation_for_athlete, message_send
from config import embedded_redis
from config.celery import app
from config.workers import reset_broker_connections, start_worker
from tests.factories import build_program
from tests.integration.waiting import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

MODEL_SECONDS = 3.0
DEADLINE = 4.0
HX = {"HX-Request": "true"}


def replies_to(user_message: Message):
    return Message.objects.filter(reply_to=user_message, role=Message.Role.ASSISTANT)


@pytest.fixture
def slow_model(fake_openai_server, worker_env):
    fake_openai_server.default_delay = MODEL_SECONDS
    fake_openai_server.default_text = "Here is your answer.\n---\nThanks"
    worker_env.update(
        LLM_PROVIDER="openai",
        LLM_BASE_URL=fake_openai_server.base_url,
        LLM_MODEL="fake",
        AGENT_TURN_DEADLINE=str(DEADLINE),
        CELERY_VISIBILITY_TIMEOUT="3",
    )
    return fake_openai_server


def test_a_worker_killed_mid_reply_is_replaced_and_the_reply_comes_once(
    slow_model, celery_worker_process, broker, worker_env, tmp_path
):
    worker, log = celery_worker_process
    program = build_program(weeks=1, sessions=2, exercises=2)
    conversation = conversation_for_athlete(athlete=program.athlete)
    user_message, placeholder = message_send(conversation=conversation, text="How's my week?")

    wait_for(lambda: len(slow_model.requests) == 1, 60, "the model was not called", log)
    placeholder.refresh_from_db()
    assert placeholder.status == Message.Status.RUNNING
    killed_at = time.monotonic()
    os.killpg(worker.pid, signal.SIGKILL)  # the worker and anything it started: no goodbye
    worker.wait()

    # Its reply stays RUNNING; once past the deadline, a new worker's start-up check recovers it.
    time.sleep(DEADLINE + 0.5)
    placeholder.refresh_from_db()
    assert placeholder.status == Message.Status.RUNNING
    second_log = tmp_path / "second-worker.log"
    with second_log.open("wb") as out:
        second = start_worker(
            env={
                "SPOTTER_VAR_DIR": str(tmp_path),
                **broker["env"],
                **worker_env,
            },
            output=out,
            concurrency=4,
        )
    try:
        reply = wait_for(
            lambda: replies_to(user_message).filter(status__in=["complete", "failed"]).first(),
            60,
            "no reply from the new worker",
            second_log,
        )
        recovered_in = time.monotonic() - killed_at
        time.sleep(DEADLINE)  # a late duplicate (the broker's redelivery) would show up now
    finally:
        second.terminate()
        try:
            second.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(second.pid, signal.SIGKILL)
            second.wait()

    assert list(replies_to(user_message)) == [reply]
    reply.refresh_from_db()
    assert reply.pk == placeholder.pk
    assert (reply.status, reply.content) == ("complete", "Here is your answer.")
    assert (reply.attempt, reply.recoveries) == (2, 1)
    assert len(slow_model.requests) == 2, "the killed run's call and the new run's"
    assert "Recovering reply" in second_log.read_text()
    print(f"kill -9 mid-reply → one reply {recovered_in:.1f} s later (deadline {DEADLINE} s)")


@pytest.fixture
def broker_we_can_stop(tmp_path):
    """The embedded Redis on its socket under ``tmp_path``, which the test stops and starts again;
    this process sends its tasks there."""
    servers: list[subprocess.Popen] = []

    def start() -> None:
        servers.append(
            embedded_redis.start(
                tmp_path, persist=False, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
            )
        )

    def stop() -> None:
        servers[-1].terminate()
        servers[-1].wait(timeout=10)

    saved = {"broker_url": app.conf.broker_url, "task_always_eager": app.conf.task_always_eager}
    reset_broker_connections()
    app.conf.update(broker_url=embedded_redis.broker_url(tmp_path), task_always_eager=False)
    start()
    try:
        yield start, stop
    finally:
        for server in servers:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=10)
        reset_broker_connections()
        app.conf.update(saved)


def test_a_message_posted_while_the_broker_is_down_is_kept_and_answered_once_when_it_is_back(
    broker_we_can_stop, fake_openai_server, tmp_path
):
    start_broker, stop_broker = broker_we_can_stop
    fake_openai_server.default_text = "Back again.\n---\nThanks"
    program = build_program(weeks=1, sessions=2, exercises=2)
    conversation = conversation_for_athlete(athlete=program.athlete)
    athlete = Client()
    athlete.force_login(program.athlete)

    stop_broker()
    response = athlete.post(
        reverse("chat:message_send", args=[conversation.pk]), {"text": "Anyone there?"}, headers=HX
    )
    assert response.status_code == 200
    assert escape(refusals.BROKER_DOWN) in response.content.decode()
    user_message = conversation.messages.get(role=Message.Role.USER)
    assert user_message.content == "Anyone there?"
    placeholder = replies_to(user_message).get()
    assert (placeholder.status, placeholder.queued_at) == ("pending", None)

    # While the broker is still down, Retry keeps the message and says so again.
    retry = reverse("chat:message_retry", args=[placeholder.pk])
    response = athlete.post(retry, headers=HX)
    assert escape(refusals.BROKER_DOWN) in response.content.decode()

    start_broker()
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = start_worker(
            env={
                "SPOTTER_VAR_DIR": str(tmp_path),
                "REDIS_URL": "",
                "LLM_PROVIDER": "openai",
                "LLM_BASE_URL": fake_openai_server.base_url,
                "LLM_MODEL": "fake",
            },
            output=out,
            concurrency=4,
        )
    try:
        # The athlete clicks Retry while the new worker's start-up check sends the reply too.
        wait_for(lambda: b"ready" in log.read_bytes(), 60, "the worker did not start", log)
        response = athlete.post(retry, headers=HX)
        assert response.status_code == 200
        reply = wait_for(
            lambda: replies_to(user_message).filter(status__in=["complete", "failed"]).first(),
            60,
            "no reply once the broker was back",
            log,
        )
        time.sleep(2)  # a duplicate would show up now
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()

    assert list(replies_to(user_message)) == [reply]
    assert (reply.pk, reply.status, reply.content) == (placeholder.pk, "complete", "Back again.")
    assert len(fake_openai_server.requests) == 1
    poll = athlete.get(reverse("chat:message_poll", args=[reply.pk]), headers=HX)
    assert "Back again." in poll.content.decode()
