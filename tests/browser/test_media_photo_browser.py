"""A recipe from a photo in a real browser: an athlete without a training program picks a file
with the recipes page's photo button (keeping the photo), the reading appears under it (every
line, the unread one too), the card shows recipe_create's dry run, the athlete corrects a line,
and Apply saves it, with the photo shown on the recipe's page. The engine is replaced by a fixed reading here (the live server
runs in the test's process); tests/media/test_photo_flow.py runs the real one."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from media import services
from media.ocr import Line
from nutrition.ingredients import load_known_ingredients
from nutrition.models import Recipe
from tests.browser.conftest import needs_chromium
from tests.factories import UserFactory
from tests.media.conftest import picture

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

CARD = [Line("Oat Bowl", 34, 0.9), Line("Serves 1", 20, 0.9), Line("Ingredients", 20, 0.9),
        Line("1/2 cup rolled oats", 20, 0.9), Line("1 tsp honey", 20, 0.9),
        Line("a handful of love", 20, 0.9), Line("Method", 20, 0.9), Line("1. Mix.", 20, 0.9)]  # fmt: skip


def test_a_photo_picked_on_the_recipes_page_becomes_a_recipe_after_apply(
    page, live_server, monkeypatch, tmp_path
):
    load_known_ingredients()
    monkeypatch.setattr(services.ocr, "read_lines", lambda image: CARD)
    athlete = UserFactory()  # no training program: a recipe doesn't need one
    client = Client()
    client.force_login(athlete)
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME,
          "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": live_server.url}]
    )  # fmt: skip
    photo = tmp_path / "card.jpg"
    photo.write_bytes(picture((120, 90), "JPEG"))
    page.goto(live_server.url + "/food/recipes/")
    page.locator("form.photo-form input[name=keep]").check()
    page.locator("form.photo-form input[type=file]").set_input_files(str(photo))
    reading = page.locator("#photo-reads .photo-read")
    expect(reading).to_contain_text("Oat Bowl", timeout=30_000)
    expect(reading).to_contain_text("0.5 cup rolled oats")
    expect(reading.locator(".unread")).to_contain_text("a handful of love")
    card = reading.locator("form.photo-card")
    expect(card).to_contain_text("+ Oat Bowl: 0.5 cup rolled oats; 1 tsp honey")  # the dry run
    card.get_by_label("Ingredient line 2").fill("2 tsp honey")  # the athlete corrects a line
    assert not Recipe.objects.exists()
    card.get_by_role("button", name="Apply Changes").click()
    expect(page.locator("h1")).to_have_text("Oat Bowl", timeout=30_000)  # the recipe's page
    expect(page.locator("figure.recipe-photo img")).to_be_visible()
    recipe = Recipe.objects.get()
    assert [(i["name"], i["quantity"]) for i in recipe.ingredients] == [
        ("rolled oats", "0.500"), ("honey", "2.000")
    ]  # fmt: skip
    assert "a handful of love" in recipe.notes and recipe.photo.owner == athlete
