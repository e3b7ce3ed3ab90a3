"""``manage.py eval_ocr``: how a reading is scored (pure, no engine) and the command on one image
(the engine once)."""

import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from media.management.commands.eval_ocr import score
from media.recipe_text import Reading
from nutrition.lines import ReadLine

EXPECTED = {
    "title": "Lentil Soup",
    "servings": 4,
    "ingredients": [
        {"printed": "1 cup red lentils", "expected": "1 cup | red lentils |"},
        {"printed": "1 onion, chopped", "expected": "1 whole | onion | chopped"},
        {"printed": "2 tsp cumin", "expected": "2 tsp | cumin |"},
        {"printed": "1 head broccoli", "expected": None},
        {"printed": "1 tsp salt", "expected": "1 tsp | salt |"},
    ],
}


def line(text, quantity, unit, ingredient, prep=""):
    return ReadLine(text, Decimal(quantity), unit, ingredient, prep)


def test_each_field_is_scored_and_every_miss_is_named():
    reading = Reading(
        title="LentilSoup",
        servings=None,
        ingredients=[
            line("1 cup red lentils", "1", "cup", "red lentils"),
            line("1 onion,chopped", "1", "whole", "onion", "chopped"),
            line("2 thsp cumin", "2", "tbsp", "cumin"),  # the unit misread
            line("1 cup rice", "1", "cup", "rice"),  # not on the card
        ],
        unread=["1headbroccoli"],  # shown, spaces lost: still right
    )
    result = score(EXPECTED, reading)
    assert (result["title"], result["title_exact"], result["servings"]) == (True, False, False)
    assert (result["lines"], result["lines_right"], result["found"]) == (5, 3, 3)
    assert (result["quantities_right"], result["extra"]) == (2, 1)
    assert result["misses"] == [
        "misread: '2 tsp cumin' as 2 tbsp cumin",
        "not read: '1 tsp salt'",
        "extra ingredient: '1 cup rice'",
        "servings read as None",
    ]


def test_an_unknown_line_that_vanished_is_a_miss():
    result = score(EXPECTED, Reading(title="Lentil Soup", servings=4))
    assert "unread line not shown: '1 head broccoli'" in result["misses"]
    assert result["lines_right"] == 0


@pytest.mark.django_db
def test_the_command_reads_an_image_and_reports_its_fields_and_times(known_ingredients):
    out = StringIO()
    call_command("eval_ocr", "--only", "pasta", "--json", stdout=out)
    (result,) = json.loads(out.getvalue())
    assert (result["name"], result["title"], result["lines"]) == ("pasta", True, 6)
    assert result["set"] == "dev"
    assert result["lines_right"] == 6 and result["misses"] == []
    assert result["seconds"] > 0 and result["cpu_seconds"] > 0
