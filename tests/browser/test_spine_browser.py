"""The proposal spine in a real browser: propose, Edit a value, Save, Apply, Undo."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from chat.models import BatchDecision, ToolCallRecord
from tests.browser.conftest import needs_chromium
from tests.browser.test_chat_browser import card, exercise, log_in, send
from tests.chat.admin_helpers import make_staff
from tests.factories import build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_edit_save_apply_then_undo(page: Page, live_server, settings, artifacts):
    settings.LLM_PROVIDER = "offline"
    program = build_program(weeks=1, sessions=2, exercises=3, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)

    send(page, "rename exercise 1.1.1 to Goblet Squat")
    expect(card(page)).to_contain_text("Goblet Squat")
    card(page).get_by_role("button", name="Edit").click()
    name = card(page).locator('input[name="f:updates.name"]')
    expect(name).to_have_value("Goblet Squat")
    name.fill("")
    card(page).get_by_role("button", name="Save").click()
    expect(card(page).locator(".field-error")).to_contain_text("must not be empty")
    name = card(page).locator('input[name="f:updates.name"]')
    name.fill("Front Squat")
    card(page).get_by_role("button", name="Save").click()
    expect(card(page).locator(".item-edit")).to_have_count(0)
    expect(card(page)).to_contain_text("Front Squat")
    page.screenshot(path=str(artifacts / "spine-edited.png"))

    page.get_by_role("button", name="Apply Changes").click()
    expect(card(page)).to_have_count(0)
    expect(page.locator(".event-line").last).to_contain_text(
        "You applied 1 change (with your edits)"
    )
    expect(page.locator("#program-panel")).to_contain_text("Front Squat")
    expect(page.locator(".bubble-thinking")).to_have_count(0)
    assert exercise(program).name == "Front Squat"
    record = ToolCallRecord.objects.get()
    assert record.arguments["updates"]["name"] == "Goblet Squat"
    assert record.applied_arguments["updates"]["name"] == "Front Squat"

    page.get_by_role("button", name="Undo").click()
    expect(page.locator(".event-line").last).to_contain_text("You undid 1 change")
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)
    expect(page.locator("#program-panel")).to_contain_text("Back Squat")
    expect(page.locator(".bubble-thinking")).to_have_count(0)
    expect(page.locator(".bubble-coach").last).to_contain_text("Undone")
    assert exercise(program).name == "Back Squat"
    assert BatchDecision.objects.filter(kind="undone").count() == 1
    page.screenshot(path=str(artifacts / "spine-undone.png"))

    # Staff review the same calls in the audit log, filtered by tool.
    staff_page = page.context.browser.new_context().new_page()
    log_in(staff_page, live_server, make_staff("staff-rita"))
    staff_page.goto(live_server.url + "/admin/")
    staff_page.get_by_role("link", name="Tool call audit log").first.click()
    filters = staff_page.locator("#changelist-filter")
    filters.get_by_role("link", name="modify_exercise").click()
    rows = staff_page.locator("#result_list tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("modify_exercise")
    expect(rows.first).to_contain_text("Undone")
    staff_page.screenshot(path=str(artifacts / "spine-audit-log.png"))
    staff_page.context.close()
