"""The builds of the recipe, meal plan and list-item sentences of ``language``: a recipe typed
in a sentence, a recipe read or planned by its title, its ingredients pushed to a list, the meal
plan read for a day or a span, an item ticked off by its name."""

from __future__ import annotations

import datetime
import re
from typing import Any

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, NotMeant, Slots, day_of, rest_of_message

from . import said
from .references import items_named, list_names, which_list


def recipe_typed(slots: Slots) -> Parsed:
    text = rest_of_message(slots)
    m = re.search(r"\brecipe\s+(?:for|called|named|titled)?\s*(.+?)\s*:\s*(.+)$", text, re.I)
    if m is None:
        raise CommandError(
            'Give the title and ingredients, e.g. "save a recipe for overnight oats: 1 cup oats, '
            '1 cup milk".'
        )
    title = m.group(1).strip(" \"'")
    title = title[:1].upper() + title[1:]
    lines = []
    for item in said.items(m.group(2), slots.world):
        if item.ingredient is None:
            raise CommandError(
                f'"{item.words}" is not a known ingredient; use its usual name (e.g. "rolled oats").'
            )
        lines.append({"ingredient": item.ingredient, "quantity": item.quantity, "unit": item.unit})
    if not lines:
        raise CommandError('List the ingredients, e.g. "1 cup oats, 1 cup milk".')
    return Parsed(
        "recipe_create",
        {"title": title[:200], "ingredients": lines},
        f'create the recipe "{title}"',
    )


def day_meant(slots: Slots) -> datetime.date:
    world = slots.world
    if "day" in slots:  # a weekday: the next one from today (a meal is planned ahead)
        ahead = (int(slots.get("day")) - world.today.weekday()) % 7
        return world.today + datetime.timedelta(days=ahead)
    return day_of(slots, world) or world.today


def meal(slots: Slots) -> Parsed:
    date = day_meant(slots)
    meal = slots.get("meal")
    args: dict[str, Any] = {"date": date.isoformat()}
    if meal:
        args["meal_type"] = meal
    return Parsed("planner_get_meal", args, f"show {meal or 'meals'} on {date:%A}")


def meals(slots: Slots) -> Parsed:
    today = slots.world.today
    days = int(slots.get("count") or 7)
    if slots.get("next_week"):
        start = today + datetime.timedelta(days=7 - today.weekday())
        end = start + datetime.timedelta(days=6)
    else:
        start, end = today, today + datetime.timedelta(days=max(1, min(days, 62)) - 1)
    return Parsed(
        "planner_list_meals",
        {"start_date": start.isoformat(), "end_date": end.isoformat()},
        "show the meal plan",
    )


def plan(slots: Slots) -> Parsed:
    pk, title = slots.get("recipe")
    date = day_meant(slots)
    meal = slots.get("meal")
    return Parsed(
        "planner_add_meal",
        {"recipe_id": pk, "date": date.isoformat(), "meal_type": meal},
        f"plan {title} for {meal} on {date:%A %-d %B}",
    )


def recipe_get(slots: Slots) -> Parsed:
    pk, title = slots.get("recipe")
    return Parsed("recipe_get", {"recipe_id": pk}, f"show the recipe {title}")


def push(slots: Slots) -> Parsed | Ask:
    """A recipe's ingredients onto a list (the tool adds them up with what is there)."""
    pk, title = slots.get("recipe")
    where = which_list(slots, f"add the ingredients for {title} to the {{list}} list")
    if isinstance(where, Ask):
        return where
    target = where.get("grocery_list_name", "your grocery list")
    return Parsed(
        "grocery_push_ingredients",
        {**where, "recipe_ids": [pk]},
        f"add the ingredients for {title} to {target}",
    )


def check(slots: Slots) -> Parsed | Ask:
    """An item ticked off by its name; on several lists, which one is asked."""
    name = slots.get("grocery_item")
    found = items_named(slots.world, name, slots.get("grocery_list"))
    if not found:
        raise CommandError(f"{name} is not on that list (or is already ticked off).")
    lists = sorted({i.grocery_list.name for i in found})
    if len(lists) > 1:
        return Ask(
            f"Which list should I tick {name} off: " + ", ".join(lists[:-1]) + f" or {lists[-1]}?",
            tuple(f"tick {name} off the {n} list" for n in lists),
        )
    item = found[0]
    return Parsed(
        "grocery_check_item",
        {"grocery_item_id": item.pk},
        f"tick {item.name} off {item.grocery_list.name}",
    )


_NUTRIENT = re.compile(
    r"(?:high[\s-]*(?:in\s+)?|lots of\s+|packed with\s+)(?P<n1>protein|fib(?:re|er))"
    r"|(?P<n2>protein|fib(?:re|er))[\s-]*(?:rich|packed|heavy)",
    re.I,
)


def recipes(slots: Slots) -> Parsed:
    """The household's recipes, or those with a food, a word or a quality in them ("do i have any
    recipes with chicken", "show my chicken recipes", "any high protein recipes":
    ``recipe_list`` with that text as its query, read in titles, ingredients and tags)."""
    if "recipe_query" not in slots.values:
        return Parsed("recipe_list", {}, "list your recipes")
    query = str(slots.get("recipe_query", "")).strip(" ?.!,\"'")
    query = re.sub(r"^(?:(?:all|any|some|my|our|the|saved|a|an)\s+)+", "", query, flags=re.I)
    query = re.sub(r"\s+(?:in\s+(?:it|them)|please|pls)$", "", query, flags=re.I).strip()
    query = re.sub(r"^(?:(?:good|nice|tasty|decent|great|other|new)\s+)+", "", query, flags=re.I)
    # a nutrient "high" in it is the nutrient: "high protein" finds "Protein pancakes" too
    if m := _NUTRIENT.fullmatch(query):
        query = m.group("n1") or m.group("n2")
    if (
        not query
        or query.lower() in ("all", "saved", "my", "our")
        or len(query.split()) > 4
        or re.search(r"\b(?:i|we|what|it|that|this|these|those|me|you|stuff|things)\b", query, re.I)
    ):
        raise NotMeant  # no food or quality named, or a clause rather than one
    return Parsed("recipe_list", {"query": query[:100]}, f'list your recipes with "{query}"')


def show_list(slots: Slots) -> Parsed | Ask:
    """A list read: the one named, else the only one (several unnamed: which one is asked)."""
    where = which_list(slots, "show the {list} list")
    if isinstance(where, Ask):
        return where
    if not where:
        names = [n for _, n in list_names(slots.world)]
        if not names:
            raise CommandError(
                'You have no grocery list yet: "add oats to my grocery list" starts one.'
            )
        where = {"grocery_list_name": names[0]}
    name = where["grocery_list_name"]
    return Parsed("grocery_get_list", where, f"show the list {name}")
