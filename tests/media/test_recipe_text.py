"""The recipe found in lines read from a photo (``media.recipe_text``) and the reading order of
text boxes (``media.ocr.lines``): pure functions over plain data, no engine."""

import pytest

from media.ocr import Box, Line, lines
from media.recipe_text import find_recipe
from nutrition.lines import LineReader

READER = LineReader(["rolled oats", "banana", "honey", "salt", "butter", "egg"])


def L(text, height=20):
    return Line(text=text, height=height, score=0.9)


def test_a_card_gives_its_title_servings_ingredients_and_numbered_steps():
    found = find_recipe(
        [L("9:41 Recipes"), L("Overnight Oats", 34), L("Serves2"), L("Ingredients"),
         L("1/2cup rolled oats"), L("1banana, sliced"), L("Method"), L("1.Stir it all together"),
         L("in a jar."), L("2. Chill overnight.")],
        READER,
    )  # fmt: skip
    assert (found.title, found.servings) == ("Overnight Oats", 2)
    assert [(r.ingredient, r.unit, r.prep_state) for r in found.ingredients] == [
        ("rolled oats", "cup", ""), ("banana", "whole", "sliced")
    ]  # fmt: skip
    assert found.steps == ["Stir it all together in a jar.", "Chill overnight."]
    assert found.unread == ["9:41 Recipes"]  # the status bar is shown, not dropped


def test_a_line_that_is_no_known_ingredient_is_kept_as_unread_text():
    found = find_recipe(
        [L("Toast", 30), L("Ingredients"), L("2 slices sourdough"), L("1 tsp butter"),
         L("a pinch of salt")],
        READER,
    )  # fmt: skip
    assert [r.ingredient for r in found.ingredients] == ["butter"]
    assert found.unread == ["2 slices sourdough", "a pinch of salt"]


def test_without_an_ingredients_heading_the_lines_that_read_as_ingredients_are_taken():
    found = find_recipe([L("Eggs on toast", 30), L("2 eggs"), L("1 tsp salt"), L("Enjoy!")], READER)
    assert found.title == "Eggs on toast"
    assert [r.ingredient for r in found.ingredients] == ["egg", "salt"]
    assert found.unread == ["Enjoy!"]


def test_the_engine_s_tbsp_misreading_is_put_right_before_the_line_is_read():
    found = find_recipe([L("Oats", 30), L("Ingredients"), L("2 thsp honey")], READER)
    assert [(r.unit, r.ingredient) for r in found.ingredients] == [("tbsp", "honey")]


def test_no_text_gives_an_empty_reading():
    found = find_recipe([], READER)
    assert (found.title, found.ingredients, found.unread) == ("", [], [])


def box(x0, y0, text, width=150):
    return Box(x0, y0, x0 + width, y0 + 20, text, 0.9)


def test_a_two_column_page_reads_the_top_then_the_left_column_then_the_right_one():
    boxes = [
        box(60, 40, "Mushroom Risotto", 400),
        box(60, 170, "Ingredients"), box(660, 170, "Method"),
        box(60, 200, "1 cup rice"), box(660, 200, "1. Fry the rice."),
        box(60, 230, "2 tbsp butter"), box(660, 230, "2. Add broth."),
        box(60, 260, "1 tsp salt"), box(660, 260, "3. Serve."),
    ]  # fmt: skip
    assert [line.text for line in lines(boxes)] == [
        "Mushroom Risotto", "Ingredients", "1 cup rice", "2 tbsp butter", "1 tsp salt",
        "Method", "1. Fry the rice.", "2. Add broth.", "3. Serve.",
    ]  # fmt: skip


def test_boxes_on_one_baseline_join_into_one_line_in_x_order():
    boxes = [box(200, 101, "oat milk"), box(50, 100, "1 cup"), box(50, 140, "1 banana")]
    assert [line.text for line in lines(boxes)] == ["1 cup oat milk", "1 banana"]


@pytest.mark.parametrize("text", ["Serves 4", "Servings: 4", "Makes 4", "Yield 4 portions"])
def test_servings_are_read_in_their_usual_words(text):
    assert (
        find_recipe([L("Cake", 30), L(text), L("Ingredients"), L("2 eggs")], READER).servings == 4
    )


def test_a_method_printed_before_the_ingredients_is_read_as_steps_only():
    found = find_recipe(
        [L("Banana Oats", 30), L("Method"), L("1. Mash the banana."), L("2. Stir in the oats."),
         L("Ingredients"), L("1 banana"), L("1/2 cup rolled oats")],
        READER,
    )  # fmt: skip
    assert found.steps == ["Mash the banana.", "Stir in the oats."]
    assert [r.ingredient for r in found.ingredients] == ["banana", "rolled oats"]
    assert (found.title, found.unread) == ("Banana Oats", [])
