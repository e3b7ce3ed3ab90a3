"""The offline coach's nutrition commands (seed 002). Each becomes the same tool call a model
would make; lists are named by their exact name (or their ID), recipes by ID.

    recipes [tagged dinner]                             recipe_list (read)
    show recipe 3                                       recipe_get (read)
    meals from 2026-11-23 to 2026-11-29 / meals on DATE planner_list_meals / planner_get_meal
    grocery lists / show list Groceries                 grocery_list_lists / grocery_get_list
    create list Groceries                               grocery_create_list
    add recipe 3 to list Groceries                      grocery_push_ingredients {recipe_ids}
    add recipes 3 and 4 to list Groceries               … several recipes in one push
    add 2 cup rice to list Groceries                    grocery_add_item (a known ingredient;
    add 1 package Foil to list Groceries                 an unknown name is added as free text)
    tick item 12 / untick item 12                       grocery_check_item / grocery_uncheck_item
    plan recipe 3 for dinner on 2026-11-24              planner_add_meal
    remove meal 7                                       planner_remove_meal
    new recipe Oats: 0.5 cup rolled oats, 1 whole banana (sliced)
                                                        recipe_create (prep state in brackets)
    rate recipe 3 5                                     recipe_update {rating}
"""

from __future__ import annotations

import re
from typing import Any

from coach.llm.offline.families import Commands
from coach.llm.offline.grammar import CommandError, Parsed
from nutrition.lines import FLAGS, LINE
from nutrition.models import UNITS

DATE = r"(\d{4}-\d{2}-\d{2})"

NUTRITION_HELP = [
    ("Recipes (changes nothing)", "recipes tagged dinner / show recipe 3"),
    ("Meal plan (changes nothing)", "meals from 2026-11-23 to 2026-11-29"),
    ("Grocery lists (changes nothing)", "grocery lists / show list Groceries"),
    ("Shop for recipes", "add recipes 3 and 4 to list Groceries"),
    ("Plan a meal", "plan recipe 3 for dinner on 2026-11-24"),
    (
        "Other food commands",
        "create list Groceries, add 2 cup rice to list Groceries, tick item 12",
    ),
]


def _list_ref(raw: str) -> dict[str, Any]:
    name = raw.strip().strip('"')
    if name.isdigit():
        return {"grocery_list_id": int(name)}
    return {"grocery_list_name": name}


def _quantity(raw: str) -> int | float:
    return float(raw) if "." in raw else int(raw)


def parse_nutrition_command(text: str) -> Parsed | None:
    """One nutrition command → one tool call; ``None`` if it isn't one."""
    if m := re.fullmatch(
        r"(?:show\s+)?(?:my\s+)?recipes(?:\s+(?:tagged|with\s+tag)\s+(.+))?", text, FLAGS
    ):
        args = {"tags": [m.group(1).strip()]} if m.group(1) else {}
        return Parsed("recipe_list", args, "list your recipes")
    if m := re.fullmatch(r"(?:show|open)\s+recipe\s+(\d+)", text, FLAGS):
        return Parsed("recipe_get", {"recipe_id": int(m.group(1))}, f"show recipe {m.group(1)}")
    if m := re.fullmatch(rf"(?:show\s+)?meals\s+from\s+{DATE}\s+to\s+{DATE}", text, FLAGS):
        args = {"start_date": m.group(1), "end_date": m.group(2)}
        return Parsed("planner_list_meals", args, "show the meal plan")
    if m := re.fullmatch(rf"(?:show\s+)?meals?\s+on\s+{DATE}", text, FLAGS):
        return Parsed("planner_get_meal", {"date": m.group(1)}, f"show meals on {m.group(1)}")
    if re.fullmatch(r"(?:show\s+)?(?:my\s+)?(?:grocery|shopping)\s+lists", text, FLAGS):
        return Parsed("grocery_list_lists", {}, "list your grocery lists")
    if m := re.fullmatch(r"(?:show|open)\s+(?:grocery\s+|shopping\s+)?list\s+(.+)", text, FLAGS):
        return Parsed("grocery_get_list", _list_ref(m.group(1)), f"show list {m.group(1).strip()}")
    if m := re.fullmatch(
        r"(?:create|new)\s+(?:grocery\s+|shopping\s+)?list\s+(?:(?:called|named|titled)\s+)?(.+)",
        text,
        FLAGS,
    ):
        name = m.group(1).strip().strip('"')
        return Parsed("grocery_create_list", {"name": name}, f'create the list "{name}"')
    if m := re.fullmatch(
        r"add\s+recipes?\s+([\d,\sand]+?)\s+to\s+(?:the\s+)?list\s+(.+)", text, FLAGS
    ):
        ids = [int(n) for n in re.findall(r"\d+", m.group(1))]
        args = {**_list_ref(m.group(2)), "recipe_ids": ids}
        which = ", ".join(str(n) for n in ids)
        return Parsed(
            "grocery_push_ingredients", args, f"add recipe {which} to {m.group(2).strip()}"
        )
    if m := re.fullmatch(rf"add\s+{LINE.pattern}\s+to\s+(?:the\s+)?list\s+(.+)", text, FLAGS):
        quantity, unit, name, prep, target = m.groups()
        args = {**_list_ref(target), "quantity": _quantity(quantity), "unit": unit.lower()}
        key = "ingredient" if name == name.lower() else "name"
        args[key] = name.strip()
        if prep:
            args["prep_state"] = prep.strip()
        return Parsed("grocery_add_item", args, f"add {quantity} {unit} {name} to {target.strip()}")
    if m := re.fullmatch(r"(tick|check|untick|uncheck)\s+(?:off\s+)?item\s+(\d+)", text, FLAGS):
        tool = (
            "grocery_check_item"
            if m.group(1).lower() in ("tick", "check")
            else "grocery_uncheck_item"
        )
        return Parsed(
            tool, {"grocery_item_id": int(m.group(2))}, f"{m.group(1).lower()} item {m.group(2)}"
        )
    if m := re.fullmatch(
        rf"plan\s+recipe\s+(\d+)\s+(?:for\s+)?(breakfast|lunch|dinner)\s+on\s+{DATE}", text, FLAGS
    ):
        args = {"recipe_id": int(m.group(1)), "meal_type": m.group(2).lower(), "date": m.group(3)}
        return Parsed(
            "planner_add_meal", args, f"plan recipe {m.group(1)} for {m.group(2)} on {m.group(3)}"
        )
    if m := re.fullmatch(r"(?:remove|delete)\s+(?:planned\s+)?meal\s+(\d+)", text, FLAGS):
        return Parsed(
            "planner_remove_meal", {"planner_meal_id": int(m.group(1))}, f"remove meal {m.group(1)}"
        )
    if m := re.fullmatch(r"rate\s+recipe\s+(\d+)\s+([1-5])", text, FLAGS):
        args = {"recipe_id": int(m.group(1)), "rating": int(m.group(2))}
        return Parsed("recipe_update", args, f"rate recipe {m.group(1)} {m.group(2)}")
    if re.match(r"(?:new|create)\s+recipe\b", text, FLAGS):
        return _new_recipe(text)
    return None


def _new_recipe(text: str) -> Parsed:
    m = re.fullmatch(r"(?:new|create)\s+recipe\s+(.+?)\s*:\s*(.+)", text, FLAGS)
    if m is None:
        raise CommandError(
            'Give a title and the ingredients, e.g. "new recipe Oats: 0.5 cup rolled oats, '
            '1 whole banana (sliced)".'
        )
    lines = []
    for piece in (p.strip() for p in m.group(2).split(",")):
        line = LINE.fullmatch(piece)
        if line is None:
            raise CommandError(
                f'"{piece}" is not an ingredient like "0.5 cup rolled oats" (units: '
                f"{', '.join(UNITS)})."
            )
        quantity, unit, name, prep = line.groups()
        entry = {"ingredient": name.strip(), "quantity": _quantity(quantity), "unit": unit.lower()}
        if prep:
            entry["prep_state"] = prep.strip()
        lines.append(entry)
    title = m.group(1).strip().strip('"')
    return Parsed(
        "recipe_create", {"title": title, "ingredients": lines}, f'create the recipe "{title}"'
    )


def _parse(command: str) -> Parsed | None:
    return parse_nutrition_command(command.strip())


COMMANDS = Commands(
    parse=_parse, help=NUTRITION_HELP, heading="Food (recipes, meal plan, grocery lists):"
)
