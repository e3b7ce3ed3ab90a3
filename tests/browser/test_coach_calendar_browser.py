"""A coach in a real browser on an athlete's calendar (issue 22, parts 2 and 4): drag a session
onto a day the athlete marked as one they can't train, read the preview (the chat card's
before → after, and the warning in words), apply it, see it on the reloaded grid, and undo it."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from programs.models import Session
from tests.browser.conftest import needs_chromium, signed_in
from tests.training.calendar_support import coached_program, session
from training.models import UnavailableDay

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

FRIDAY = datetime.date(2026, 11, 6)


def test_drag_a_session_to_another_day_preview_apply_and_undo(browser, live_server, artifacts):
    program = coached_program("coach-ann", name="Ann's block")
    first = session(program, 1, 1)
    UnavailableDay.objects.create(athlete=program.athlete, date=FRIDAY, note="Exams")
    context, page = signed_in(browser, live_server, program.coach)
    try:
        page.goto(f"{live_server.url}/admin/calendar/{program.athlete.pk}/?date=2026-11-02")
        chip = page.locator(f"#cal-grid [data-session='{first.pk}']")
        friday = page.locator("#cal-grid td[data-date='2026-11-06']")
        expect(friday).to_contain_text("Can't train: Exams")

        chip.drag_to(friday)
        result = page.locator("#cal-result")
        expect(result).to_contain_text("Preview: what will change")
        expect(result).to_contain_text("2026-11-02 (Monday)")
        expect(result).to_contain_text("2026-11-06 (Friday)")
        expect(result).to_contain_text("marked as one they can't train on")
        assert Session.objects.get(pk=first.pk).scheduled_date == datetime.date(2026, 11, 2)
        page.screenshot(path=artifacts / "coach-calendar-preview.png", full_page=True)

        page.locator("#cal-apply").click()
        expect(result).to_contain_text("Saved 1 change as one change.")
        expect(friday.locator(f"[data-session='{first.pk}']")).to_have_count(1)
        assert Session.objects.get(pk=first.pk).scheduled_date == FRIDAY

        page.locator("#cal-undo").click()
        expect(result).to_contain_text("Undid")
        monday = page.locator("#cal-grid td[data-date='2026-11-02']")
        expect(monday.locator(f"[data-session='{first.pk}']")).to_have_count(1)
        assert Session.objects.get(pk=first.pk).scheduled_date == datetime.date(2026, 11, 2)
    finally:
        context.close()
