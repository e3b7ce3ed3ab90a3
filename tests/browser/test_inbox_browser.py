"""A coach in a real browser (issue 21): the admin header's badge leads to the review inbox, the
coach approves a review there, writes to the athlete, and the athlete sees the message in their
chat, labelled as their coach, with the unread badge until it is shown."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from chat import proposals
from chat.models import CoachReview, Message, PendingToolBatch
from chat.proposals.core import context_for
from chat.proposals.lifecycle import queue
from coach import engine
from coach.toolcalls import ToolCall
from tests.browser.conftest import needs_chromium
from tests.chat.admin_helpers import REMOVE_SESSION, make_coach
from tests.factories import UserFactory
from tests.inbox.conftest import conversation_of

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def sent_for_review(conversation) -> PendingToolBatch:
    """The model's proposal to remove a session, answering the athlete's message, which the
    athlete sent to their coach (made without the agent: in a live-server test the eager task
    would answer with the offline coach)."""
    call_id, name, arguments = REMOVE_SESSION
    calls = [ToolCall.from_raw({"id": call_id, "name": name, "arguments": arguments})]
    athlete = conversation.athlete
    preview = engine.preview_calls(ctx=context_for(conversation, user=athlete), calls=calls)
    batch = queue(conversation=conversation, batch=None, calls=calls, preview=preview)
    asked = Message.objects.create(
        conversation=conversation, role="user", content="I can't make Saturday, drop it"
    )
    Message.objects.create(
        conversation=conversation, role="assistant", content="Shall I?", reply_to=asked, batch=batch
    )
    CoachReview.objects.create(athlete=athlete, enabled=True)
    decision = proposals.apply(batch_id=batch.pk, user=athlete, revision=batch.revision)
    assert decision.outcome == "review_requested"
    return batch


def signed_in(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def test_a_coach_approves_from_the_inbox_and_the_athlete_reads_their_message(
    browser, live_server, artifacts
):
    coach = make_coach("coach-ann")
    athlete = UserFactory(username="alex")
    conversation = conversation_of(athlete, coach)
    batch = sent_for_review(conversation)

    context, page = signed_in(browser, live_server, coach)
    try:
        page.goto(live_server.url + "/admin/")
        badge = page.locator("#inbox-badge")
        expect(badge).to_contain_text("Reviews 1")
        badge.get_by_role("link", name="Reviews").click()
        review = page.locator(f"#review-{batch.pk}")
        expect(review).to_contain_text("Remove a session")
        expect(review).to_contain_text("I can't make Saturday, drop it")
        page.screenshot(path=str(artifacts / "inbox-reviews.png"), full_page=True)
        review.locator("textarea[name=note]").fill("Good call, rest up")
        review.get_by_role("button", name="Approve", exact=True).click()
        expect(page.locator(".messagelist")).to_contain_text("Approved")
        expect(page.locator("#no-reviews")).to_be_visible()

        page.goto(live_server.url + f"/admin/inbox/athletes/{athlete.pk}/")
        page.locator("#compose-text").fill("Great week <b>so far</b>!")
        page.get_by_role("button", name="Send").click()
        expect(page.locator("#thread")).to_contain_text("Great week <b>so far</b>!")
    finally:
        context.close()
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.APPLIED

    context, page = signed_in(browser, live_server, athlete)
    try:
        page.goto(live_server.url + "/notifications/")  # a page without the chat: the badge only
        expect(page.locator("#unread-badge .badge-unread")).to_contain_text("1")
        page.goto(live_server.url + "/")
        bubble = page.locator(".bubble-from-coach")
        expect(bubble).to_contain_text("Your coach · coach-ann")
        expect(bubble).to_contain_text("Great week <b>so far</b>!")  # shown as text, not HTML
        expect(page.locator(".event-line").last).to_contain_text("Your coach approved")
        expect(page.locator("#unread-badge .badge-unread")).to_have_count(0)
        page.screenshot(path=str(artifacts / "inbox-athlete-chat.png"))
    finally:
        context.close()
