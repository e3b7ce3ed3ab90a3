"""The engine's known confusions put right before an ingredient line is read (``media.ocr_text``)
and slanted lines kept apart (``media.ocr``): pure functions, no engine. The recogniser has no
fraction signs among its characters, so "½" comes back as "1/2", "12", "%2", "/2" or "11/2"."""

import statistics
from decimal import Decimal

import pytest

from media.ocr import Box, lines
from media.ocr_text import fractions, read, variants
from media.recipe_text import find_recipe
from nutrition.lines import LineReader
from tests.media.test_recipe_text import L

READER = LineReader(["milk", "rolled oats", "salt", "honey", "jasmine rice", "cucumber", "flour"])


@pytest.mark.parametrize(
    ("as_read", "quantity"),
    [
        ("1 12 cups milk", "1.5"),  # the slash lost after a whole number
        ("1 14 cups milk", "1.25"),
        ("11/2 cups milk", "1.5"),  # "1½" glued: an improper fraction recipes don't print
        ("13/4 cups milk", "1.75"),
        ("11%2 cups milk", "1.5"),
        ("1%4 cup milk", "0.25"),  # "%" for the slash
        ("%2 cup milk", "0.5"),  # "%" for the sign, its numerator lost
        ("1 %2 cups milk", "1.5"),
        ("/2 cup milk", "0.5"),
        ("1 /2 cups milk", "1.5"),  # was read as 0.5 cup: silently wrong before
        ("1 1/2 cups milk", "1.5"),  # read right: unchanged
        ("12 g salt", "12"),  # before grams, twelve is twelve
    ],
)
def test_a_fraction_sign_the_engine_cannot_spell_is_read_as_the_fraction(as_read, quantity):
    found, doubt = read(as_read, READER)
    assert found is not None and found.quantity == Decimal(quantity)
    assert found.text == as_read and doubt == ""  # shown as the engine read it


@pytest.mark.parametrize(
    ("as_read", "quantity"),
    [
        ("12 tsp salt", "0.5"),
        ("34cupmilk", "0.75"),
        ("112 cups flour", "1.5"),
        ("3/ cup milk", "0.75"),
    ],  # only three quarters has a 3 on top, but a half may be lost,
)
def test_a_fraction_that_lost_its_slash_before_a_spoon_or_cup_is_read_and_flagged(
    as_read, quantity
):
    found, doubt = read(as_read, READER)
    assert found.quantity == Decimal(quantity)
    assert as_read in doubt and "check" in doubt


@pytest.mark.parametrize("as_read", ["% tsp salt", "1/ tsp salt", "1 % cups milk", "3%cupmilk"])
def test_a_sign_that_could_be_any_fraction_is_not_guessed(as_read):
    assert fractions(as_read).text == as_read
    assert read(as_read, READER) == (None, "")


def test_serif_ones_read_as_letters_and_full_stops_for_commas_are_tried_only_when_needed():
    assert variants("Icup jasminerice") == ["1cup jasminerice"]
    assert read("Icup jasminerice", READER)[0].ingredient == "jasmine rice"
    found, _ = read("1cucumber.chopped", READER)
    assert (found.ingredient, found.prep_state) == ("cucumber", "chopped")
    assert read("Ingredients are fresh", READER) == (None, "")


def test_a_flagged_line_is_listed_for_the_athlete_to_check():
    found = find_recipe(
        [L("Oats", 30), L("Ingredients"), L("12 tsp salt"), L("1 cup milk")], READER
    )
    assert [r.quantity for r in found.ingredients] == [Decimal("0.5"), Decimal("1")]
    assert len(found.checks) == 1 and "12 tsp salt" in found.checks[0]
    assert found.as_json()["checks"] == found.checks


def quad(text, left, right, x0=50, x1=350, height=24):
    """A box of a line photographed at an angle: its centre line at y ``left`` at x0, ``right``
    at x1."""
    half = height / 2
    corners = [(x0, left - half), (x1, right - half), (x1, right + half), (x0, left + half)]
    return Box.from_corners(corners, text, 0.9)


def test_slanted_lines_close_together_stay_apart_and_a_box_on_the_same_slant_joins():
    long = quad("200 g cherry tomatoes,", 142, 112)  # upright bounds 100..154
    under = quad("100 g feta", 150, 140, x0=250)  # the next line: upright bounds 128..162
    beside = quad("halved", 111, 105, x0=360, x1=420)  # the long line's last word
    assert [line.text for line in lines([long, under, beside])] == [
        "200 g cherry tomatoes, halved",
        "100 g feta",
    ]
    # Compared by their upright middles (127 and 145) against half the median upright height
    # (22 px), as the rows were before, the first two were one line.
    upright = statistics.median([long.y1 - long.y0, under.y1 - under.y0])
    assert abs(under.middle - long.middle) < upright / 2
