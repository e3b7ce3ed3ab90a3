"""Shared by the media tests: the known ingredients and small pictures made on the spot. (The
media family's browser tests are in tests/browser/, where the one Playwright session of the
suite lives: a second session-scoped browser fixture here ran a second Playwright in the same
process, which Playwright refuses.)"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from nutrition.ingredients import load_known_ingredients

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
