"""Retry in a real browser: a failed reply offers Retry; a click re-runs the turn for the same
message and the answer takes the failed bubble's place (one coach bubble, not two)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chat.models import Message
from tests.browser.conftest import needs_chromium
from tests.browser.test_chat_browser import log_in, send
from tests.factories import build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_retry_of_a_failed_reply_answers_the_same_message_in_its_place(
    page: Page, live_server, llm_settings_openai
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=2)
    log_in(page, live_server, program.athlete)

    server.enqueue_error(401)  # not retried by the provider: the reply fails at once
    send(page, "How heavy should my squats be?")
    failed = page.locator(".bubble-coach.bubble-error")
    expect(failed).to_contain_text("isn't available right now")
    retry = failed.get_by_role("button", name="Retry")
    expect(retry).to_be_visible()

    server.enqueue_openai_text("Start at 60 kg.\n---\nThanks")
    retry.click()
    expect(page.locator(".bubble-coach").last).to_have_text("Start at 60 kg.")
    expect(page.locator(".bubble-thinking")).to_have_count(0)
    expect(page.locator(".bubble-coach")).to_have_count(1)
    user_message = Message.objects.get(role="user")
    reply = Message.objects.get(role="assistant")
    assert (reply.reply_to_id, reply.status, reply.attempt) == (user_message.pk, "complete", 2)
