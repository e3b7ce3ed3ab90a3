"""Staff in a real browser: from the admin index to the Tool call audit log, filtered by tool,
then exported as CSV (issue 6, "Done means")."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import needs_chromium
from tests.chat.admin_helpers import make_staff, record
from tests.factories import ConversationFactory, build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_staff_open_the_audit_log_filter_it_by_tool_and_export_it(
    browser, live_server, tmp_path: Path
):
    staff = make_staff("staff-sam")
    conversation = ConversationFactory(program=build_program(weeks=1, sessions=3, exercises=2))
    record(conversation, tool="modify_exercise")
    record(conversation, tool="remove_session", arguments={"weekNumber": 1, "sessionNumber": 3})
    record(conversation, tool="modify_exercise", call_id="call_2")
    client = Client()
    client.force_login(staff)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value

    context = browser.new_context(accept_downloads=True)
    try:
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(live_server.url + "/admin/")
        page.locator("#tool-call-audit-log-link").click()
        expect(page.locator("#result_list tbody tr")).to_have_count(3)

        page.locator("#changelist-filter").get_by_role("link", name="remove_session").click()
        expect(page.locator("#result_list tbody tr")).to_have_count(1)
        expect(page.locator("#result_list tbody")).to_contain_text("remove_session")

        with page.expect_download() as download_info:
            page.locator("#export-csv").click()
        path = tmp_path / "export.csv"
        download_info.value.save_as(path)
    finally:
        context.close()

    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert [row["tool"] for row in rows] == ["remove_session"]
    assert rows[0]["arguments"] == '{"sessionNumber": 3, "weekNumber": 1}'
