"""Demo data for nutrition: the known ingredients, the demo athlete's household with six recipes,
this week's meal plan and a grocery list filled from two recipes, all through
``nutrition.services``.

Idempotent: a recipe is created only when the household has none of that title (a deleted one
counts), the week is planned only when nothing is planned in it, the list only when the household
has none of that name; so a re-run never overwrites what the athlete changed.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction

from coach.plan import DemoSeed

from . import services
from .access import household_for
from .aggregation import Line
from .ingredients import load_known_ingredients
from .models import GroceryList, PlannedMeal, Recipe


def _i(name: str, quantity: str, unit: str, prep: str = "") -> dict[str, Any]:
    return {"ingredient": name, "quantity": Decimal(quantity), "unit": unit, "prep_state": prep}


RECIPES = [
    {
        "title": "Overnight oats",
        "tags": ["breakfast", "high-carb", "quick"],
        "rating": 5,
        "ingredients": [
            _i("rolled oats", "0.5", "cup"),
            _i("greek yogurt", "0.5", "cup"),
            _i("milk", "0.5", "cup"),
            _i("chia seeds", "1", "tbsp"),
            _i("blueberry", "0.5", "cup"),
            _i("honey", "1", "tsp"),
        ],
        "instructions": "Stir everything in a jar and leave it in the fridge overnight.",
    },
    {
        "title": "Chicken rice bowl",
        "tags": ["dinner", "high-carb", "high-protein"],
        "rating": 4,
        "ingredients": [
            _i("rice", "1", "cup"),
            _i("chicken breast", "1", "lb"),
            _i("onion", "1", "whole", "chopped"),
            _i("broccoli", "2", "cup"),
            _i("soy sauce", "2", "tbsp"),
        ],
        "instructions": "Cook the rice. Brown the chicken and onion, add broccoli and soy sauce.",
    },
    {
        "title": "Salmon and sweet potato",
        "tags": ["dinner", "high-protein"],
        "rating": 5,
        "ingredients": [
            _i("salmon fillet", "2", "piece"),
            _i("sweet potato", "2", "whole"),
            _i("olive oil", "1", "tbsp"),
            _i("spinach", "4", "cup"),
        ],
        "instructions": "Roast the sweet potatoes 40 min at 200 °C, the salmon the last 12 min.",
    },
    {
        "title": "Pasta with turkey bolognese",
        "tags": ["dinner", "high-carb"],
        "rating": 4,
        "ingredients": [
            _i("spaghetti", "500", "g"),
            _i("ground turkey", "1", "lb"),
            _i("crushed tomatoes", "1", "can"),
            _i("onion", "1", "whole", "chopped"),
            _i("garlic", "2", "piece", "minced"),
            _i("parmesan", "50", "g"),
        ],
        "instructions": "Brown the turkey with onion and garlic, simmer with tomatoes 20 min.",
    },
    {
        "title": "Lentil soup",
        "tags": ["lunch", "vegetarian"],
        "rating": 3,
        "ingredients": [
            _i("red lentils", "1", "cup"),
            _i("carrot", "2", "whole", "diced"),
            _i("onion", "1", "whole", "chopped"),
            _i("vegetable broth", "1", "l"),
            _i("cumin", "1", "tsp"),
        ],
        "instructions": "Simmer everything 25 minutes, then blend half of it.",
    },
    {
        "title": "Turkey wrap",
        "tags": ["lunch", "quick"],
        "ingredients": [
            _i("tortilla", "2", "piece"),
            _i("turkey breast", "150", "g"),
            _i("lettuce", "1", "cup"),
            _i("hummus", "2", "tbsp"),
        ],
        "instructions": "Spread hummus, fill, roll.",
    },
]

WEEK = [  # (day offset from Monday, meal type, recipe title)
    *((d, "breakfast", "Overnight oats") for d in range(7)),
    (0, "lunch", "Lentil soup"),
    (1, "lunch", "Turkey wrap"),
    (2, "lunch", "Lentil soup"),
    (3, "lunch", "Turkey wrap"),
    (0, "dinner", "Salmon and sweet potato"),
    (1, "dinner", "Chicken rice bowl"),
    (2, "dinner", "Pasta with turkey bolognese"),
    (3, "dinner", "Salmon and sweet potato"),
    (4, "dinner", "Pasta with turkey bolognese"),
    (5, "dinner", "Chicken rice bowl"),
]
LIST_NAME = "Groceries"
LIST_RECIPES = ("Chicken rice bowl", "Pasta with turkey bolognese")


@dataclass(frozen=True)
class NutritionSeedResult:
    ingredients: int
    recipes: int
    meals: int
    list_items: int


@transaction.atomic
def seed_nutrition_demo(*, athlete: Any, today: datetime.date) -> NutritionSeedResult:
    added_ingredients = load_known_ingredients()
    home = household_for(athlete, create=True)
    have = set(Recipe.all_objects.filter(household=home).values_list("title", flat=True))
    created = 0
    for spec in RECIPES:
        if spec["title"] not in have:
            services.recipe_create(household=home, **spec)
            created += 1
    by_title = {r.title: r for r in Recipe.objects.filter(household=home)}
    monday = today - datetime.timedelta(days=today.weekday())
    meals = 0
    week = PlannedMeal.all_objects.filter(
        household=home, date__gte=monday, date__lte=monday + datetime.timedelta(days=6)
    )
    if not week.exists():
        for offset, kind, title in WEEK:
            if title in by_title:
                day = monday + datetime.timedelta(days=offset)
                services.meal_add(household=home, recipe=by_title[title], date=day, meal_type=kind)
                meals += 1
    items = 0
    if not GroceryList.all_objects.filter(household=home, name=LIST_NAME).exists():
        grocery_list = services.list_create(household=home, name=LIST_NAME)
        lines = [
            Line(
                ingredient_id=i["ingredient_id"],
                name=i["name"],
                quantity=Decimal(i["quantity"]),
                unit=i["unit"],
                prep_state=i["prep_state"],
                source_recipe_id=by_title[title].pk,
            )
            for title in LIST_RECIPES
            if title in by_title
            for i in by_title[title].ingredients
        ]
        services.push_ingredients(grocery_list=grocery_list, incoming=lines)
        items = grocery_list.items.count()
    return NutritionSeedResult(added_ingredients, created, meals, items)


def demo(seed: DemoSeed) -> None:
    """``seed_demo``'s part of this family (``DEMO`` in ``nutrition.tools``)."""
    food = seed_nutrition_demo(athlete=seed.people["athlete"], today=seed.today)
    seed.lines.append(
        f"Nutrition: {food.recipes} new recipes, {food.meals} meals planned this week, "
        f"{food.list_items} items on a new grocery list (known ingredients: "
        f"{food.ingredients} added)."
    )
