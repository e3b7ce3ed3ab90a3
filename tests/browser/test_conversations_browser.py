"""Conversations in a real browser (issue 8, §2): the tab title when a reply arrives while the tab
is in the background, and switching between conversations. The offline coach answers; Celery is
eager, and the page fetches the reply by polling, as in production.

A hidden tab is simulated by overriding ``document.visibilityState`` in the page and dispatching
``visibilitychange``, as the browser does when the athlete switches tabs."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from chat import services
from chat.models import Conversation, Message
from tests.browser.conftest import needs_chromium
from tests.browser.test_chat_browser import log_in
from tests.factories import CoachFactory, build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
RECORD_REPLIES = """() => {
  window.spotterReplies = [];
  document.body.addEventListener("spotter:reply", (e) => window.spotterReplies.push(e.detail.messageId));
}"""


REPLY_TIMEOUT = 20_000  # the first turn of a process loads the tokenizer; the machine is shared


def send(page: Page, text: str) -> None:
    box = page.get_by_role("textbox", name="Message")
    box.fill(text)
    page.get_by_role("button", name="Send", exact=True).click()
    expect(box).to_have_value("", timeout=REPLY_TIMEOUT)
    expect(page.locator(".bubble-user").last).to_have_text(text)
    expect(page.locator(".bubble-thinking")).to_have_count(0, timeout=REPLY_TIMEOUT)


@pytest.fixture
def athlete(db, settings):
    settings.LLM_PROVIDER = "offline"
    return build_program(weeks=1, sessions=2, exercises=2, start_date=timezone.localdate()).athlete


def test_a_reply_in_a_background_tab_shows_in_the_title_until_the_tab_is_seen(
    page: Page, live_server, athlete
):
    log_in(page, live_server, athlete)
    expect(page).to_have_title("Chat · Spotter")
    page.evaluate(RECORD_REPLIES)

    send(page, "help")  # seen: the title doesn't change
    expect(page.locator(".bubble-coach").last).to_contain_text("rename exercise")
    expect(page).to_have_title("Chat · Spotter")

    page.evaluate(SET_VISIBILITY, "hidden")
    send(page, "show week 1")
    expect(page.locator(".bubble-thinking")).to_have_count(0)
    expect(page).to_have_title("(1) New reply · Spotter")
    replies = list(
        Message.objects.filter(role=Message.Role.ASSISTANT)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    assert page.evaluate("window.spotterReplies") == [str(pk) for pk in replies]

    # The streaming path dispatches the same event; a second reply counts on.
    page.evaluate(
        """() => document.body.dispatchEvent(new CustomEvent("spotter:reply", {detail: {messageId: "streamed-1"}}))"""
    )
    expect(page).to_have_title("(2) New replies · Spotter")

    page.evaluate(SET_VISIBILITY, "visible")
    expect(page).to_have_title("Chat · Spotter")


def test_switching_conversations_and_starting_a_new_one(page: Page, live_server, athlete):
    first = services.conversation_for_athlete(athlete=athlete)
    Message.objects.create(conversation=first, role=Message.Role.USER, content="About squats")
    Conversation.objects.filter(pk=first.pk).update(title="About squats")
    log_in(page, live_server, athlete)
    expect(page.locator(".conversation-title")).to_have_text("About squats")

    page.get_by_role("button", name="New conversation").click()
    expect(page).to_have_url(re.compile(r"/conversations/\d+/$"))
    expect(page.locator(".conversation-title")).to_have_text("New conversation")
    expect(page.locator(".bubble-user")).to_have_count(0)
    send(page, "help")
    expect(page.locator(".bubble-coach").last).to_contain_text("rename exercise")
    second = Conversation.objects.exclude(pk=first.pk).get(athlete=athlete)
    assert second.title == "help"

    page.locator(".conversation-switch summary").click()
    page.get_by_role("link", name="About squats").click()
    expect(page).to_have_url(live_server.url + f"/conversations/{first.pk}/")
    expect(page.locator(".bubble-user")).to_have_text(["About squats"])

    page.locator(".conversation-switch summary").click()
    page.get_by_role("link", name="All conversations").click()
    expect(page.locator(".conversation-list li")).to_have_count(2)
    page.get_by_role("link", name="help").click()
    expect(page).to_have_url(live_server.url + f"/conversations/{second.pk}/")
    expect(page.locator(".bubble-user").first).to_have_text("help")
    send(page, "show week 1")  # posts into the conversation that is open
    assert Message.objects.filter(conversation=second, content="show week 1").exists()
    assert not Message.objects.filter(conversation=first, content="show week 1").exists()


def test_a_coach_post_and_a_reminder_arrive_in_an_open_background_tab(
    page: Page, live_server, settings
):
    """Nothing the athlete did asks for them: the page's feed brings them in while it is open,
    and the background tab's title counts them."""
    settings.LLM_PROVIDER = "offline"
    settings.CHAT_FEED_SECONDS = 0.5
    coach = CoachFactory(username="coach-feed")
    program = build_program(
        weeks=1, sessions=2, exercises=2, start_date=timezone.localdate(), coach=coach
    )
    conversation = services.conversation_for_athlete(athlete=program.athlete)
    log_in(page, live_server, program.athlete)
    page.evaluate(SET_VISIBILITY, "hidden")

    services.coach_post(conversation=conversation, coach=coach, text="Easy run <b>today</b>")
    post = page.locator(".bubble-from-coach")
    expect(post).to_contain_text("Easy run <b>today</b>", timeout=REPLY_TIMEOUT)  # as text
    expect(page).to_have_title("(1) New reply · Spotter")

    Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        status=Message.Status.COMPLETE,
        content="Reminder: creatine (08:00)",
    )
    expect(page.locator(".bubble-coach").last).to_have_text(
        "Reminder: creatine (08:00)", timeout=REPLY_TIMEOUT
    )
    expect(page).to_have_title("(2) New replies · Spotter")
    page.wait_for_timeout(1500)  # three more feed ticks: each message is on the page once
    expect(post).to_have_count(1)
    expect(page.locator(".bubble-coach", has_text="Reminder: creatine")).to_have_count(1)
    page.evaluate(SET_VISIBILITY, "visible")
    expect(page).to_have_title("Chat · Spotter")
