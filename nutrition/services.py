"""Every change to nutrition data (the tools, the pages and the demo call these). Each service
validates first and raises ``NutritionError`` before writing anything; each write is recorded in
the undo journal (``journal.services``; a no-op outside a chat batch) and deletes are soft.

Seed 002's rules: units exactly ``Unit``; quantities are decimals above 0 with at most three
places (never text); ingredient names match a known ingredient exactly (no fuzzy matching, no
default unit, no substitution); grocery list names are unique in the household.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from journal import services as journal

from .aggregation import Line, Step, aggregate
from .lines import LineReader, ReadLine
from .models import (
    UNITS,
    GroceryItem,
    GroceryList,
    Household,
    Ingredient,
    PlannedMeal,
    Recipe,
)

MAX_QUANTITY = Decimal("999999")
__all__ = ["LineReader", "ReadLine"]  # the line reader's types, for the families that use it
RECIPE_FIELDS = ("title", "ingredients", "instructions", "tags", "rating", "notes")


class NutritionError(Exception):
    """``code`` is VALIDATION_ERROR, NOT_FOUND or PERMISSION_DENIED (seed 002); ``field`` the
    argument at fault."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.field = code, message, field


# --- checking ------------------------------------------------------------------------------------


def check_quantity(value: Any, field: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise NutritionError("VALIDATION_ERROR", f"{field} must be a number.", field)
    quantity = value if isinstance(value, Decimal) else Decimal(str(value))
    if not quantity.is_finite() or quantity <= 0 or quantity > MAX_QUANTITY:
        raise NutritionError(
            "VALIDATION_ERROR", f"{field} must be above 0 and at most {MAX_QUANTITY}.", field
        )
    if quantity != quantity.quantize(Decimal("0.001")):
        raise NutritionError("VALIDATION_ERROR", f"{field} has at most 3 decimal places.", field)
    return quantity.quantize(Decimal("0.001"))


def check_unit(unit: Any, field: str) -> str:
    if unit not in UNITS:
        raise NutritionError(
            "VALIDATION_ERROR", f"{field} must be one of {', '.join(UNITS)} (got {unit!r}).", field
        )
    return unit


def known_ingredient(name: Any, field: str) -> Ingredient:
    ingredient = Ingredient.objects.filter(name=name).first() if isinstance(name, str) else None
    if ingredient is None:
        raise NutritionError(
            "VALIDATION_ERROR",
            f"{field}: {name!r} is not a known ingredient; names must match exactly "
            "(lower case, e.g. 'chicken breast').",
            field,
        )
    return ingredient


def line_reader() -> LineReader:
    """Reads printed ingredient lines against the known ingredients (``nutrition.lines``): what
    another family (a recipe read from a photo) uses to turn text into ``recipe_create``'s lines
    by the same unit rules and exact names."""
    return LineReader(Ingredient.objects.values_list("name", flat=True))


def recipe_lines(raw: list[dict[str, Any]], field: str = "ingredients") -> list[dict[str, Any]]:
    """Validated recipe ingredients as stored: ``{"ingredient_id", "name", "quantity" (decimal
    text), "unit", "prep_state"}``."""
    out = []
    for n, item in enumerate(raw):
        at = f"{field}.{n}"
        ingredient = known_ingredient(item.get("ingredient"), f"{at}.ingredient")
        quantity = check_quantity(item.get("quantity"), f"{at}.quantity")
        unit = check_unit(item.get("unit"), f"{at}.unit")
        out.append(
            {
                "ingredient_id": ingredient.pk,
                "name": ingredient.name,
                "quantity": str(quantity),
                "unit": unit,
                "prep_state": (item.get("prep_state") or "").strip(),
            }
        )
    return out


def _check_rating(rating: Any) -> None:
    if rating is not None and (isinstance(rating, bool) or rating not in range(1, 6)):
        raise NutritionError("VALIDATION_ERROR", "rating must be from 1 to 5.", "rating")


# --- recipes -------------------------------------------------------------------------------------


def recipe_create(
    *, household: Household, title: str, ingredients: list[dict[str, Any]], **extra
) -> Recipe:
    if not title.strip():
        raise NutritionError("VALIDATION_ERROR", "title must not be empty.", "title")
    if not ingredients:
        raise NutritionError(
            "VALIDATION_ERROR", "A recipe needs at least one ingredient.", "ingredients"
        )
    _check_rating(extra.get("rating"))
    recipe = Recipe.objects.create(
        household=household,
        title=title.strip(),
        ingredients=recipe_lines(ingredients),
        instructions=extra.get("instructions") or "",
        tags=list(extra.get("tags") or []),
        rating=extra.get("rating"),
        notes=extra.get("notes") or "",
    )
    journal.created(recipe)
    return recipe


def recipe_update(*, recipe: Recipe, changes: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Apply ``changes`` (fields of ``RECIPE_FIELDS``; ``ingredients`` as for create, replacing
    the list). Returns ``{field: (old, new)}`` of what really changed."""
    values = dict(changes)
    if "title" in values:
        values["title"] = (values["title"] or "").strip()
        if not values["title"]:
            raise NutritionError("VALIDATION_ERROR", "title must not be empty.", "title")
    if "ingredients" in values:
        if not values["ingredients"]:
            raise NutritionError(
                "VALIDATION_ERROR", "A recipe needs at least one ingredient.", "ingredients"
            )
        values["ingredients"] = recipe_lines(values["ingredients"])
    if "rating" in values:
        _check_rating(values["rating"])
    for text in ("instructions", "notes"):
        if text in values:
            values[text] = values[text] or ""
    diff = {
        name: (getattr(recipe, name), value)
        for name, value in values.items()
        if getattr(recipe, name) != value
    }
    if diff:
        for name, (_, new) in diff.items():
            setattr(recipe, name, new)
        recipe.save(update_fields=[*diff, "updated_at"])
        journal.updated(recipe, {name: old for name, (old, _) in diff.items()})
    return diff


# --- the meal planner ----------------------------------------------------------------------------


def meal_add(
    *, household: Household, recipe: Recipe, date: datetime.date, meal_type: str
) -> PlannedMeal:
    meal = PlannedMeal.objects.create(
        household=household, recipe=recipe, date=date, meal_type=meal_type
    )
    journal.created(meal)
    return meal


def soft_delete(obj: Any) -> None:
    obj.deleted_at = timezone.now()
    obj.save(update_fields=["deleted_at"])
    journal.updated(obj, {"deleted_at": None})


# --- grocery lists -------------------------------------------------------------------------------


def list_create(*, household: Household, name: str) -> GroceryList:
    name = name.strip()
    if not name:
        raise NutritionError("VALIDATION_ERROR", "name must not be empty.", "name")
    if GroceryList.objects.filter(household=household, name=name).exists():
        raise NutritionError(
            "VALIDATION_ERROR", f"The household already has a grocery list named {name!r}.", "name"
        )
    grocery_list = GroceryList.objects.create(household=household, name=name)
    journal.created(grocery_list)
    return grocery_list


DEFAULT_LIST = "Groceries"


def default_list(household: Household) -> GroceryList:
    """The household's grocery list when none is named ("add oats to my grocery list"): its only
    one, or a new ``DEFAULT_LIST`` when it has none (journaled, so Undo removes it too); with
    several, which one is asked (VALIDATION_ERROR naming them), never guessed."""
    lists = list(GroceryList.objects.filter(household=household).order_by("pk")[:10])
    if len(lists) == 1:
        return lists[0]
    if not lists:
        return list_create(household=household, name=DEFAULT_LIST)
    names = ", ".join(g.name for g in lists)
    raise NutritionError(
        "VALIDATION_ERROR", f"Say which grocery list: {names}.", "grocery_list_name"
    )


def _line(item: GroceryItem) -> Line:
    return Line(
        ingredient_id=item.ingredient_id,
        name=item.name,
        quantity=item.quantity,
        unit=item.unit,
        prep_state=item.prep_state,
        checked=item.checked,
        source_recipe_id=item.source_recipe_id,
        key=item.pk,
    )


def push_ingredients(*, grocery_list: GroceryList, incoming: list[Line]) -> list[Step]:
    """Seed 002's ``grocery.push_ingredients``: aggregate (``nutrition.aggregation``) and store.
    The incoming lines are already validated (known ingredient, unit, quantity)."""
    items = {item.pk: item for item in GroceryItem.objects.filter(grocery_list=grocery_list)}
    _, steps = aggregate([_line(item) for item in items.values()], incoming)
    for step in steps:
        line = step.line
        if step.action == "merged":  # into a stored item, or one this push just added
            item = items[line.key]
            before = item.quantity
            item.quantity = step.after
            item.save(update_fields=["quantity"])
            journal.updated(item, {"quantity": before})
        elif step.action == "added":
            # As this step added it: a later step of the push may merge more into it.
            added = Line(**{**vars(line), "quantity": step.after})
            item = _new_item(grocery_list, added, source_recipe_id=line.source_recipe_id)
            line.key = item.pk
            items[item.pk] = item
    return steps


def item_add(*, grocery_list: GroceryList, line: Line) -> GroceryItem:
    """A single item typed by hand: always a new line (no merging)."""
    return _new_item(grocery_list, line, source_recipe_id=None)


def _new_item(
    grocery_list: GroceryList, line: Line, *, source_recipe_id: int | None
) -> GroceryItem:
    """A new line on the list, recorded in the undo journal (undo soft-deletes it)."""
    item = GroceryItem.objects.create(
        grocery_list=grocery_list,
        ingredient_id=line.ingredient_id,
        name=line.name,
        quantity=line.quantity,
        unit=line.unit,
        prep_state=line.prep_state,
        source_recipe_id=source_recipe_id,
    )
    journal.created(item)
    return item


def item_set_checked(*, item: GroceryItem, checked: bool) -> bool:
    """Tick or untick; False when it already was."""
    if item.checked == checked:
        return False
    item.checked = checked
    item.save(update_fields=["checked"])
    journal.updated(item, {"checked": not checked})
    return True
