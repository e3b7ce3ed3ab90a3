"""Nutrition sentences that point at the athlete's data (``nutrition.tools.references``,
``nutrition.tools.meals``): a list named for an occasion, a recipe read or planned by its title,
its ingredients pushed to a list, an item ticked off by its name (asked when it is on two lists),
and the sentences that look like them but must change nothing."""

from __future__ import annotations

import datetime

import pytest

from coach.llm.base import Turn, World
from coach.llm.offline.understand import understand
from coach.tools.base import ToolContext
from nutrition.access import household_for
from nutrition.models import GroceryItem, GroceryList, Ingredient, Recipe
from nutrition.tools.references import list_title
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 26)  # a Thursday


@pytest.fixture
def athlete():
    return UserFactory()


@pytest.fixture
def oats(athlete):
    home = household_for(athlete, create=True)
    return Recipe.objects.create(household=home, title="Overnight Oats", ingredients=[])


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


def changes_nothing(athlete, text: str) -> bool:
    found = read(athlete, text)
    return found is None or not found.calls


def on_list(athlete, list_name: str, name: str) -> GroceryItem:
    home = household_for(athlete, create=True)
    grocery_list, _ = GroceryList.objects.get_or_create(household=home, name=list_name)
    return GroceryItem.objects.create(
        grocery_list=grocery_list,
        ingredient=Ingredient.objects.get(name=name),
        name=name,
        quantity=1,
        unit="package",
    )


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("start a new list for the bbq", "BBQ"),
        ("new list for the bbq", "BBQ"),
        ("make a new list for the weekend bbq", "Weekend BBQ"),
        ("create a shopping list for Costco", "Costco"),
        ("start a list for this week", "This Week"),
    ],
)
def test_a_list_for_an_occasion_is_named_for_it(athlete, text, name):
    assert calls(athlete, text) == [("grocery_create_list", {"name": name})]


def test_a_lower_case_name_is_capitalised_and_a_typed_one_kept():
    assert list_title("the bbq") == "The BBQ"
    assert list_title("meal prep") == "Meal Prep"
    assert list_title("Trader Joe's") == "Trader Joe's"


def test_a_list_for_me_names_nothing_and_is_asked_for_its_name(athlete):
    found = read(athlete, "create a shopping list for me")
    assert found.calls == [] and "Name the list" in found.problem


@pytest.mark.parametrize(
    "text", ["make a shopping list for my meal plan", "make a list for overnight oats"]
)
def test_a_list_for_a_recipe_or_the_plan_is_no_empty_list(athlete, oats, text):
    found = read(athlete, text)
    assert found is None or not any(c.name == "grocery_create_list" for c in found.calls)


@pytest.mark.parametrize(
    "text",
    [
        "show me the overnight oats recipe",
        "how do i make overnight oats",
        "what do i need for overnight oats",
        "whats in the overnight oats",
    ],
)
def test_a_recipe_is_read_by_its_title(athlete, oats, text):
    assert calls(athlete, text) == [("recipe_get", {"recipe_id": oats.pk})]


def test_a_recipe_put_down_for_a_meal_is_planned(athlete, oats):
    assert calls(athlete, "put overnight oats down for breakfast on saturday") == [
        ("planner_add_meal", {"recipe_id": oats.pk, "date": "2026-11-28", "meal_type": "breakfast"})
    ]


@pytest.mark.parametrize(
    "text",
    [
        "add the ingredients for overnight oats to my shopping list",
        "add the overnight oats recipe to my list",
        "put overnight oats ingredients on the grocery list",
    ],
)
def test_a_recipes_ingredients_go_on_the_list_never_as_one_item(athlete, oats, text):
    assert calls(athlete, text) == [("grocery_push_ingredients", {"recipe_ids": [oats.pk]})]


def test_a_recipe_pushed_with_two_lists_asks_which_with_chips_that_push(athlete, oats):
    home = household_for(athlete, create=True)
    GroceryList.objects.create(household=home, name="Costco")
    GroceryList.objects.create(household=home, name="Market")
    found = read(athlete, "add the ingredients for overnight oats to my list")
    assert found.calls == [] and found.ask.question == "Which list? Costco or Market?"
    assert found.ask.options == (
        "add the ingredients for Overnight Oats to the Costco list",
        "add the ingredients for Overnight Oats to the Market list",
    )
    assert calls(athlete, found.ask.options[1]) == [
        (
            "grocery_push_ingredients",
            {"grocery_list_name": "Market", "recipe_ids": [oats.pk]},
        )
    ]


@pytest.mark.parametrize(
    "text", ["tick the milk off my list", "check off milk", "mark milk as bought", "cross milk off"]
)
def test_an_item_is_ticked_off_by_its_name(athlete, text):
    milk = on_list(athlete, "Groceries", "milk")
    assert calls(athlete, text) == [("grocery_check_item", {"grocery_item_id": milk.pk})]


def test_an_item_on_two_lists_asks_which_and_a_named_list_does_not(athlete):
    on_list(athlete, "Groceries", "milk")
    costco = on_list(athlete, "Costco", "milk")
    found = read(athlete, "tick the milk off my list")
    assert found.calls == [] and found.ask.question.startswith("Which list")
    assert found.ask.options == (
        "tick milk off the Costco list",
        "tick milk off the Groceries list",
    )
    assert calls(athlete, found.ask.options[0]) == [
        ("grocery_check_item", {"grocery_item_id": costco.pk})
    ]


def test_checking_an_item_is_not_ticking_it_off(athlete):
    on_list(athlete, "Groceries", "milk")
    assert changes_nothing(athlete, "check the milk")


def test_need_with_no_subject_and_half_a_unit(athlete):
    assert calls(athlete, "need half a kilo of ground beef") == [
        ("grocery_add_item", {"ingredient": "ground beef", "quantity": 0.5, "unit": "kg"})
    ]


def test_grab_for_the_list_and_a_vague_thing_is_asked_what(athlete):
    assert calls(athlete, "grab 3 cans of chickpeas for the shopping list") == [
        ("grocery_add_item", {"ingredient": "chickpeas", "quantity": 3, "unit": "can"})
    ]
    found = read(athlete, "get something for the shopping list")
    assert found.calls == [] and "Say what to add" in found.problem


def test_two_lists_asked_for_a_need_retell_the_need_in_the_chips(athlete):
    home = household_for(athlete, create=True)
    GroceryList.objects.create(household=home, name="Costco")
    GroceryList.objects.create(household=home, name="Market")
    found = read(athlete, "we need three bananas")
    assert found.ask.options == ("add three bananas to Costco", "add three bananas to Market")
    assert calls(athlete, found.ask.options[0]) == [
        (
            "grocery_add_item",
            {"grocery_list_name": "Costco", "ingredient": "banana", "quantity": 3, "unit": "whole"},
        )
    ]
    found = read(athlete, "need half a kilo of ground beef")
    assert found.ask.options[0] == "add half a kilo of ground beef to Costco"


@pytest.mark.parametrize(
    "text",
    [
        "need a date",
        "i need to eat more veggies",
        "im out of ideas for dinner",
        "is oat milk better than regular milk for recovery",
        "we need to talk about my diet",
    ],
)
def test_sentences_that_look_like_food_but_ask_for_nothing_change_nothing(athlete, text):
    assert changes_nothing(athlete, text)


def test_a_recipes_title_added_as_an_item_asks_which_with_chips_for_each(athlete, oats):
    found = read(athlete, "add overnight oats to my list")
    assert found.calls == [] and found.ask.question == (
        "Add the ingredients of your Overnight Oats recipe, or overnight oats as one item?"
    )
    push, one = found.ask.options
    assert calls(athlete, push) == [("grocery_push_ingredients", {"recipe_ids": [oats.pk]})]
    assert calls(athlete, one) == [
        ("grocery_add_item", {"name": "overnight oats", "quantity": 1, "unit": "package"})
    ]
