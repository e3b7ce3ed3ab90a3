"""The demo household: recipes, this week's meal plan, a grocery list; running it again keeps what
the athlete changed."""

import datetime

import pytest

from nutrition.demo import RECIPES, seed_nutrition_demo
from nutrition.ingredients import known_ingredients
from nutrition.models import GroceryItem, Ingredient, PlannedMeal, Recipe
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 25)  # a Wednesday


def test_the_demo_has_recipes_a_week_of_meals_and_a_merged_grocery_list():
    athlete = UserFactory()
    result = seed_nutrition_demo(athlete=athlete, today=TODAY)
    assert Ingredient.objects.count() == len(known_ingredients()) >= 300
    assert Recipe.objects.count() == len(RECIPES) == result.recipes
    meals = PlannedMeal.objects.all()
    assert {m.date for m in meals} == {
        datetime.date(2026, 11, 23) + datetime.timedelta(d) for d in range(7)
    }
    onion = GroceryItem.objects.get(name="onion")
    assert (onion.quantity, onion.prep_state) == (2, "chopped")  # merged from both recipes
    assert result.list_items == GroceryItem.objects.count()


def test_running_it_again_keeps_the_athletes_changes():
    athlete = UserFactory()
    seed_nutrition_demo(athlete=athlete, today=TODAY)
    Recipe.objects.filter(title="Lentil soup").update(rating=1)
    PlannedMeal.objects.first().delete()
    again = seed_nutrition_demo(athlete=athlete, today=TODAY)
    assert (again.recipes, again.meals, again.list_items) == (0, 0, 0)
    assert Recipe.objects.get(title="Lentil soup").rating == 1
