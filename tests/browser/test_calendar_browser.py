"""Seed 003 end to end in a real browser with the offline coach: search the library, schedule a
workout weekly for 4 weeks, Apply, see the 4 sessions on the calendar (grid and phone list),
follow the coach's link to the calendar, and download the feed and parse it with icalendar; then
Move a session on the calendar, Apply the card in the chat and see the new date."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings as django_settings
from django.test import Client
from icalendar import Calendar
from playwright.sync_api import Page, expect

from library.demo import seed_library_demo
from library.models import LibraryWorkout
from programs.models import Session
from tests.browser.conftest import needs_chromium
from tests.factories import CoachFactory, UserFactory, build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def log_in(page: Page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": django_settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )


def send(page: Page, text: str) -> None:
    box = page.get_by_role("textbox", name="Message")
    box.fill(text)
    page.get_by_role("button", name="Send", exact=True).click()
    # The first turn of a process loads the token vocabulary (several seconds on a busy machine)
    # before the response that shows the bubble.
    expect(page.locator(".bubble-user").last).to_have_text(text, timeout=30_000)
    expect(page.locator(".bubble-thinking")).to_have_count(0)


def test_find_schedule_weekly_apply_then_see_the_calendar_and_the_feed(
    page: Page, live_server, settings, artifacts
):
    settings.LLM_PROVIDER = "offline"
    athlete, coach = UserFactory(), CoachFactory()
    # Six weeks from Monday 2026-11-02 to Sunday 2026-12-13, two sessions a week.
    build_program(weeks=6, sessions=2, exercises=2, athlete=athlete, coach=coach)
    seed_library_demo(coach=coach, athlete=athlete)
    log_in(page, live_server, athlete)
    page.goto(live_server.url + "/")

    send(page, "find workouts legs")
    answer = page.locator(".bubble-coach").last
    expect(answer).to_contain_text("Found these workouts:")
    expect(answer).to_contain_text("Leg Day Destroyer: ")  # in words: the title as written
    workout_id = LibraryWorkout.objects.get(title="Leg Day Destroyer").pk  # no ids in the words
    expect(page.locator("#batch-card .preview-card")).to_have_count(0)  # a search applies nothing

    send(page, f"schedule workout {workout_id} on 2026-11-04 weekly 4")
    card = page.locator("#batch-card .preview-card")
    expect(card).to_be_visible()
    expect(card.locator(".change")).to_have_count(4)
    for day in ("2026-11-04", "2026-11-11", "2026-11-18", "2026-11-25"):
        expect(card).to_contain_text(day)
    assert not Session.objects.filter(name="Leg Day Destroyer").exists()
    page.screenshot(path=str(artifacts / "calendar-schedule-card.png"))
    page.get_by_role("button", name="Apply Changes").click()
    expect(card).to_have_count(0)
    expect(page.locator(".bubble-coach").last).to_contain_text("applied")
    assert Session.objects.filter(name="Leg Day Destroyer").count() == 4

    send(page, "go to calendar")
    page.get_by_role("link", name="Open the calendar →").click()
    expect(page).to_have_url(re.compile(r"/training/calendar/$"))

    page.goto(live_server.url + "/training/calendar/?view=month&date=2026-11")
    expect(page.get_by_role("heading", name="November 2026")).to_be_visible()
    grid = page.locator(".calendar-grid .cal-session", has_text="Leg Day Destroyer")
    expect(grid).to_have_count(4)
    for day in ("2026-11-04", "2026-11-11", "2026-11-18", "2026-11-25"):
        expect(page.locator(f'.calendar-grid td[data-date="{day}"]')).to_contain_text(
            "Leg Day Destroyer"
        )
    page.screenshot(path=str(artifacts / "calendar-month-desktop.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".calendar-grid")).to_be_hidden()
    phone = page.locator(".calendar-list .cal-session", has_text="Leg Day Destroyer")
    expect(phone).to_have_count(4)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "calendar-month-phone.png"), full_page=True)

    page.goto(live_server.url + "/settings/calendar/")
    address = page.get_by_label("Your feed address").input_value()
    response = page.request.get(address)
    assert response.status == 200
    events = Calendar.from_ical(response.body()).walk("VEVENT")
    scheduled = sorted(
        event.decoded("dtstart") for event in events if str(event["summary"]) == "Leg Day Destroyer"
    )
    assert scheduled == [datetime.date(2026, 11, 4) + datetime.timedelta(weeks=n) for n in range(4)]
    assert len({str(event["uid"]) for event in events}) == len(events) == 12 + 4


def test_move_a_session_on_the_calendar_apply_in_the_chat_then_see_the_new_date(
    page: Page, live_server, settings, artifacts
):
    settings.LLM_PROVIDER = "offline"
    athlete, coach = UserFactory(), CoachFactory()
    # Six weeks from Monday 2026-11-02 to Sunday 2026-12-13, two sessions a week (Mon, Tue).
    program = build_program(weeks=6, sessions=2, exercises=2, athlete=athlete, coach=coach)
    moved = Session.objects.get(week__program=program, week__position=6, position=1)
    assert moved.scheduled_date == datetime.date(2026, 12, 7)
    log_in(page, live_server, athlete)
    page.set_viewport_size({"width": 1280, "height": 900})

    page.goto(live_server.url + "/training/calendar/?view=month&date=2026-12")
    day = page.locator('.calendar-grid td[data-date="2026-12-07"]')
    expect(day.locator(".cal-session")).to_have_text(re.compile("Session 1"))
    day.locator(".cal-move summary").click()
    day.get_by_label("New date").fill("2026-12-10")
    day.get_by_role("button", name="Propose the move").click()

    # The chat, with the card: the date before → after, and nothing moved yet.
    expect(page).to_have_url(live_server.url + "/")
    card = page.locator("#batch-card .preview-card")
    expect(card).to_be_visible()
    expect(card.locator("del")).to_contain_text("2026-12-07")
    expect(card.locator("ins")).to_contain_text("2026-12-10")
    moved.refresh_from_db()
    assert moved.scheduled_date == datetime.date(2026, 12, 7)
    page.screenshot(path=str(artifacts / "calendar-move-card.png"))
    page.get_by_role("button", name="Apply Changes").click()
    expect(card).to_have_count(0)
    expect(page.locator(".bubble-coach").last).to_contain_text("applied")
    moved.refresh_from_db()
    assert moved.scheduled_date == datetime.date(2026, 12, 10)
    # With the card gone the chat offers its plan buttons again (sent with the decision).
    expect(page.get_by_role("button", name="Not feeling 100%")).to_be_visible()

    page.goto(live_server.url + "/training/calendar/?view=month&date=2026-12")
    expect(page.locator('.calendar-grid td[data-date="2026-12-10"] .cal-session')).to_contain_text(
        "Session 1"
    )
    expect(page.locator('.calendar-grid td[data-date="2026-12-07"] .cal-session')).to_have_count(0)
    page.screenshot(path=str(artifacts / "calendar-after-move.png"), full_page=True)
