"""A coach in a real browser on the one-page program editor (issue 22, part 1): drag an exercise to
another session, preview it (the chat card's before → after), apply it, see it in the program,
and undo it; the page fits a 1,280 px screen and a tablet without scrolling sideways."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Page, expect

from programs.models import Session
from tests.browser.conftest import needs_chromium
from tests.factories import build_program
from tests.programs.admin_support import exercise_names, make_coach

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def log_in(page: Page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": django_settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )


def open_editor(page: Page, live_server, program) -> None:
    page.goto(f"{live_server.url}/admin/programs/program/{program.pk}/editor/")
    expect(page.locator(".program-editor[data-ready='1']")).to_be_attached()


def drag(page: Page, source, target) -> None:
    """Drag with the mouse, in small steps, as a person does (SortableJS follows the pointer)."""
    start, end = source.bounding_box(), target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] * 0.75, steps=25)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] + 3, steps=5)
    page.mouse.up()


def sessions(program) -> list[Session]:
    return list(Session.objects.filter(week__program=program).order_by("position"))


def test_drag_an_exercise_across_sessions_preview_apply_see_it_and_undo_it(page: Page, live_server):
    coach = make_coach("coach-ann")
    program = build_program(weeks=1, sessions=2, exercises=2, coach=coach, name="Ann's block")
    first, second = sessions(program)
    assert exercise_names(first) == ["Back Squat", "Bench Press"]
    log_in(page, live_server, coach)
    open_editor(page, live_server, program)

    source = page.locator(f".ed-session[data-id='{first.pk}'] .ed-exercise").first
    target = page.locator(f".ed-session[data-id='{second.pk}'] .ed-exercise").last
    moving = source.get_attribute("data-id")
    drag(page, source.locator(".ed-handle"), target)
    second_box = page.locator(f".ed-session[data-id='{second.pk}'] .ed-exercise")
    expect(second_box).to_have_count(3)
    ids = second_box.evaluate_all("els => els.map(e => e.dataset.id)")
    place = ids.index(moving) + 1  # where the page shows it dropped: the card must agree
    dropped = second_box.locator(".ed-name").evaluate_all("els => els.map(e => e.value)")

    page.locator("#ed-preview").click()
    card = page.locator("#ed-result")
    expect(card).to_contain_text("Preview: what will change")
    expect(card).to_contain_text("Remove an exercise")
    expect(card).to_contain_text(f"Week 1, Session 2, Exercise {place}: Back Squat")
    assert exercise_names(first) == ["Back Squat", "Bench Press"]  # a preview writes nothing

    page.locator("#ed-apply").click()
    expect(card).to_contain_text("Saved")
    assert exercise_names(first) == ["Bench Press"]
    assert exercise_names(second) == dropped

    page.locator("#ed-reload").click()
    expect(page.locator(".program-editor[data-ready='1']")).to_be_attached()
    moved = page.locator(f".ed-session[data-id='{second.pk}'] .ed-exercise .ed-name")
    expect(moved.nth(place - 1)).to_have_value("Back Squat")

    page.locator("#ed-undo-last").click()  # the editor offers the Undo of its last save
    expect(page.locator("ul.messagelist")).to_contain_text("Undid change #1")
    assert exercise_names(first) == ["Back Squat", "Bench Press"]
    open_editor(page, live_server, program)
    names = page.locator(f".ed-session[data-id='{first.pk}'] .ed-exercise .ed-name")
    expect(names.first).to_have_value("Back Squat")


@pytest.mark.parametrize(("width", "height"), [(1280, 860), (1024, 768), (768, 1024)])
def test_the_editor_never_scrolls_sideways(page: Page, live_server, width, height):
    coach = make_coach("coach-ann")
    program = build_program(weeks=3, sessions=5, exercises=5, coach=coach)
    page.set_viewport_size({"width": width, "height": height})
    log_in(page, live_server, coach)
    open_editor(page, live_server, program)
    page.locator(".ed-more").first.locator("summary").click()  # the extra fields, opened
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow}px of horizontal scroll at {width}px"
