"""Streamed replies in a real browser: the coach's words appear while the model is still writing
(the reply isn't saved yet), "Looking at…" shows while a read tool runs, and the finished reply
takes the bubble's place and announces itself (``spotter:reply``).

The replies are written on a thread, as the worker would (the suite's eager Celery would write
them inside the request that posts the message, before the page could show anything)."""

from __future__ import annotations

import threading
import time

import httpx
import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from chat import recovery, stream_slots
from chat.agent import run_turn
from chat.models import Message
from chat.services import conversation_for_athlete
from coach.llm.tokens import count_tokens
from tests.browser.conftest import needs_chromium
from tests.browser.test_chat_browser import log_in, send
from tests.factories import build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def background_replies(monkeypatch):
    """Each reply runs on its own thread, as on a worker (started warm: the token counter's
    vocabulary takes seconds to load the first time, as in a worker that just started)."""
    count_tokens("warm up")
    threads: list[threading.Thread] = []

    def send_run(placeholder: Message) -> bool:
        def work() -> None:
            try:
                run_turn(placeholder=Message.objects.get(pk=placeholder.pk))
            finally:
                connection.close()

        thread = threading.Thread(target=work, daemon=True)
        threads.append(thread)
        thread.start()
        return True

    monkeypatch.setattr(recovery, "send_run", send_run)
    yield threads
    for thread in threads:
        thread.join(timeout=30)


def reply_events(page: Page) -> None:
    page.evaluate(
        "window.spotterReplies = [];"
        "document.body.addEventListener('spotter:reply', e => window.spotterReplies.push(e.detail))"
    )


def test_the_reply_streams_into_its_bubble_before_it_is_saved(
    page: Page, live_server, llm_settings_openai, stream_redis, background_replies
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=2)
    log_in(page, live_server, program.athlete)
    reply_events(page)
    words = ["Start ", "light: ", "60 kg ", "for ", "three ", "sets ", "of ", "five."]
    server.enqueue_openai_stream("".join(words), pieces=words, chunk_delay=0.4)

    send(page, "How heavy should my squats be?")
    streaming = page.locator(".bubble-streaming .stream-text")
    expect(streaming).to_contain_text("Start light:")
    # The first words are on the page while the model is still writing the rest.
    assert Message.objects.get(role="assistant").status == Message.Status.RUNNING
    assert "five." not in streaming.inner_text()

    coach = page.locator(".bubble-coach")
    expect(coach.last).to_have_text("Start light: 60 kg for three sets of five.")
    expect(page.locator(".bubble-thinking")).to_have_count(0)
    expect(coach).to_have_count(1)
    assert Message.objects.get(role="assistant").status == Message.Status.COMPLETE
    page.wait_for_function("window.spotterReplies.length === 1")
    detail = page.evaluate("window.spotterReplies[0]")
    reply = Message.objects.get(role="assistant")
    assert detail == {"messageId": str(reply.pk), "id": f"message-{reply.pk}", "failed": False}


def test_the_bubble_says_what_the_coach_is_looking_at_while_a_read_tool_runs(
    page: Page, live_server, llm_settings_openai, stream_redis, background_replies
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=2)
    log_in(page, live_server, program.athlete)
    server.enqueue_openai_stream("", [("call_1", "get_last_activity", {})])
    server.enqueue_openai_stream("No runs logged yet.", delay=1.5)  # the model thinks a while

    send(page, "How was my last run?")
    status = page.locator(".bubble-streaming .stream-status")
    expect(status).to_have_text("Looking at your last run…")
    expect(status).to_be_visible()
    expect(page.locator(".bubble-coach").last).to_have_text("No runs logged yet.")
    expect(page.locator(".bubble-thinking")).to_have_count(0)


def test_a_midstream_error_ends_the_bubble_with_the_friendly_failure_and_retry(
    page: Page, live_server, llm_settings_openai, stream_redis, background_replies
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=2)
    log_in(page, live_server, program.athlete)
    server.enqueue_sse(
        'data: {"choices":[{"index":0,"delta":{"content":"Your squat "}}]}\n\n'
        'data: {"error":{"code":502,"message":"Upstream died"},"choices":[]}\n\n',
        chunk_delay=0.8,
    )
    send(page, "Check my squat")
    expect(page.locator(".bubble-streaming .stream-text")).to_have_text("Your squat ")
    failed = page.locator(".bubble-coach.bubble-error")
    expect(failed).to_be_visible()
    expect(failed).not_to_contain_text("Upstream died")
    expect(failed.get_by_role("button", name="Retry")).to_be_visible()


def test_a_bubble_whose_stream_gives_way_to_a_newer_one_polls_and_still_shows_the_reply(
    page: Page, live_server, stream_redis, settings
):
    """One account, one stream at a time here: another stream of the same athlete closes the
    page's, whose bubble then polls (no reconnecting) and still shows the reply (issue 18 item 2)."""
    settings.CHAT_STREAMS_PER_ACCOUNT = 1
    settings.CHAT_STREAM_MAX_SECONDS = 40
    program = build_program(weeks=1, sessions=2, exercises=2)
    conversation = conversation_for_athlete(athlete=program.athlete)
    asked = Message.objects.create(
        conversation=conversation, role=Message.Role.USER, content="Anyone?", status="complete"
    )
    waiting = Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        status=Message.Status.RUNNING,
        reply_to=asked,
        queued_at=timezone.now(),
        started_at=timezone.now(),
    )
    log_in(page, live_server, program.athlete)
    expect(page.locator(".bubble-streaming")).to_have_count(1)
    deadline = time.monotonic() + 10
    while stream_slots.open_streams(stream_redis, program.athlete.pk) < 1:  # the page's stream
        if time.monotonic() > deadline:
            break  # what follows says what the page shows
        time.sleep(0.1)

    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    url = live_server.url + reverse("chat:message_stream", args=[waiting.pk])
    with httpx.stream("GET", url, cookies=cookies, timeout=30) as newer:
        assert next(newer.iter_lines()) == "retry: 1000"
        # The page's stream ended with the polling bubble: no stream, still thinking.
        expect(page.locator(".bubble-streaming")).to_have_count(0)
        expect(page.locator(".bubble-thinking")).to_have_count(1)
        Message.objects.filter(pk=waiting.pk).update(
            status=Message.Status.COMPLETE, content="Here it is."
        )
        expect(page.locator(".bubble-coach").last).to_have_text("Here it is.")
    expect(page.locator(".bubble-thinking")).to_have_count(0)
