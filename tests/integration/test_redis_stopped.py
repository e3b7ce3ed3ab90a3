"""A Redis that stops answering (SIGSTOP: a frozen VM, a dropped route) without closing its
connections: the athlete's post still answers within seconds, keeps the message and says the
reply is delayed; once Redis answers again the recovery sweep sends the reply's task and a real
worker answers it. Every Redis use on the post's path gives up after ``REDIS_TIMEOUT``; before,
the broker's publish waited for ever (over 150 s in one run)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from chat import recovery, refusals
from chat.models import Message
from chat.services import conversation_for_athlete
from config.celery import app
from config.workers import reset_broker_connections, start_worker
from tests.factories import build_program
from tests.integration.conftest import _free_port, _wait_for_port, needs_redis
from tests.integration.waiting import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True), needs_redis]

HX = {"HX-Request": "true"}
POST_WITHIN = 3.0  # seconds, REDIS_TIMEOUT (1 s) and the database's share


@pytest.fixture
def redis_server():
    """A redis-server on a free port that this process sends its tasks to; yields its URL and
    process (the test stops it with SIGSTOP and lets it go on with SIGCONT)."""
    port = _free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    url = f"redis://127.0.0.1:{port}/0"
    saved = {"broker_url": app.conf.broker_url, "task_always_eager": app.conf.task_always_eager}
    try:
        _wait_for_port(port)
        reset_broker_connections()
        app.conf.update(broker_url=url, task_always_eager=False)
        yield url, proc
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.terminate()
        proc.wait(timeout=10)
        reset_broker_connections()
        app.conf.update(saved)


def test_a_post_while_redis_is_stopped_answers_at_once_and_the_sweep_answers_it_later(
    redis_server, fake_openai_server, tmp_path
):
    url, redis_proc = redis_server
    fake_openai_server.default_text = "Here now.\n---\nThanks"
    program = build_program(weeks=1, sessions=2, exercises=2)
    conversation = conversation_for_athlete(athlete=program.athlete)
    athlete = Client()
    athlete.force_login(program.athlete)
    send = reverse("chat:message_send", args=[conversation.pk])

    # A first post while Redis answers: the process holds a live broker connection, as a
    # running server does.
    assert athlete.post(send, {"text": "Hello"}, headers=HX).status_code == 200
    first = Message.objects.get(role=Message.Role.ASSISTANT, reply_to__content="Hello")
    assert first.queued_at is not None

    os.kill(redis_proc.pid, signal.SIGSTOP)
    answered: dict[str, object] = {}

    def post() -> None:  # on a thread: before the fix it never came back
        try:
            answered["response"] = athlete.post(send, {"text": "Anyone there?"}, headers=HX)
        finally:
            connection.close()  # the thread's own

    started = time.monotonic()
    poster = threading.Thread(target=post, daemon=True)
    poster.start()
    poster.join(timeout=20)
    took = time.monotonic() - started
    if poster.is_alive():
        os.kill(redis_proc.pid, signal.SIGCONT)
        poster.join(timeout=30)
        pytest.fail(f"the post was still waiting for Redis after {took:.0f} s")
    response = answered["response"]
    assert response.status_code == 200
    assert took < POST_WITHIN, f"the post took {took:.1f} s"
    body = response.content.decode()
    assert "Anyone there?" in body
    assert escape(refusals.BROKER_DOWN) in body  # the reply is delayed, the message kept
    user_message = conversation.messages.get(role=Message.Role.USER, content="Anyone there?")
    placeholder = Message.objects.get(reply_to=user_message)
    assert (placeholder.status, placeholder.queued_at) == ("pending", None)

    os.kill(redis_proc.pid, signal.SIGCONT)
    assert recovery.sweep().sent == 1  # Redis answers again: the sweep hands the reply over
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = start_worker(
            env={
                "SPOTTER_VAR_DIR": str(tmp_path),
                "REDIS_URL": url,
                "LLM_PROVIDER": "openai",
                "LLM_BASE_URL": fake_openai_server.base_url,
                "LLM_MODEL": "fake",
            },
            output=out,
            concurrency=2,
        )
    try:
        replies = Message.objects.filter(
            pk__in=[first.pk, placeholder.pk], status__in=["complete", "failed"]
        )
        wait_for(lambda: replies.count() == 2, 90, "the replies were not answered", log)
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()

    placeholder.refresh_from_db()
    assert (placeholder.status, placeholder.content) == ("complete", "Here now.")
    assert list(Message.objects.filter(reply_to=user_message)) == [placeholder]
    print(f"post with Redis stopped: {took:.2f} s; answered once Redis was back")
