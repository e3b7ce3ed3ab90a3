"""Nutrition in everyday words (``nutrition.tools.language``): grocery items with quantities and
units, lists, recipes typed in a sentence, meals planned by recipe title, reads; with several
lists and none named, which one is asked; an item with no list goes on the household's default
list (the tool: its only one, or a new "Groceries")."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from coach import engine
from coach.llm.base import Turn, World
from coach.llm.offline.understand import understand
from coach.toolcalls import ToolCall
from coach.tools.base import ToolContext
from nutrition.access import household_for
from nutrition.models import GroceryItem, GroceryList, Recipe
from nutrition.tools.offline import parse_nutrition_command
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 26)  # a Thursday


@pytest.fixture
def athlete():
    return UserFactory()


def read(athlete, text: str):
    world = World(
        ctx=ToolContext(athlete=athlete, program=None),
        today=TODAY,
        turns=[Turn(role="user", content=text)],
    )
    return understand(text, world)


def calls(athlete, text: str) -> list[tuple[str, dict]]:
    found = read(athlete, text)
    assert found is not None and found.ask is None and not found.problem, (text, found)
    return [(c.name, c.arguments) for c in found.calls]


def item(ingredient=None, quantity=1, unit="package", **extra):
    key = {"ingredient": ingredient} if ingredient else {}
    return ("grocery_add_item", {**extra, **key, "quantity": quantity, "unit": unit})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("add oats to my grocery list", [item("oats")]),
        ("put 2 liters of milk on the shopping list", [item("milk", 2, "l")]),
        ("I need a dozen eggs, add them to groceries", [item("egg", 12, "whole")]),
        ("add 500g of chicken breast to my list", [item("chicken breast", 500, "g")]),
        ("we need three bananas", [item("banana", 3, "whole")]),
        ("we're out of olive oil", [item("olive oil")]),
        ("add 2 lbs of ground beef to groceries", [item("ground beef", 2, "lb")]),
        (
            "add 1 kg of rice and 2 cans of black beans to my grocery list",
            [item("rice", 1, "kg"), item("black beans", 2, "can")],
        ),
        ("add apples and bananas to my shopping list", [item("apple"), item("banana")]),
    ],
)
def test_grocery_items_in_words(athlete, text, expected):
    assert calls(athlete, text) == expected


def test_a_name_that_is_no_known_ingredient_is_added_as_written(athlete):
    assert calls(athlete, "add 2 packs of beef jerky to my list") == [
        ("grocery_add_item", {"name": "beef jerky", "quantity": 2, "unit": "package"})
    ]


def test_i_need_something_that_is_no_ingredient_is_not_a_grocery_item(athlete):
    found = read(athlete, "I need a break")
    assert found is None or not found.calls


def test_a_named_list_is_used_and_several_lists_are_asked(athlete):
    home = household_for(athlete, create=True)
    GroceryList.objects.create(household=home, name="Costco")
    assert calls(athlete, "add oats to Costco") == [item("oats", grocery_list_name="Costco")]
    GroceryList.objects.create(household=home, name="Weekend BBQ")
    found = read(athlete, "add oats to my grocery list")
    assert found.calls == [] and found.ask.question == "Which list? Costco or Weekend BBQ?"
    assert found.ask.options == ("add oats to Costco", "add oats to Weekend BBQ")


def test_an_item_with_no_list_makes_the_households_default_list(athlete):
    """The tool's default: no list yet → a new "Groceries" on the same card; one list → it."""
    [(name, arguments)] = calls(athlete, "add oats to my grocery list")
    call = ToolCall(id="c1", name=name, arguments=arguments)
    preview = engine.preview_calls(ctx=_ctx(athlete), calls=[call])
    assert preview.success, preview.result_data
    targets = [d["target"] for d in preview.preview["details"]]
    assert targets == ["Grocery lists", "Groceries: oats"]
    assert not GroceryList.objects.exists()  # a preview writes nothing
    assert engine.apply_calls(ctx=_ctx(athlete), calls=[call]).success
    [grocery_list] = GroceryList.objects.filter(household=household_for(athlete))
    assert grocery_list.name == "Groceries"
    assert engine.apply_calls(ctx=_ctx(athlete), calls=[call]).success
    assert GroceryList.objects.count() == 1
    assert GroceryItem.objects.filter(grocery_list=grocery_list).count() == 2


def _ctx(athlete):
    return ToolContext(athlete=athlete, program=None, user=athlete)


def test_lists_and_recipes(athlete):
    assert calls(athlete, "create a grocery list called Weekend BBQ") == [
        ("grocery_create_list", {"name": "Weekend BBQ"})
    ]
    [(name, arguments)] = calls(
        athlete, "save a recipe for overnight oats: 1 cup oats, 1 cup milk, 1 tbsp honey"
    )
    assert name == "recipe_create" and arguments["title"] == "Overnight oats"
    assert arguments["ingredients"] == [
        {"ingredient": "oats", "quantity": 1, "unit": "cup"},
        {"ingredient": "milk", "quantity": 1, "unit": "cup"},
        {"ingredient": "honey", "quantity": 1, "unit": "tbsp"},
    ]


def test_a_recipe_with_an_unknown_ingredient_names_it(athlete):
    found = read(athlete, "save a recipe for toast: 2 slices of unobtainium")
    assert found.calls == [] and "unobtainium" in found.problem


def test_a_meal_is_planned_by_its_recipe_title_and_a_missing_one_is_not(athlete):
    found = read(athlete, "plan my protein pancakes for breakfast tomorrow")
    assert found is None or not found.calls
    recipe = Recipe.objects.create(
        household=household_for(athlete, create=True), title="Protein Pancakes", ingredients=[]
    )
    assert calls(athlete, "plan my protein pancakes for breakfast tomorrow") == [
        (
            "planner_add_meal",
            {"recipe_id": recipe.pk, "date": "2026-11-27", "meal_type": "breakfast"},
        )
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what recipes do I have?", ("recipe_list", {})),
        ("show my grocery lists", ("grocery_list_lists", {})),
        (
            "what's for dinner tonight?",
            ("planner_get_meal", {"date": "2026-11-26", "meal_type": "dinner"}),
        ),
        (
            "what am I having for breakfast tomorrow",
            ("planner_get_meal", {"date": "2026-11-27", "meal_type": "breakfast"}),
        ),
        (
            "what meals are planned for the next 7 days?",
            ("planner_list_meals", {"start_date": "2026-11-26", "end_date": "2026-12-02"}),
        ),
        (
            "show me the meal plan for next week",
            ("planner_list_meals", {"start_date": "2026-11-30", "end_date": "2026-12-06"}),
        ),
    ],
)
def test_reads_in_words(athlete, text, expected):
    assert calls(athlete, text) == [expected]


def test_quantities_keep_their_decimals(athlete):
    assert calls(athlete, "add 1.5 kg of potatoes to my list") == [
        item("potato", Decimal("1.5"), "kg")
    ]


@pytest.mark.parametrize(
    "text", ["new shopping list called Meal Prep", "new list called Meal Prep"]
)
def test_a_new_list_called_is_named_without_the_word_called(athlete, text):
    assert calls(athlete, text) == [("grocery_create_list", {"name": "Meal Prep"})]


def test_the_meals_we_have_got_planned(athlete):
    assert calls(athlete, "show me what meals we've got planned this week") == [
        ("planner_list_meals", {"start_date": "2026-11-26", "end_date": "2026-12-02"})
    ]


def test_the_command_form_takes_called_as_no_part_of_the_name():
    parsed = parse_nutrition_command("new shopping list called Meal Prep")
    assert (parsed.name, parsed.arguments) == ("grocery_create_list", {"name": "Meal Prep"})


def test_items_parted_by_commas_are_several_items(athlete):
    text = "add 6 bananas, 2 avocados and a bag of rice to my grocery list"
    assert calls(athlete, text) == [
        item("banana", 6, "whole"),
        item("avocado", 2, "whole"),
        item("rice"),
    ]


@pytest.mark.parametrize(
    ("text", "ingredient"),
    [("we're low on coffee", "coffee"), ("out of milk", "milk"), ("running low on oats", "oats")],
)
def test_running_low_is_a_grocery_item(athlete, text, ingredient):
    assert calls(athlete, text) == [item(ingredient)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "what's for dinner tomorrow night",
            ("planner_get_meal", {"date": "2026-11-27", "meal_type": "dinner"}),
        ),
        ("do i have any recipes", ("recipe_list", {})),
        (
            "what's on the meal plan next week",
            ("planner_list_meals", {"start_date": "2026-11-30", "end_date": "2026-12-06"}),
        ),
    ],
)
def test_more_reads_in_words(athlete, text, expected):
    assert calls(athlete, text) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "add a dozen eggs and 2 liters of milk to the shopping list please",
            [item("egg", 12, "whole"), item("milk", 2, "l")],
        ),
        ("buy eggs", [item("egg")]),
        ("we need to pick up some milk", [item("milk")]),
        ("i need to get 2 avocados", [item("avocado", 2, "whole")]),
    ],
)
def test_buying_and_a_trailing_please(athlete, text, expected):
    assert calls(athlete, text) == expected


def test_out_of_several_known_ingredients_adds_each(athlete):
    assert calls(athlete, "we're out of eggs and milk") == [item("egg"), item("milk")]


@pytest.mark.parametrize("text", ["we're out of time and energy", "i need sleep and food"])
def test_out_of_things_that_are_no_ingredients_is_no_grocery_item(athlete, text):
    found = read(athlete, text)
    assert found is None or not any(c.name == "grocery_add_item" for c in found.calls)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("do i have any recipes with chicken", {"query": "chicken"}),
        ("what recipes do i have with rice", {"query": "rice"}),
        ("find me recipes using lentils", {"query": "lentils"}),
        ("show my chicken recipes", {"query": "chicken"}),
        ("show my saved recipes", {}),  # no food named: every recipe
        ("do i have any recipes", {}),
    ],
)
def test_recipes_with_a_food_are_a_recipe_query(athlete, text, expected):
    assert calls(athlete, text) == [("recipe_list", expected)]
