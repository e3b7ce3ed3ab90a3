"""The nutrition family in everyday words (``coach.llm.offline.language``): grocery lists and
items ("add oats to my grocery list", "put 2 liters of milk on the shopping list", "we need three
bananas"), recipes typed in a sentence, planning a recipe for a meal, and questions about
recipes, the meal plan and the lists.

Items are read by ``said`` (a quantity, a unit, a known ingredient or a free name). A list is
the one named ("add eggs to Costco"), else the household's grocery list (the tool's default: its
only one, or a new one when it has none); with several lists and none named, which one is asked.
Recipes are named by their titles; a recipe that isn't there is not planned."""

from __future__ import annotations

import datetime
import re
from typing import Any

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import (
    Ask,
    Intent,
    Language,
    NotMeant,
    Slots,
    World,
    day_of,
    message_of,
    rest_of_message,
)
from nutrition.access import household_for
from nutrition.aggregation import quantity_text
from nutrition.ingredients import known_ingredients
from nutrition.models import GroceryList, Recipe

from . import said

MEALS = [
    *((w, "breakfast") for w in ("breakfast", "brekkie", "brunch")),
    *((w, "lunch") for w in ("lunch", "lunchtime")),
    *((w, "dinner") for w in ("dinner", "supper", "tea", "tonight's dinner")),
]
LIST_WORDS = (
    "(grocery list|groceries|shopping list|shopping|list|groceries list|food list|shopping cart)"
)


def _home(world: World) -> Any:
    user = getattr(world.ctx, "athlete", None)
    return world.cached("nutrition.home", lambda: household_for(user) if user else None)


def list_names(world: World) -> list[tuple[str, Any]]:
    home = _home(world)
    if home is None:
        return []
    names = GroceryList.objects.filter(household=home).values_list("name", flat=True)
    return [(n.lower(), n) for n in names]


def recipe_titles(world: World) -> list[tuple[str, Any]]:
    home = _home(world)
    if home is None:
        return []
    rows = Recipe.objects.filter(household=home).values_list("pk", "title")
    return [(title.lower(), (pk, title)) for pk, title in rows]


def _which_list(slots: Slots) -> dict[str, Any] | Ask:
    if "grocery_list" in slots:
        return {"grocery_list_name": slots.get("grocery_list")}
    names = [n for _, n in list_names(slots.world)]
    if len(names) > 1:
        things = str(slots.get("items", "")).strip()
        return Ask(
            "Which list? " + ", ".join(names[:-1]) + f" or {names[-1]}?",
            tuple(f"add {things} to {n}" if things else f"show {n}" for n in names),
        )
    return {}  # the household's only list, or a new one (the tool's default)


def _as_typed(slots: Slots, words: str) -> str:
    """``words`` as the athlete typed them, commas included (the matcher drops punctuation, and
    "6 bananas, 2 avocados" is two items, not one called "bananas 2 avocados")."""
    parts = words.split()
    if not parts:
        return words
    pattern = r"[\s,;]+".join(re.escape(p) for p in parts)
    m = re.search(pattern, message_of(slots), re.I)
    return m.group(0) if m else words


def _add_items(slots: Slots) -> list[Parsed] | Ask:
    where = _which_list(slots)
    if isinstance(where, Ask):
        return where
    found = said.items(_as_typed(slots, str(slots.get("items", ""))), slots.world)
    if not found:
        raise CommandError('Say what to add, e.g. "add 2 liters of milk to my grocery list".')
    calls = []
    for item in found:
        key = {"ingredient": item.ingredient} if item.ingredient else {"name": item.words[:100]}
        text = f"{quantity_text(item.quantity)} {item.unit} {item.ingredient or item.words}"
        target = where.get("grocery_list_name", "your grocery list")
        calls.append(
            Parsed(
                "grocery_add_item",
                {**where, **key, "quantity": item.quantity, "unit": item.unit},
                f"add {text} to {target}",
            )
        )
    return calls


def _needed_many(slots: Slots) -> list[Parsed] | Ask:
    """ "we're out of eggs and milk": several items, each a known ingredient (else "we're out of
    time" would be a grocery item)."""
    found = said.items(_as_typed(slots, str(slots.get("items", ""))), slots.world)
    if len(found) < 2 or any(item.ingredient is None for item in found):
        raise NotMeant
    return _add_items(slots)


def _needed(slots: Slots) -> list[Parsed] | Ask:
    """ "we need three bananas", "we're out of olive oil": one known ingredient (the template's
    list holds only those, so "I need a break" is not a grocery item)."""
    where = _which_list(slots)
    if isinstance(where, Ask):
        return where
    said_as = slots.words.get("ingredient", "")
    typed = next(
        (t.athlete_text or t.content for t in reversed(slots.world.turns) if t.role == "user"), None
    )
    if typed is not None and said_as.lower() not in typed.lower():  # a typo corrected: asked
        return Ask(f"Did you mean {said_as}?", (f"add {said_as} to my grocery list",))
    number = slots.get("count") or slots.get("qty")
    unit = slots.get("unit_word") or ("whole" if number else "package")
    ingredient = slots.get("ingredient")
    quantity = number or 1
    return [
        Parsed(
            "grocery_add_item",
            {**where, "ingredient": ingredient, "quantity": quantity, "unit": unit},
            f"add {quantity_text(quantity)} {unit} {ingredient} to your grocery list",
        )
    ]


def _ingredient_words() -> list[tuple[str, str]]:
    """The known ingredients (the data file the table is loaded from) by the words people use."""
    return sorted({(form, name) for name, _ in known_ingredients() for form in said.forms(name)})


def _create_list(slots: Slots) -> Parsed:
    name = str(slots.get("list_name", "")).strip(" \"'.,")
    if not name:
        raise CommandError('Name the list, e.g. "create a grocery list called Weekend BBQ".')
    return Parsed("grocery_create_list", {"name": name[:100]}, f'create the list "{name}"')


def _recipe(slots: Slots) -> Parsed:
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


def _date(slots: Slots) -> datetime.date:
    world = slots.world
    if "day" in slots:  # a weekday: the next one from today (a meal is planned ahead)
        ahead = (int(slots.get("day")) - world.today.weekday()) % 7
        return world.today + datetime.timedelta(days=ahead)
    return day_of(slots, world) or world.today


def _meal(slots: Slots) -> Parsed:
    date = _date(slots)
    meal = slots.get("meal")
    args: dict[str, Any] = {"date": date.isoformat()}
    if meal:
        args["meal_type"] = meal
    return Parsed("planner_get_meal", args, f"show {meal or 'meals'} on {date:%A}")


def _meals(slots: Slots) -> Parsed:
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


def _plan(slots: Slots) -> Parsed:
    pk, title = slots.get("recipe")
    date = _date(slots)
    meal = slots.get("meal")
    return Parsed(
        "planner_add_meal",
        {"recipe_id": pk, "date": date.isoformat(), "meal_type": meal},
        f"plan {title} for {meal} on {date:%A %-d %B}",
    )


def _show_list(slots: Slots) -> Parsed | Ask:
    where = _which_list(slots)
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


WHEN = (
    "[(on|for) {day} [night|evening|morning|afternoon]|{when} [night|evening|morning|afternoon]|"
    "(on|for) {when} [night|evening|morning|afternoon]]"
)
LANGUAGE = Language(
    lists={"grocery_list": list_names, "recipe": recipe_titles},
    values={
        "meal": MEALS,
        "ingredient": _ingredient_words(),
        "unit_word": sorted(said.UNIT_WORDS.items()),
        "qty": [(w, n) for w, n in said.NUMBER_WORDS.items() if isinstance(n, int)],
    },
    wildcards=("items", "list_name", "recipe_text"),
    rules={
        "list": f"[<the>] [{{grocery_list}}] {LIST_WORDS} [please|pls|plz|thanks|thx]",
        "when_meal": WHEN,
        "amount": "[some|more] [{count}|{qty}] [{unit_word}] [of]",
    },
    intents=(
        Intent(
            "grocery_create_list",
            (
                "[<please>] (create|start|make|add|set up|open|begin) [me] [a|an] [new] "
                "(grocery|shopping|food) list (called|named|titled|for) {list_name}",
                "[a] new (grocery|shopping|food) list (called|named|titled) {list_name}",
                "[<please>] (create|start|make|new) [a] [new] list (called|named|titled) {list_name}",
            ),
            build=_create_list,
            examples=("create a grocery list called Weekend BBQ",),
        ),
        Intent(
            "grocery_add_item",
            (
                "[<please>] [can you|could you] (add|put|stick|throw|pop|write|jot) [down] {items} "
                "(to|on|onto|in|into) <list>",
                "[<please>] (add|put) {items} (to|on|onto) [<the>] {grocery_list} [list] "
                "[please|pls|plz|thanks|thx]",
                "(i|we) need {items} (add|put) (it|them|that|those|these) (to|on|onto|in) <list>",
                "(i|we) (need|are out of|ran out of|have run out of|'ve run out of) {items} "
                "(for|on) <list>",
            ),
            build=_add_items,
            examples=("add oats to my grocery list", "put 2 liters of milk on the shopping list"),
        ),
        Intent(
            "grocery_need",
            (
                "(i|we) [really|also] (need|are out of|ran out of|have run out of|'ve run out of) "
                "[to buy|to get|to pick up] <amount> {ingredient}",
                "(we're|i'm|were|im|we are|i am) [all|completely|almost|nearly] out of <amount> "
                "{ingredient}",
                "[(i|we)] (need to|have to|gotta|got to|must|should) (buy|pick up|get) [some|more] "
                "<amount> {ingredient}",
                "[<please>] (buy|pick up) [some|more] <amount> {ingredient} [please|pls|plz]",
                "[(we're|i'm|were|im|we are|i am|we|i)] [all|completely|almost|nearly|totally] "
                "(out of|low on|running low on|running out of|short on|ran out of) <amount> "
                "{ingredient}",
            ),
            build=_needed,
        ),
        Intent(
            "grocery_need_many",
            (
                "[(we're|i'm|were|im|we are|i am|we|i)] [all|completely|almost|nearly|totally] "
                "(out of|low on|running low on|running out of|ran out of|need) {items}",
            ),
            build=_needed_many,
        ),
        Intent(
            "recipe_create",
            (
                "[<please>] (save|create|add|make|write down|new) [me] [a|the|my] [new] recipe "
                "{recipe_text}",
            ),
            build=_recipe,
            examples=("save a recipe for overnight oats: 1 cup oats, 1 cup milk",),
        ),
        Intent(
            "recipe_list",
            (
                "(what|which) recipes (do i have|have i got|are there|did i save|do we have)",
                "(do|have) (i|we) (have|got|saved) any [saved] recipes",
                "(show|list|give|read) [me] [all] [my|the|our] [saved] recipes",
                "[my|our] recipes",
            ),
            build=lambda slots: Parsed("recipe_list", {}, "list your recipes"),
            examples=("what recipes do I have",),
        ),
        Intent(
            "planner_get_meal",
            (
                "(what's|whats|what is) (for|on the menu for|planned for) {meal} [<when_meal>]",
                "(what|what's) (am i|are we|will i be|will we be|i'm|we're) (having|eating|"
                "cooking|making) (for|at) {meal} [<when_meal>]",
                "(what's|whats|what is) [planned|on the menu] for {meal} [<when_meal>]",
                "(what's|whats|what is) (planned|on the menu|on the meal plan) [for] <when_meal>",
            ),
            build=_meal,
            examples=("what's for dinner tonight",),
        ),
        Intent(
            "planner_list_meals",
            (
                "(what|which) meals are (planned|on the plan|coming up) [for|in] [the next "
                "{count} days|{next_week}|this week|the week]",
                "(show|what's|whats|what is) [me] [on|in] [my|the|our] meal (plan|planner|schedule) "
                "[for] [the next {count} days|{next_week}|this week|the week]",
                "[(show|tell) me] (what|which) meals (are|we've got|we have|i've got|i have|have "
                "we got|have i got|we've|i've) [got] (planned|on the plan|coming up|lined up) "
                "[for|in] [the next {count} days|{next_week}|this week|the week]",
            ),
            build=_meals,
            examples=("what meals are planned for the next 7 days",),
        ),
        Intent(
            "planner_add_meal",
            (
                "[<please>] (plan|schedule|put|add|have|make) [my|the] {recipe} (for|as) [my] "
                "{meal} [<when_meal>]",
                "[<please>] (plan|schedule|put|add) [my|the] {recipe} [<when_meal>] (for|as) "
                "{meal}",
            ),
            build=_plan,
            examples=("plan overnight oats for breakfast tomorrow",),
        ),
        Intent(
            "grocery_list_lists",
            (
                "(show|list|give) [me] [all] [my|the|our] (grocery|shopping) lists",
                "(what|which) (grocery|shopping) lists (do i have|have i got|are there)",
                "[my|our] (grocery|shopping) lists",
            ),
            build=lambda slots: Parsed("grocery_list_lists", {}, "list your grocery lists"),
            examples=("show my grocery lists",),
        ),
        Intent(
            "grocery_get_list",
            (
                "(what's|whats|what is) (on|in) <list>",
                "(show|read|give) [me] <list>",
                "what do (i|we) need to (buy|get)",
            ),
            build=_show_list,
            examples=("what's on my grocery list",),
        ),
    ),
)
