"""The coach's whole morning on the demo, in a real browser (issue 21): the flagged athlete is on
top of the admin index, the evidence opens, the waiting review is approved from the inbox, a
message goes to the athlete, and the athlete then sees it in their chat, labelled as their coach."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from chat.models import PendingToolBatch
from tests.browser.conftest import needs_chromium, signed_in

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_the_demo_coach_sees_the_flag_approves_the_review_and_writes_to_the_athlete(
    browser, live_server
):
    call_command("seed_demo")
    users = get_user_model().objects
    coach, jamie = users.get(username="coach"), users.get(username="jamie")
    waiting = PendingToolBatch.objects.get(conversation__athlete=jamie)

    context, page = signed_in(browser, live_server, coach)
    try:
        page.goto(f"{live_server.url}/admin/")
        top = page.locator("#roster-top .roster-top-row").first
        expect(top).to_have_attribute("data-athlete", "jamie")
        top.get_by_role("link", name="Pain, injury", exact=False).click()
        expect(page.locator("#evidence")).to_contain_text("Left knee is sore")

        page.goto(f"{live_server.url}/admin/inbox/reviews/")
        review = page.locator(f"#review-{waiting.pk}")
        expect(review).to_contain_text("remove week 3 session 5")  # the athlete's own message
        review.get_by_role("button", name="Approve", exact=True).click()
        expect(page.locator(".messagelist")).to_contain_text("Approved")

        page.goto(f"{live_server.url}/admin/inbox/athletes/{jamie.pk}/")
        page.locator("#compose-text").fill("Saw the knee note: let's talk before Friday.")
        page.get_by_role("button", name="Send").click()
        expect(page.locator("#thread")).to_contain_text("let's talk before Friday")
    finally:
        context.close()
    waiting.refresh_from_db()
    assert waiting.status == PendingToolBatch.BatchStatus.APPLIED

    context, page = signed_in(browser, live_server, jamie)
    try:
        page.goto(f"{live_server.url}/")
        bubble = page.locator(".bubble-from-coach")
        expect(bubble).to_contain_text("Your coach")
        expect(bubble).to_contain_text("let's talk before Friday")
        expect(page.locator(".event-line").last).to_contain_text("Your coach approved")
    finally:
        context.close()
