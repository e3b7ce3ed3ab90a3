"""Recipes searched by a quality or a food and the list read (issue 20, round 4): "any high
protein recipes", "got any vegetarian recipes", "what can i make with chickpeas" are
``recipe_list`` with that text as its query, read in titles, ingredients and tags alike; none found
is said plainly; "what's on my grocery list" with a list reads it."""

from __future__ import annotations

import pytest

from nutrition import services
from nutrition.access import household_for
from tests.factories import UserFactory
from tests.nutrition.helpers import kitchen
from tests.nutrition.helpers import read as run

from .test_language import calls, read

pytestmark = pytest.mark.django_db


@pytest.fixture
def athlete():
    return UserFactory()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("any high protein recipes", {"query": "protein"}),
        ("got any vegetarian recipes?", {"query": "vegetarian"}),
        ("do i have any quick recipes", {"query": "quick"}),
        ("any good low-carb recipes", {"query": "low-carb"}),
        ("any protein-packed recipes", {"query": "protein"}),
        ("any recipes that are gluten free", {"query": "gluten free"}),
        ("show me my high protein recipes pls", {"query": "protein"}),
        ("recipes with salmon?", {"query": "salmon"}),
        ("what can i make with chickpeas", {"query": "chickpeas"}),
        ("how many recipes have i saved", {}),
        ("find me a recipe with chicken", {"query": "chicken"}),
        ("what recipes have chicken in them", {"query": "chicken"}),
        ("which of my recipes are vegetarian", {"query": "vegetarian"}),
        ("show recipes tagged dinner", {"query": "dinner"}),
        ("which recipes are there", {}),
        ("any recipes", {}),
    ],
)
def test_a_quality_or_a_food_is_a_recipe_query(athlete, text, expected):
    assert calls(athlete, text) == [("recipe_list", expected)]


@pytest.mark.parametrize(
    "text",
    ["what can i make with what i have", "any high protein snacks", "any stretching routines"],
)
def test_a_clause_or_no_recipe_word_is_no_recipe_query(athlete, text):
    found = read(athlete, text)
    assert found is None or not any(c.name == "recipe_list" for c in found.calls)


def _recipe(home, title, ingredient="rice", tags=()):
    return services.recipe_create(
        household=home,
        title=title,
        ingredients=[{"ingredient": ingredient, "quantity": 1, "unit": "cup"}],
        tags=list(tags),
    )


def test_the_query_finds_titles_ingredients_and_tags_hyphens_and_plurals_alike(athlete):
    home = household_for(athlete, create=True)
    _recipe(home, "High-Protein Oats", "rolled oats")
    _recipe(home, "Tofu scramble", "firm tofu", tags=["high protein", "vegetarian"])
    _recipe(home, "Chickpea curry", "chickpeas")
    _recipe(home, "Plain rice")
    spoken = run(athlete, "recipe_list", query="protein").spoken
    assert "High-Protein Oats" in spoken and "Tofu scramble" in spoken
    assert "Plain rice" not in spoken
    assert "Tofu scramble" in run(athlete, "recipe_list", query="vegetarian").spoken
    assert "High-Protein Oats" in run(athlete, "recipe_list", query="high protein").spoken
    assert "Chickpea curry" in run(athlete, "recipe_list", query="chickpeas").spoken


def test_none_found_is_said_plainly(athlete):
    assert run(athlete, "recipe_list", query="vegan").spoken == "You have no recipes saved yet."
    kitchen(athlete)
    answer = run(athlete, "recipe_list", query="vegan")
    assert answer.success
    assert answer.spoken == ('None of your recipes has "vegan" in its title, ingredients or tags.')
    assert answer.summary == 'None of your recipes has "vegan" in its title, ingredients or tags.'


@pytest.mark.parametrize(
    "text",
    [
        "what's on my grocery list",
        "whats on the shopping list rn",
        "show me my groceries",
        "whats left on my list",
    ],
)
def test_the_list_is_read_when_there_is_one(athlete, text):
    _, _, _, groceries = kitchen(athlete)
    assert calls(athlete, text) == [("grocery_get_list", {"grocery_list_name": groceries.name})]
