"""Printed ingredient lines read into seed 002's terms (``nutrition.lines``): the same units and
exact known names as typed recipes, lenient only in spelling (plurals, long unit words, spaces the
photo reader lost), never in meaning."""

from decimal import Decimal

import pytest

from nutrition.lines import LINE, LineReader, read_quantity

NAMES = ["rolled oats", "banana", "egg", "garlic", "cloves", "chicken broth", "lemon",
         "kidney beans", "canned tuna", "blueberry", "cherry tomato", "peanut butter", "salt"]  # fmt: skip


@pytest.fixture
def reader():
    return LineReader(NAMES)


def reading(reader, text):
    found = reader.read(text)
    return None if found is None else (f"{found.quantity.normalize():f}", found.unit,
                                       found.ingredient, found.prep_state)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 1/2 cups rolled oats, toasted", ("1.5", "cup", "rolled oats", "toasted")),
        ("½ tsp salt", ("0.5", "tsp", "salt", "")),
        ("1/3 cup rolled oats", ("0.333", "cup", "rolled oats", "")),
        ("2 eggs", ("2", "whole", "egg", "")),
        ("3 cloves garlic, minced", ("3", "piece", "garlic", "minced")),
        ("1 tsp cloves", ("1", "tsp", "cloves", "")),
        ("2 tablespoons peanut butter", ("2", "tbsp", "peanut butter", "")),
        ("200 grams cherry tomatoes (halved)", ("200", "g", "cherry tomato", "halved")),
        ("1 cup blueberries", ("1", "cup", "blueberry", "")),
        ("1 large banana", ("1", "whole", "banana", "")),
        ("• 2 eggs", ("2", "whole", "egg", "")),
        ("·250 grolled oats", ("250", "g", "rolled oats", "")),
        ("- 1 tsp salt", ("1", "tsp", "salt", "")),
    ],
)
def test_a_printed_line_reads_as_a_quantity_a_seed_unit_and_a_known_name(reader, text, expected):
    assert reading(reader, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1tbsppeanutbutter", ("1", "tbsp", "peanut butter", "")),
        ("1lchickenbroth", ("1", "l", "chicken broth", "")),
        ("1 lemon", ("1", "whole", "lemon", "")),
        ("1cankidneybeans", ("1", "can", "kidney beans", "")),
        ("2 cans canned tuna", ("2", "can", "canned tuna", "")),
    ],
)
def test_lost_spaces_still_read_and_the_reading_naming_a_known_ingredient_wins(
    reader, text, expected
):
    assert reading(reader, text) == expected


@pytest.mark.parametrize(
    "text", ["1 head broccoli", "300 g arborio rice", "Method", "Serves 4", "2-3 eggs x", "0 g salt",
             "1. Blend until smooth.", "a pinch of salt"],
)  # fmt: skip
def test_a_line_without_a_quantity_or_a_known_ingredient_is_not_read(reader, text):
    assert reader.read(text) is None


def test_quantities_are_exact_to_three_places_and_a_zero_denominator_is_no_quantity():
    assert read_quantity("1 1/2 cups") == (Decimal("1.500"), " cups")
    assert read_quantity("2/3 cup")[0] == Decimal("0.667")
    assert read_quantity("1,5 l")[0] == Decimal("1.500")
    assert read_quantity("3/0 g") is None


def test_the_offline_commands_strict_form_is_the_same_module_s():
    assert LINE.fullmatch("0.5 cup rolled oats (sliced)").groups() == (
        "0.5", "cup", "rolled oats", "sliced"
    )  # fmt: skip


def test_a_read_line_becomes_recipe_create_s_arguments_with_json_numbers(reader):
    assert reader.read("1/2 cup rolled oats, toasted").as_args() == {
        "ingredient": "rolled oats", "quantity": 0.5, "unit": "cup", "prep_state": "toasted"
    }  # fmt: skip
    assert reader.read("2 eggs").as_args() == {"ingredient": "egg", "quantity": 2, "unit": "whole"}
