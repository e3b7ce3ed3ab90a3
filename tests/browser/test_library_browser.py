"""The library and the calendar feed in a real browser at phone width: search as you type (htmx),
open a workout, rotate the feed address and download the feed."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from icalendar import Calendar
from playwright.sync_api import Page, expect

from library.demo import seed_library_demo
from library.models import CalendarFeed
from tests.browser.conftest import needs_chromium
from tests.factories import CoachFactory, UserFactory, build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def log_in(page: Page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )


def test_search_as_you_type_open_a_workout_and_download_the_rotated_feed(
    page: Page, live_server, artifacts
):
    athlete, coach = UserFactory(), CoachFactory()
    build_program(weeks=2, sessions=3, exercises=2, athlete=athlete, coach=coach)
    seed_library_demo(coach=coach, athlete=athlete)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, athlete)

    page.goto(live_server.url + "/library/")
    expect(page.locator(".workout-card")).to_have_count(42)
    page.get_by_role("searchbox", name="Search workouts").fill("leg")
    expect(page.locator(".result-count")).to_contain_text("for “leg”")
    expect(page.locator(".workout-card h2").first).to_have_text("Leg Day Destroyer")
    assert page.url.endswith("/library/?q=leg")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the library page must not scroll sideways on a phone"
    page.screenshot(path=str(artifacts / "library-phone.png"), full_page=True)

    page.get_by_role("link", name="Leg Day Destroyer").click()
    expect(page.get_by_role("heading", name="Leg Day Destroyer")).to_be_visible()
    expect(page.locator(".exercise-list")).to_contain_text("Back Squat")

    page.goto(live_server.url + "/settings/calendar/")
    old = page.get_by_label("Your feed address").input_value()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Make a new address").click()
    expect(page.get_by_role("status")).to_contain_text("the old one no longer works")
    new = page.get_by_label("Your feed address").input_value()
    assert new != old and CalendarFeed.objects.get(athlete=athlete).token in new

    assert page.request.get(old).status == 404
    response = page.request.get(new)
    assert response.status == 200
    events = Calendar.from_ical(response.body()).walk("VEVENT")
    assert len(events) == 6
