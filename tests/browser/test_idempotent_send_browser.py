"""Sending again after a lost answer, in a real browser: the post reaches the server and is
stored, but the browser never gets the answer (as when the web process is killed after its commit).
Clicking Send again sends the same key, so the page shows the message once and the database has
it once; after the send the box has a new key; another text after a lost answer takes a new key."""

from __future__ import annotations

import re
import uuid

import pytest
from django.utils import timezone
from playwright.sync_api import Page, Route, expect

from chat.models import Message
from tests.browser.conftest import needs_chromium
from tests.browser.test_chat_browser import log_in
from tests.factories import build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

SEND_URL = re.compile(r"/conversations/\d+/messages/$")


def lose_the_first_answer(page: Page) -> list[str]:
    """Route message posts: the first reaches the server, its answer is dropped; the keys of all
    posts are returned in order."""
    keys: list[str] = []

    def handle(route: Route) -> None:
        keys.append(re.search(r"(?:^|&)key=([^&]*)", route.request.post_data or "").group(1))
        if len(keys) == 1:
            route.fetch()  # the server stores the message and answers...
            route.abort("connectionreset")  # ...and the browser never hears it
        else:
            route.continue_()

    page.route(SEND_URL, handle)
    return keys


def key_in_box(page: Page) -> str:
    return page.locator("#composer input[name=key]").input_value()


def test_sending_again_after_a_lost_answer_shows_and_stores_the_message_once(
    page: Page, live_server, settings
):
    settings.LLM_PROVIDER = "offline"
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)
    keys = lose_the_first_answer(page)
    box = page.get_by_role("textbox", name="Message")
    box.fill("help")
    with page.expect_event("requestfailed"):
        page.get_by_role("button", name="Send", exact=True).click()
    expect(page.get_by_role("button", name="Send", exact=True)).to_be_enabled()
    assert Message.objects.filter(role=Message.Role.USER).count() == 1  # stored, answer lost
    expect(box).to_have_value("help")
    armed = key_in_box(page)
    page.get_by_role("button", name="Send", exact=True).click()
    expect(box).to_have_value("")
    expect(page.locator(".bubble-user")).to_have_count(1)
    expect(page.locator(".bubble-coach").last).to_contain_text("rename exercise")
    assert len(keys) == 2 and keys[0] == keys[1] == armed and uuid.UUID(armed)
    assert Message.objects.filter(role=Message.Role.USER).count() == 1
    assert Message.objects.filter(role=Message.Role.ASSISTANT).count() == 1
    assert key_in_box(page) not in ("", armed)  # a new message gets a new key


def test_another_text_after_a_lost_answer_takes_a_new_key(page: Page, live_server, settings):
    settings.LLM_PROVIDER = "offline"
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)
    keys = lose_the_first_answer(page)
    box = page.get_by_role("textbox", name="Message")
    box.fill("help")
    with page.expect_event("requestfailed"):
        page.get_by_role("button", name="Send", exact=True).click()
    expect(page.get_by_role("button", name="Send", exact=True)).to_be_enabled()
    box.fill("what is my program?")
    page.get_by_role("button", name="Send", exact=True).click()
    expect(box).to_have_value("")
    assert len(keys) == 2 and keys[0] != keys[1]
    sent = Message.objects.filter(role=Message.Role.USER).values_list("content", flat=True)
    assert sorted(sent) == ["help", "what is my program?"]  # both were asked for
