"""Shared by the media tests: the known ingredients, small pictures made on the spot, and the
browser fixtures (the microphone's tests drive chromium like tests/browser/)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from nutrition.ingredients import load_known_ingredients
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures for test_voice_browser)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "recipes"


@pytest.fixture(autouse=True)
def known_ingredients(db):
    load_known_ingredients()


def picture(size=(40, 30), fmt="PNG", **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, fmt, **save)
    return out.getvalue()


def fixture_photo(name: str) -> bytes:
    return (FIXTURES / f"{name}.jpg").read_bytes()
