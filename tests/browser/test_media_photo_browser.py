"""A recipe from a photo in a real browser: the athlete picks a file with the chat's photo button,
the reading appears under the box (every line, the unread one too), the card in the chat shows
recipe_create, and Apply saves it. The engine is replaced by a fixed reading here (the live server
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
from tests.factories import build_program
from tests.media.conftest import picture

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

CARD = [Line("Oat Bowl", 34, 0.9), Line("Serves 1", 20, 0.9), Line("Ingredients", 20, 0.9),
        Line("1/2 cup rolled oats", 20, 0.9), Line("1 tsp honey", 20, 0.9),
        Line("a handful of love", 20, 0.9), Line("Method", 20, 0.9), Line("1. Mix.", 20, 0.9)]  # fmt: skip


def test_a_photo_picked_in_the_chat_becomes_a_recipe_after_apply(
    page, live_server, monkeypatch, tmp_path
):
    load_known_ingredients()
    monkeypatch.setattr(services.ocr, "read_lines", lambda image: CARD)
    program = build_program(weeks=1, sessions=1, exercises=1)
    client = Client()
    client.force_login(program.athlete)
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME,
          "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": live_server.url}]
    )  # fmt: skip
    photo = tmp_path / "card.jpg"
    photo.write_bytes(picture((120, 90), "JPEG"))
    page.goto(live_server.url + "/")
    page.locator("form.photo-form input[type=file]").set_input_files(str(photo))
    reading = page.locator("#photo-reads .photo-read")
    expect(reading).to_contain_text("Oat Bowl", timeout=30_000)
    expect(reading).to_contain_text("0.5 cup rolled oats")
    expect(reading.locator(".unread")).to_contain_text("a handful of love")
    reading.get_by_role("button", name="Check it on a card in the chat").click()
    expect(page.locator("body")).to_contain_text("as I read it from your photo", timeout=30_000)
    assert not Recipe.objects.exists()
    card = page.locator("#batch-card .preview-card")
    expect(card).to_contain_text("Oat Bowl")
    page.get_by_role("button", name="Apply Changes").click()
    expect(card).to_have_count(0, timeout=30_000)  # the follow-up turn runs in the request
    expect(page.locator(".bubble-coach").last).to_contain_text("applied", timeout=30_000)
    recipe = Recipe.objects.get()
    assert recipe.title == "Oat Bowl" and [i["name"] for i in recipe.ingredients] == [
        "rolled oats", "honey"
    ]  # fmt: skip
    assert "a handful of love" in recipe.notes
