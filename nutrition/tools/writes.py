"""The nutrition write tools (seed 002): recipes, the meal planner and grocery lists of the
athlete's household. Each one waits for the athlete's Apply like any change, is journaled for the
chat's Undo (``journal``: created objects are soft-deleted, updated fields put back) and never
needs a program (``needs_program=False``: an athlete without one can use them, and a program
change doesn't make a grocery push stale; the objects are looked up again at Apply, so one
deleted since the preview fails cleanly with NOT_FOUND).

Errors are seed 002's: VALIDATION_ERROR, NOT_FOUND, PERMISSION_DENIED, with the field. Another
household's recipe, meal, list or item is NOT_FOUND, never its data. The household is the
athlete's (``nutrition.access.household_for``), made on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from access.policy import owns
from coach.tools.base import (
    Outcome,
    ToolContext,
    ToolSpec,
    ToolStateError,
    detail,
    no_target,
    quote,
)
from nutrition import selectors, services
from nutrition.access import household_for
from nutrition.aggregation import Line, quantity_text
from nutrition.models import Household

from . import args as a


def _guarded(run: Callable[..., Outcome]) -> Callable[..., Outcome]:
    """Turn the nutrition app's errors into the engine's state-layer error (same code, field)."""

    def execute(*, ctx: ToolContext, args: Any) -> Outcome:
        try:
            return run(ctx=ctx, args=args)
        except services.NutritionError as exc:
            raise ToolStateError(exc.code, exc.message, exc.field) from None

    execute.__doc__ = run.__doc__
    return execute


def household(ctx: ToolContext) -> Household:
    """The household of the athlete the change is for: the athlete's authority counts, as for
    every family's tools. Who may decide the athlete's batch is settled by the proposal spine
    before any tool runs (the athlete's own click, or their coach approving it in review mode,
    ``chat.access``), so the acting user (``ctx.user``, the coach when approving) is never asked
    to be one of the household's people: checking it refused every approved nutrition change."""
    found = household_for(ctx.athlete, create=True)
    if not owns(ctx.athlete, found):
        raise services.NutritionError(
            "PERMISSION_DENIED", "Only the household's own people can change its food plans."
        )
    return found


def line_text(quantity: Any, unit: str, name: str, prep_state: str = "") -> str:
    text = f"{quantity_text(quantity)} {unit} {name}"
    return f"{text}, {prep_state}" if prep_state else text


def _recipe_after(recipe: Any) -> str:
    lines = "; ".join(
        line_text(services.Decimal(i["quantity"]), i["unit"], i["name"], i["prep_state"])
        for i in recipe.ingredients
    )
    return f"{recipe.title}: {lines}"


# --- recipes -------------------------------------------------------------------------------------


@_guarded
def recipe_create(*, ctx: ToolContext, args: a.RecipeCreateArgs) -> Outcome:
    recipe = services.recipe_create(
        household=household(ctx),
        title=args.title,
        ingredients=[line.model_dump() for line in args.ingredients],
        instructions=args.instructions,
        tags=args.tags,
        rating=args.rating,
        notes=args.notes,
    )
    return Outcome(
        summary=f"Created recipe {quote(recipe.title)} (ID: {recipe.pk}).",
        details=[detail(type="add", target="Recipes", after=_recipe_after(recipe))],
    )


@_guarded
def recipe_update(*, ctx: ToolContext, args: a.RecipeUpdateArgs) -> Outcome:
    recipe = selectors.recipe_in(household(ctx), args.recipe_id)
    before = _recipe_after(recipe)
    diff = services.recipe_update(recipe=recipe, changes=args.changes())
    fields = [
        {"field": name, "oldValue": _shown(old), "newValue": _shown(new)}
        for name, (old, new) in diff.items()
    ]
    return Outcome(
        summary=f"Updated recipe {quote(recipe.title)} (ID: {recipe.pk}): "
        f"{', '.join(diff) or 'nothing changed'}.",
        details=[
            detail(
                type="modify",
                target=f"Recipe: {recipe.title}",
                before=before,
                after=_recipe_after(recipe),
                fields=fields,
            )
        ],
    )


def _shown(value: Any) -> Any:
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return "; ".join(
            line_text(services.Decimal(i["quantity"]), i["unit"], i["name"], i["prep_state"])
            for i in value
        )
    return value


# --- the meal planner ----------------------------------------------------------------------------


@_guarded
def planner_add_meal(*, ctx: ToolContext, args: a.PlannerAddMealArgs) -> Outcome:
    home = household(ctx)
    recipe = selectors.recipe_in(home, args.recipe_id)
    meal = services.meal_add(
        household=home, recipe=recipe, date=args.date, meal_type=args.meal_type
    )
    when = f"{args.date.strftime('%A')} {args.date.isoformat()}, {args.meal_type}"
    return Outcome(
        summary=f"Planned {quote(recipe.title)} for {when} (meal ID: {meal.pk}).",
        details=[detail(type="add", target=f"Meal plan: {when}", after=recipe.title)],
    )


@_guarded
def planner_remove_meal(*, ctx: ToolContext, args: a.PlannerRemoveMealArgs) -> Outcome:
    meal = selectors.meal_in(household(ctx), args.planner_meal_id)
    services.soft_delete(meal)
    when = f"{meal.date.strftime('%A')} {meal.date.isoformat()}, {meal.meal_type}"
    return Outcome(
        summary=f"Removed {quote(meal.recipe.title)} from {when}.",
        details=[detail(type="remove", target=f"Meal plan: {when}", before=meal.recipe.title)],
    )


# --- grocery lists -------------------------------------------------------------------------------


def _list(ctx: ToolContext, args: a.ListRef):
    if args.grocery_list_id is None and args.grocery_list_name is None:
        return services.default_list(household(ctx))
    return selectors.list_in(household(ctx), pk=args.grocery_list_id, name=args.grocery_list_name)


@_guarded
def grocery_create_list(*, ctx: ToolContext, args: a.GroceryCreateListArgs) -> Outcome:
    grocery_list = services.list_create(household=household(ctx), name=args.name)
    return Outcome(
        summary=f"Created grocery list {quote(grocery_list.name)} (ID: {grocery_list.pk}).",
        details=[detail(type="add", target="Grocery lists", after=grocery_list.name)],
    )


def _incoming(home: Household, args: a.GroceryPushIngredientsArgs) -> list[Line]:
    lines = []
    for n, recipe_id in enumerate(args.recipe_ids):
        recipe = selectors.recipe_in(home, recipe_id, f"recipe_ids.{n}")
        for i in recipe.ingredients:
            lines.append(
                Line(
                    ingredient_id=i["ingredient_id"],
                    name=i["name"],
                    quantity=services.Decimal(i["quantity"]),
                    unit=i["unit"],
                    prep_state=i["prep_state"],
                    source_recipe_id=recipe.pk,
                )
            )
    for n, item in enumerate(args.ingredients):
        ingredient = services.known_ingredient(item.ingredient, f"ingredients.{n}.ingredient")
        if item.source_recipe_id is not None:
            selectors.recipe_in(home, item.source_recipe_id, f"ingredients.{n}.source_recipe_id")
        lines.append(
            Line(
                ingredient_id=ingredient.pk,
                name=ingredient.name,
                quantity=item.quantity,
                unit=item.unit,
                prep_state=item.prep_state.strip(),
                source_recipe_id=item.source_recipe_id,
            )
        )
    return lines


@_guarded
def grocery_push_ingredients(*, ctx: ToolContext, args: a.GroceryPushIngredientsArgs) -> Outcome:
    """Seed 002's aggregation (``nutrition.aggregation``): merge on the same ingredient, unit and
    prep state by exact decimal addition, else a new item; never a unit conversion."""
    home = household(ctx)
    grocery_list = _list(ctx, args)
    steps = services.push_ingredients(grocery_list=grocery_list, incoming=_incoming(home, args))
    count = grocery_list.items.count()
    details = [_push_detail(grocery_list.name, step) for step in steps]
    added = [_step_text(s) for s in steps if s.action == "added"]
    merged = [_step_text(s) for s in steps if s.action == "merged"]
    summary = (
        f"Pushed {len(steps)} ingredient lines to {quote(grocery_list.name)}: "
        f"added {len(added)} ({'; '.join(added) or 'none'}), "
        f"merged {len(merged)} ({'; '.join(merged) or 'none'}); the list has {count} items."
    )
    return Outcome(summary=summary, details=details)


def _step_text(step: Any) -> str:
    """The line as this step left it (its own ``after``, not the push's final total)."""
    line = step.line
    return line_text(step.after, line.unit, line.name, line.prep_state)


def _push_detail(list_name: str, step: Any) -> dict[str, Any]:
    line, incoming = step.line, step.incoming
    target = f"{list_name}: {line.name}"
    if step.action == "added":
        return detail(type="add", target=target, after=_step_text(step))
    added = line_text(incoming.quantity, incoming.unit, incoming.name, incoming.prep_state)
    return detail(
        type="modify",
        target=target,
        before=line_text(step.before, line.unit, line.name, line.prep_state),
        after=f"{_step_text(step)} (+{added})",
        fields=[
            {
                "field": "quantity",
                "oldValue": quantity_text(step.before),
                "newValue": quantity_text(step.after),
            }
        ],
    )


@_guarded
def grocery_add_item(*, ctx: ToolContext, args: a.GroceryAddItemArgs) -> Outcome:
    unnamed = args.grocery_list_id is None and args.grocery_list_name is None
    new_list = unnamed and not household(ctx).lists.exists()
    grocery_list = _list(ctx, args)
    ingredient = (
        services.known_ingredient(args.ingredient, "ingredient") if args.ingredient else None
    )
    name = ingredient.name if ingredient else args.name.strip()
    item = services.item_add(
        grocery_list=grocery_list,
        line=Line(
            ingredient_id=ingredient.pk if ingredient else None,
            name=name,
            quantity=args.quantity,
            unit=args.unit,
            prep_state=args.prep_state.strip(),
        ),
    )
    text = line_text(item.quantity, item.unit, item.name, item.prep_state)
    details = [detail(type="add", target=f"{grocery_list.name}: {name}", after=text)]
    if new_list:
        details.insert(0, detail(type="add", target="Grocery lists", after=grocery_list.name))
    return Outcome(
        summary=f"Added {quote(text)} to {quote(grocery_list.name)} (item ID: {item.pk})"
        + (" (a new list)." if new_list else "."),
        details=details,
    )


def _checker(checked: bool) -> Callable[..., Outcome]:
    @_guarded
    def run(*, ctx: ToolContext, args: a.GroceryItemArgs) -> Outcome:
        item = selectors.item_in(household(ctx), args.grocery_item_id)
        changed = services.item_set_checked(item=item, checked=checked)
        word = "Ticked off" if checked else "Unticked"
        text = line_text(item.quantity, item.unit, item.name, item.prep_state)
        old, new = ("not bought", "bought") if checked else ("bought", "not bought")
        # No changed field: the preview refuses it as "already how it is".
        fields = [{"field": "checked", "oldValue": not checked, "newValue": checked}]
        if not changed:
            fields, old = [], new
        return Outcome(
            summary=f"{word} {quote(text)} on {quote(item.grocery_list.name)}.",
            details=[
                detail(
                    type="modify",
                    target=f"{item.grocery_list.name}: {item.name}",
                    before=f"{text} ({old})",
                    after=f"{text} ({new})",
                    fields=fields,
                )
            ],
        )

    return run


def _spec(
    name: str, description: str, args_model: type, execute: Callable[..., Outcome], display: str
) -> ToolSpec:
    return ToolSpec(
        name=name,
        description=description,
        args_model=args_model,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        execute=execute,
        target=no_target,
        category="nutrition",
        display_name=display,
        needs_program=False,
    )


SPECS = [
    _spec(
        "recipe_create",
        "Create a household recipe; ingredient names must be exact known names (lower case), "
        "quantities numbers.",
        a.RecipeCreateArgs,
        recipe_create,
        "New recipe",
    ),
    _spec(
        "recipe_update",
        "Change a recipe's fields; ingredients, when given, replace the whole list.",
        a.RecipeUpdateArgs,
        recipe_update,
        "Recipe change",
    ),
    _spec(
        "planner_add_meal",
        "Plan a recipe for a date and meal (read get_training_plan first to plan around training).",
        a.PlannerAddMealArgs,
        planner_add_meal,
        "Planned meal",
    ),
    _spec(
        "planner_remove_meal",
        "Remove a planned meal (IDs from planner_list_meals).",
        a.PlannerRemoveMealArgs,
        planner_remove_meal,
        "Remove planned meal",
    ),
    _spec(
        "grocery_create_list",
        "Create a grocery list; its name must be new in the household.",
        a.GroceryCreateListArgs,
        grocery_create_list,
        "New grocery list",
    ),
    _spec(
        "grocery_push_ingredients",
        "Add recipes' ingredients or lines to a list; same ingredient+unit+prep state add up, no "
        "unit conversion.",
        a.GroceryPushIngredientsArgs,
        grocery_push_ingredients,
        "Add to grocery list",
    ),
    _spec(
        "grocery_add_item",
        "Add one item to a grocery list (a known ingredient, or a free name); no list named: the "
        "only one, or a new one.",
        a.GroceryAddItemArgs,
        grocery_add_item,
        "Grocery item",
    ),
    _spec(
        "grocery_check_item",
        "Tick an item off a grocery list (item IDs from grocery_get_list).",
        a.GroceryItemArgs,
        _checker(True),
        "Tick off item",
    ),
    _spec(
        "grocery_uncheck_item",
        "Untick an item of a grocery list (item IDs from grocery_get_list).",
        a.GroceryItemArgs,
        _checker(False),
        "Untick item",
    ),
]
