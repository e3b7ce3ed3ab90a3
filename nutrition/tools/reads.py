"""The nutrition read tools (seed 002): they run at once, change nothing, and answer with the
household's data, user-written text quoted as data (``quote``). No household yet reads as empty."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from coach.render import plain, quote
from coach.tools.base import Outcome, ToolContext, ToolSpec, no_target
from nutrition import selectors
from nutrition.access import household_for

from . import args as a
from .writes import _guarded, line_text

MAX_LISTED = 50


def _home(ctx: ToolContext):
    return household_for(ctx.athlete)


_ISO = re.compile(r"\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) )?(\d{4}-\d{2}-\d{2})\b")


def in_words(text: str) -> str:
    """A read's answer for a person: dates as "Thu 26 Nov" (the IDs stay: the documented commands
    name recipes, meals and items by them)."""
    return _ISO.sub(lambda m: f"{datetime.date.fromisoformat(m.group(1)):%a %-d %b}", text)


def _both(render: Callable[..., str]) -> Outcome:
    """The model reads user text quoted (data); a person reads it as written (``spoken``)."""
    return Outcome(summary=render(quote), spoken=in_words(render(plain)))


def _recipe_line(n: int, recipe: Any, q=quote) -> str:
    extra = []
    if recipe.rating:
        extra.append(f"rating {recipe.rating}")
    if recipe.tags:
        extra.append("tags: " + ", ".join(q(t, limit=40) for t in recipe.tags))
    tail = f" - {'; '.join(extra)}" if extra else ""
    return f"{n}. {q(recipe.title)} (ID: {recipe.pk}){tail}"


@_guarded
def recipe_list(*, ctx: ToolContext, args: a.RecipeListArgs) -> Outcome:
    found = selectors.recipes(
        _home(ctx), tags=args.tags, min_rating=args.min_rating, query=args.query
    )
    if not found:
        return _no_recipes(ctx, args)
    more = f"\n({len(found) - MAX_LISTED} more not shown)" if len(found) > MAX_LISTED else ""
    return _both(
        lambda q: (
            "Recipes:\n"
            + "\n".join(_recipe_line(n, r, q) for n, r in enumerate(found[:MAX_LISTED], start=1))
            + more
        )
    )


def _no_recipes(ctx: ToolContext, args: a.RecipeListArgs) -> Outcome:
    """None found, said plainly: none saved at all, or none with the words, tags or rating asked
    for (the athlete's words quoted for the model, as written for a person)."""
    if not selectors.recipes(_home(ctx)):
        return Outcome(summary="No recipes saved yet.", spoken="You have no recipes saved yet.")

    def render(q) -> str:
        wrap = (lambda t: q(t, limit=100)) if q is quote else (lambda t: f'"{q(t, limit=100)}"')
        asked = []
        if args.query:
            asked.append(f"{wrap(args.query)} in its title, ingredients or tags")
        if args.tags:
            asked.append("the tags " + ", ".join(wrap(t) for t in args.tags))
        if args.min_rating:
            asked.append(f"a rating of {args.min_rating} or more")
        return f"None of your recipes has {' and '.join(asked) or 'what you asked for'}."

    return Outcome(summary=render(quote), spoken=render(plain))


@_guarded
def recipe_get(*, ctx: ToolContext, args: a.RecipeGetArgs) -> Outcome:
    recipe = selectors.recipe_in(_home(ctx), args.recipe_id)

    def render(q) -> str:
        ingredients = "\n".join(
            "- " + q(line_text(Decimal(i["quantity"]), i["unit"], i["name"], i["prep_state"]))
            for i in recipe.ingredients
        )
        parts = [
            _recipe_line(1, recipe, q).removeprefix("1. "),
            f"Ingredients:\n{ingredients}",
            f"Instructions: {q(recipe.instructions, limit=2000)}",
        ]
        if recipe.notes:
            parts.append(f"Notes: {q(recipe.notes, limit=1000)}")
        return "\n".join(parts)

    return _both(render)


def _meal_line(meal: Any, q=quote) -> str:
    return (
        f"{meal.date.strftime('%a')} {meal.date.isoformat()} {meal.meal_type}: "
        f"{q(meal.recipe.title)} (recipe ID: {meal.recipe_id}, meal ID: {meal.pk})"
    )


@_guarded
def planner_list_meals(*, ctx: ToolContext, args: a.PlannerListMealsArgs) -> Outcome:
    rows = list(selectors.meals(_home(ctx), args.start_date, args.end_date))
    span = f"{args.start_date.isoformat()} to {args.end_date.isoformat()}"
    if not rows:
        return Outcome(
            summary=f"No meals planned from {span}.",
            spoken=in_words(f"No meals are planned from {span}."),
        )
    return _both(lambda q: f"Meals from {span}:\n" + "\n".join(_meal_line(m, q) for m in rows))


@_guarded
def planner_get_meal(*, ctx: ToolContext, args: a.PlannerGetMealArgs) -> Outcome:
    rows = selectors.meals(_home(ctx), args.date, args.date)
    if args.meal_type:
        rows = rows.filter(meal_type=args.meal_type)
    rows = list(rows)
    if not rows:
        what = args.meal_type or "meals"
        return Outcome(
            summary=f"Nothing planned on {args.date.isoformat()}.",
            spoken=f"No {what} planned for {args.date:%A %-d %B}.",
        )
    return _both(lambda q: "\n".join(_meal_line(m, q) for m in rows))


@_guarded
def grocery_list_lists(*, ctx: ToolContext, args: a.GroceryListListsArgs) -> Outcome:
    home = _home(ctx)
    lists = list(home.lists.all()) if home else []
    if not lists:
        return Outcome(
            summary="The household has no grocery lists.", spoken="You have no grocery lists yet."
        )
    counts = [(n, g, g.items.count()) for n, g in enumerate(lists, start=1)]
    return _both(
        lambda q: (
            "Grocery lists:\n"
            + "\n".join(f"{n}. {q(g.name)} (ID: {g.pk}), {count} items" for n, g, count in counts)
        )
    )


@_guarded
def grocery_get_list(*, ctx: ToolContext, args: a.GroceryGetListArgs) -> Outcome:
    grocery_list = selectors.list_in(
        _home(ctx), pk=args.grocery_list_id, name=args.grocery_list_name
    )
    items = list(selectors.items(grocery_list))

    def render(q) -> str:
        lines = [
            f"- {q(line_text(i.quantity, i.unit, i.name, i.prep_state))} (item ID: {i.pk})"
            + (" [bought]" if i.checked else "")
            for i in items
        ]
        head = f"Grocery list {q(grocery_list.name)} (ID: {grocery_list.pk}), {len(items)} items"
        return head + (":\n" + "\n".join(lines) if lines else ".")

    return _both(render)


def _read(
    name: str,
    description: str,
    args_model: type,
    execute: Callable[..., Outcome],
    looking_at: str,
) -> ToolSpec:
    return ToolSpec(
        looking_at=looking_at,
        name=name,
        description=description,
        args_model=args_model,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        execute=execute,
        target=no_target,
        category="nutrition",
        needs_program=False,
    )


SPECS = [
    _read(
        "recipe_list",
        "List the household's recipes (filters: tags, min_rating, text in a title, ingredient or tag).",
        a.RecipeListArgs,
        recipe_list,
        "Looking at your recipes…",
    ),
    _read(
        "recipe_get",
        "A recipe's ingredients, instructions and notes, by recipe ID.",
        a.RecipeGetArgs,
        recipe_get,
        "Looking at that recipe…",
    ),
    _read(
        "planner_list_meals",
        "Planned meals from start_date to end_date (at most 62 days).",
        a.PlannerListMealsArgs,
        planner_list_meals,
        "Looking at your meal plan…",
    ),
    _read(
        "planner_get_meal",
        "The meals planned on one date (optionally one meal type).",
        a.PlannerGetMealArgs,
        planner_get_meal,
        "Looking at your meal plan…",
    ),
    _read(
        "grocery_list_lists",
        "The household's grocery lists with their IDs and item counts.",
        a.GroceryListListsArgs,
        grocery_list_lists,
        "Looking at your grocery lists…",
    ),
    _read(
        "grocery_get_list",
        "A grocery list's items, with the item IDs to tick them off.",
        a.GroceryGetListArgs,
        grocery_get_list,
        "Looking at your grocery list…",
    ),
]
