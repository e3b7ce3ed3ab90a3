"""Wellness in a real browser: the athlete states what they took, the offline coach logs it at
once, the chat shows it with Undo, and Undo removes it (seed 004)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.browser.conftest import needs_chromium
from tests.browser.test_chat_browser import log_in
from tests.factories import build_program
from wellness.models import MedicationLog

SLOW = 30_000  # ms: the turn runs inside the request (eager Celery) on a shared, busy machine


def send(page: Page, text: str) -> None:
    box = page.get_by_role("textbox", name="Message")
    box.fill(text)
    page.get_by_role("button", name="Send", exact=True).click()
    expect(box).to_have_value("", timeout=SLOW)
    expect(page.locator(".bubble-user").last).to_have_text(text)


pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_i_took_my_creatine_is_logged_with_undo(page: Page, live_server, settings, artifacts):
    settings.LLM_PROVIDER = "offline"
    program = build_program(weeks=1, sessions=2, exercises=3, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)

    send(page, "I took my creatine this morning")
    expect(page.locator(".bubble-coach").last).to_contain_text("I'll log that", timeout=SLOW)
    line = page.locator(".event-line").last
    expect(line).to_contain_text("Logged supplement creatine")  # in words, not quoted data
    expect(line).to_contain_text("morning")
    expect(line.get_by_role("button", name="Undo")).to_be_visible()
    expect(page.locator(".preview-card")).to_have_count(0)  # nothing waits for Apply
    log = MedicationLog.objects.get()
    assert (log.name, log.part_of_day, log.athlete_id) == (
        "creatine",
        "morning",
        program.athlete_id,
    )
    page.screenshot(path=str(artifacts / "wellness-logged.png"))

    line.get_by_role("button", name="Undo").click()
    expect(page.locator(".event-line").last).to_contain_text("You undid 1 log", timeout=SLOW)
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)
    assert not MedicationLog.objects.exists()

    page.goto(live_server.url + "/wellness/")
    expect(page.locator("h1")).to_have_text("Wellness")
    expect(page.locator("#h-medication + ul")).to_contain_text("None yet")
