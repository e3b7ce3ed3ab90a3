"""The coach in a real browser, on the demo: signs in, finds the flagged athlete on top of the
admin index, opens the sore-knee flag's evidence and resolves it; then the roster and the
athlete's page with its calendar and fitness chart drawn (issue 21)."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from roster.models import Flag, FlagKind, FlagStatus
from tests.browser.conftest import needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_the_demo_coach_finds_the_flagged_athlete_on_top_and_resolves_a_flag(live_server, page):
    call_command("seed_demo")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "coach")
    page.fill("input[name=password]", "spotter-coach")
    page.click("button[type=submit], input[type=submit]")
    page.goto(f"{live_server.url}/admin/")

    top = page.locator("#roster-top .roster-top-row").first
    expect(top).to_have_attribute("data-athlete", "jamie")
    top.get_by_role("link", name=re.compile("Pain, injury")).click()

    expect(page.locator("#evidence")).to_contain_text("Left knee is sore after the lunges")
    expect(page.locator("#evidence-link")).to_be_visible()
    page.get_by_placeholder("note (optional)").fill("Called Jamie, physio booked")
    page.locator("button.resolve-flag").click()
    expect(page.locator("ul.messagelist")).to_contain_text("Flag resolved.")
    expect(page.locator("#flag-actions")).to_contain_text("Resolved by coach")
    flag = Flag.objects.get(athlete__username="jamie", kind=FlagKind.PAIN)
    assert (flag.status, flag.decided_by.username) == (FlagStatus.RESOLVED, "coach")

    page.goto(f"{live_server.url}/admin/roster/")
    rows = page.locator("#roster tbody tr.roster-row")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-athlete", "jamie")
    expect(rows.first.locator("svg.spark")).to_have_count(1)
    rows.first.get_by_role("link", name="Jamie").click()
    expect(page.locator("#coach-calendar .colour-red").first).to_be_visible()
    expect(page.locator("#fitness-chart canvas").first).to_be_attached()
    expect(page.locator("#program-history .history-link")).to_have_count(1)
