"""Playwright (sync API) driving Debian's chromium against pytest-django's live server.

Playwright's sync API runs an event loop in the test thread, which trips Django's async-unsafe
check on every ORM call the test makes, so it is switched off for these tests. Without chromium
the tests are skipped locally and fail in CI (``SPOTTER_REQUIRE_ALL=1``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = shutil.which("chromium")
REQUIRE_ALL = os.environ.get("SPOTTER_REQUIRE_ALL") == "1"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and not REQUIRE_ALL,
    reason="chromium is not installed (apt-get install chromium)",
)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser) -> Iterator:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def signed_in(browser, live_server, user):
    """A new browser context signed in as ``user`` (its session made by Django's test client, so
    an account without a password signs in too), and its page."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page
