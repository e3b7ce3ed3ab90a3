"""The offline coach reaches every nutrition tool with the arguments a model would send."""

import pytest

from coach.llm.base import Turn
from coach.llm.offline import OfflineProvider
from coach.registry import REGISTRY, tool_definitions

EXAMPLES = {
    "recipe_list": ("recipes tagged dinner", {"tags": ["dinner"]}),
    "recipe_get": ("show recipe 3", {"recipe_id": 3}),
    "planner_list_meals": (
        "meals from 2026-11-23 to 2026-11-29",
        {"start_date": "2026-11-23", "end_date": "2026-11-29"},
    ),
    "planner_get_meal": ("meals on 2026-11-24", {"date": "2026-11-24"}),
    "grocery_list_lists": ("grocery lists", {}),
    "grocery_get_list": ("show list Groceries", {"grocery_list_name": "Groceries"}),
    "grocery_create_list": ("create list Groceries", {"name": "Groceries"}),
    "grocery_push_ingredients": (
        "add recipes 3 and 4 to list Groceries",
        {"grocery_list_name": "Groceries", "recipe_ids": [3, 4]},
    ),
    "grocery_add_item": (
        "add 1.5 cup rice (cooked) to list 2",
        {
            "grocery_list_id": 2,
            "quantity": 1.5,
            "unit": "cup",
            "ingredient": "rice",
            "prep_state": "cooked",
        },
    ),
    "grocery_check_item": ("tick item 12", {"grocery_item_id": 12}),
    "grocery_uncheck_item": ("untick item 12", {"grocery_item_id": 12}),
    "planner_add_meal": (
        "plan recipe 3 for dinner on 2026-11-24",
        {"recipe_id": 3, "meal_type": "dinner", "date": "2026-11-24"},
    ),
    "planner_remove_meal": ("remove meal 7", {"planner_meal_id": 7}),
    "recipe_create": (
        "new recipe Oats: 0.5 cup rolled oats, 1 whole banana (sliced)",
        {
            "title": "Oats",
            "ingredients": [
                {"ingredient": "rolled oats", "quantity": 0.5, "unit": "cup"},
                {"ingredient": "banana", "quantity": 1, "unit": "whole", "prep_state": "sliced"},
            ],
        },
    ),
    "recipe_update": ("rate recipe 3 5", {"recipe_id": 3, "rating": 5}),
}


def test_the_examples_cover_every_nutrition_tool():
    assert set(EXAMPLES) == {n for n, s in REGISTRY.items() if s.category == "nutrition"}


@pytest.mark.parametrize("tool", sorted(EXAMPLES))
def test_each_nutrition_tool_is_reachable(tool):
    command, arguments = EXAMPLES[tool]
    response = OfflineProvider().complete(
        system="", turns=[Turn(role="user", content=command)], tools=tool_definitions()
    )
    assert [(c.name, c.arguments) for c in response.tool_calls] == [(tool, arguments)]
