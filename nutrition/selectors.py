"""Reading nutrition data for one household: the lookups the tools use (someone else's object is
NOT_FOUND, never the data) and the queries the pages use."""

from __future__ import annotations

import datetime
import re
from typing import Any

from django.db.models import QuerySet

from .models import GroceryItem, GroceryList, Household, PlannedMeal, Recipe
from .services import NutritionError


def _missing(noun: str, value: Any, field: str) -> NutritionError:
    return NutritionError(
        "NOT_FOUND", f"There is no {noun} {value!r} in the athlete's household.", field
    )


def recipe_in(household: Household | None, pk: int, field: str = "recipe_id") -> Recipe:
    recipe = Recipe.objects.filter(household=household, pk=pk).first() if household else None
    if recipe is None:
        raise _missing("recipe", pk, field)
    return recipe


def meal_in(household: Household | None, pk: int, field: str = "planner_meal_id") -> PlannedMeal:
    meal = (
        PlannedMeal.objects.select_related("recipe").filter(household=household, pk=pk).first()
        if household
        else None
    )
    if meal is None:
        raise _missing("planned meal", pk, field)
    return meal


def list_in(
    household: Household | None, *, pk: int | None = None, name: str | None = None
) -> GroceryList:
    lists = GroceryList.objects.filter(household=household) if household else None
    found = None
    if lists is not None:
        found = lists.filter(pk=pk).first() if pk is not None else lists.filter(name=name).first()
    if found is None:
        field = "grocery_list_id" if pk is not None else "grocery_list_name"
        raise _missing("grocery list", pk if pk is not None else name, field)
    return found


def item_in(household: Household | None, pk: int, field: str = "grocery_item_id") -> GroceryItem:
    item = (
        GroceryItem.objects.select_related("grocery_list")
        .filter(grocery_list__household=household, grocery_list__deleted_at=None, pk=pk)
        .first()
        if household
        else None
    )
    if item is None:
        raise _missing("grocery item", pk, field)
    return item


def _plain(words: str) -> str:
    return " ".join(re.split(r"[\s_/-]+", words.lower())).strip()


def _forms(text: str) -> set[str]:
    """A text and its singular: "chickpeas" also finds "chickpea", "tomatoes" "tomato"."""
    forms = {text}
    if text.endswith("es") and len(text) > 4:
        forms.add(text[:-2])
    if text.endswith("s") and len(text) > 3:
        forms.add(text[:-1])
    return forms


def recipes(
    household: Household | None,
    *,
    tags: list[str] | None = None,
    min_rating: int | None = None,
    query: str | None = None,
) -> list[Recipe]:
    """Recipes matching every tag (exact, case-insensitive), a minimum rating and a text in the
    title, an ingredient's name or a tag ("chicken": "Chicken curry", or a stir fry with chicken;
    "high protein": "High-Protein Oats", or a recipe tagged "high-protein"), hyphens and spaces
    read alike, a plural also as its singular."""
    if household is None:
        return []
    rows = Recipe.objects.filter(household=household)
    if min_rating is not None:
        rows = rows.filter(rating__gte=min_rating)
    wanted = {t.lower() for t in tags or []}
    text = _plain(query or "")

    def said(recipe: Recipe) -> bool:
        names = [str(i.get("name", "")) for i in recipe.ingredients or []]
        return not text or any(
            said in _plain(words)
            for said in _forms(text)
            for words in (recipe.title, *names, *map(str, recipe.tags))
        )

    return [r for r in rows if wanted <= {str(t).lower() for t in r.tags} and said(r)]


def meals(
    household: Household | None, start: datetime.date, end: datetime.date
) -> QuerySet[PlannedMeal]:
    if household is None:
        return PlannedMeal.objects.none()
    return PlannedMeal.objects.select_related("recipe").filter(
        household=household, date__gte=start, date__lte=end
    )


def items(grocery_list: GroceryList) -> QuerySet[GroceryItem]:
    return GroceryItem.objects.filter(grocery_list=grocery_list).order_by("checked", "pk")
