"""Every page on a phone, 390 × 844 CSS pixels (issue 18 item 24): nothing wider than the
screen, every navigation link visible or one tap away in the opened menu, and on the chat page
the program panel collapsed so the chat gets the screen."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page

from chat.models import Conversation
from nutrition.access import household_for
from nutrition.models import GroceryList, Recipe
from tests.browser.conftest import needs_chromium
from tests.chat.admin_helpers import make_coach
from tests.factories import (
    ActivityFactory,
    ExerciseFactory,
    LibraryWorkoutFactory,
    SessionFactory,
    build_program,
)

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def log_in(page: Page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.clear_cookies()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )


def overflow(page: Page) -> int:
    """How many CSS pixels the document is wider than the screen."""
    return page.evaluate("document.documentElement.scrollWidth") - WIDTH


def widest(page: Page) -> list[str]:
    """The innermost elements that reach past the screen's right edge (for the message)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
        .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > innerWidth + 1))
        .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + ' ' + e.textContent.trim().slice(0, 30))"""
    )


def nav_links_reachable(page: Page) -> list[str]:
    """The top navigation's links that are neither inside the screen nor revealed by opening the
    menu (its toggle, when the page has one)."""
    toggle = page.locator(".nav-toggle")
    if toggle.count() and toggle.is_visible():
        toggle.click()
    hidden = []
    for link in page.locator(".topnav a").all():
        box = link.bounding_box()
        if not link.is_visible() or box is None or box["x"] < 0 or box["x"] + box["width"] > WIDTH:
            hidden.append(link.inner_text())
    return hidden


@pytest.fixture
def world(db):
    coach = make_coach("coach-phone")
    today = datetime.date.today()
    program = build_program(weeks=2, sessions=3, exercises=3, coach=coach, start_date=today)
    athlete = program.athlete
    conversation = Conversation.objects.create(program=program, athlete=athlete)
    session = SessionFactory(
        week=program.weeks.first(), scheduled_date=today, name="A long session name for a phone"
    )
    ExerciseFactory(session=session, name="Romanian Deadlift", warmup_sets=2, working_sets=3)
    home = household_for(athlete, create=True)
    recipe = Recipe.objects.create(household=home, title="Overnight oats with berries and yoghurt")
    groceries = GroceryList.objects.create(household=home, name="This week")
    activity = ActivityFactory(athlete=athlete, local_date=today)
    workout = LibraryWorkoutFactory(owner=athlete, title="Hill repeats, eight by ninety seconds")
    return {
        "athlete": athlete,
        "coach": coach,
        "pages": [
            "/",
            f"/conversations/{conversation.pk}/",
            "/conversations/",
            "/training/calendar/",
            "/training/calendar/?view=week",
            "/training/fitness/",
            "/training/activities/",
            f"/training/activities/{activity.pk}/",
            "/training/log/",
            f"/training/log/{session.pk}/",
            "/training/settings/",
            "/training/import/",
            "/food/meals/",
            "/food/recipes/",
            f"/food/recipes/{recipe.pk}/",
            "/food/lists/",
            f"/food/lists/{groceries.pk}/",
            "/food/household/",
            "/wellness/",
            "/library/",
            f"/library/{workout.pk}/",
            "/settings/calendar/",
        ],
    }


def test_every_page_fits_a_phone_and_its_navigation_is_reachable(
    phone: Page, live_server, world, artifacts
):
    log_in(phone, live_server, world["athlete"])
    problems = []
    for path in world["pages"]:
        phone.goto(live_server.url + path)
        if path.startswith("/training/log/"):
            phone.screenshot(path=str(artifacts / "phone-log-390.png"), full_page=True)
        if (extra := overflow(phone)) > 1:
            problems.append(f"{path}: {extra}px wider than the screen: {widest(phone)}")
        if hidden := nav_links_reachable(phone):
            problems.append(f"{path}: navigation links out of reach: {hidden}")
    log_in(phone, live_server, world["coach"])
    phone.goto(live_server.url + "/admin/")
    if (extra := overflow(phone)) > 1:
        problems.append(f"/admin/ (coach): {extra}px wider than the screen: {widest(phone)}")
    assert not problems, "\n".join(problems)


def test_the_program_panel_leaves_the_chat_the_screen_on_a_phone(
    phone: Page, live_server, world, artifacts
):
    log_in(phone, live_server, world["athlete"])
    phone.goto(live_server.url + "/")
    phone.screenshot(path=str(artifacts / "phone-chat-390.png"))
    # what the week takes of the screen: its toggle, and the panel if it shows
    toggle = phone.locator(".program-toggle").bounding_box()
    panel = phone.locator("#program-panel").bounding_box() or {"height": 0}
    taken = toggle["height"] + panel["height"]
    assert taken <= HEIGHT * 0.25, f"the program panel takes {taken}px of {HEIGHT}"
    composer = phone.locator("#id_text, textarea[name=text]").first
    composer_box = composer.bounding_box()
    assert composer_box["y"] + composer_box["height"] <= HEIGHT  # the composer is on screen
    # the week is one tap away
    phone.locator(".program-toggle").click()
    assert phone.locator("#program-panel .sessions").is_visible()
    phone.screenshot(path=str(artifacts / "phone-chat-390-program-open.png"))
    assert nav_links_reachable(phone) == []  # opens the menu
    phone.screenshot(path=str(artifacts / "phone-menu-390.png"))
    phone.keyboard.press("Escape")  # a popover: Escape (or a tap outside) closes it
    assert not phone.locator(".topnav").is_visible()
