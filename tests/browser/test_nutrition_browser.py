"""Nutrition in a real browser: ask the offline coach to add two recipes' ingredients to a list,
Apply, see the merged quantities on the grocery list at phone width and tick one off (htmx)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Page, expect

from nutrition.ingredients import load_known_ingredients
from nutrition.models import GroceryItem
from tests.browser.conftest import needs_chromium
from tests.factories import build_program
from tests.nutrition.helpers import kitchen

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def log_in(page: Page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    page.goto(live_server.url + "/")


def test_push_two_recipes_from_the_chat_apply_and_tick_off_the_merged_list(
    page: Page, live_server, settings, artifacts
):
    settings.LLM_PROVIDER = "offline"
    load_known_ingredients()
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    _, bowl, stir_fry, groceries = kitchen(program.athlete)
    log_in(page, live_server, program.athlete)

    box = page.get_by_role("textbox", name="Message")
    box.fill(f"add recipes {bowl.pk} and {stir_fry.pk} to list Groceries")
    page.get_by_role("button", name="Send", exact=True).click()
    # The first turn in a fresh process loads the token counter (seconds on a busy machine).
    expect(box).to_have_value("", timeout=30_000)
    card = page.locator("#batch-card .preview-card")
    # The first recipe's rice is added (1 cup); the second's half cup is its own step into that
    # item, 1 → 1.5 (each push shows its own step, not the final total).
    expect(card).to_contain_text("1 cup rice", timeout=30_000)
    expect(card).to_contain_text(
        re.compile(r"change\s+groceries: rice\s+quantity\s+1\s*→\s*to\s*1\.5\b", re.I)
    )
    expect(card).to_contain_text("500 g chicken")
    assert not GroceryItem.objects.exists()  # nothing changes before Apply

    page.get_by_role("button", name="Apply Changes").click()
    expect(card).to_have_count(0)
    expect(page.get_by_role("button", name="Undo")).to_be_visible()

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/food/lists/{groceries.pk}/")
    items = page.locator(".grocery-item")
    expect(items).to_have_count(5)
    expect(items.nth(0)).to_contain_text("1.5 cup rice")
    expect(items.nth(1)).to_contain_text("1 lb chicken")
    expect(items.nth(3)).to_contain_text("500 g chicken")
    expect(items.nth(4)).to_contain_text("1 whole onion, chopped")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("button", name="Tick off rice").click()
    expect(page.locator(".grocery-item.checked")).to_contain_text("rice")
    assert GroceryItem.objects.get(name="rice").checked
    page.screenshot(path=str(artifacts / "grocery-list-phone.png"), full_page=True)
