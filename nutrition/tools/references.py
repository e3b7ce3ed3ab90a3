"""What a food sentence points at in the athlete's data, for ``language``: the household's
grocery lists by name, its recipes by title, and the items on its lists by the words people use
for them ("the milk", "eggs"); and the list a sentence means when it names none (its only list,
else a question with the lists as chips, never a guess)."""

from __future__ import annotations

from typing import Any

from coach.llm.offline.language import Ask, Slots, World
from nutrition.access import household_for
from nutrition.models import GroceryItem, GroceryList, Recipe

from . import said

# Words people write in capitals in a list's name ("a list for the bbq" is "BBQ").
CAPITALS = frozenset({"bbq", "bday", "diy", "nye", "xmas", "uk", "us", "usa", "hiit"})


def home(world: World) -> Any:
    user = getattr(world.ctx, "athlete", None)
    return world.cached("nutrition.home", lambda: household_for(user) if user else None)


def list_names(world: World) -> list[tuple[str, Any]]:
    found = home(world)
    if found is None:
        return []
    names = GroceryList.objects.filter(household=found).values_list("name", flat=True)
    return [(n.lower(), n) for n in names]


def recipe_titles(world: World) -> list[tuple[str, Any]]:
    found = home(world)
    if found is None:
        return []
    rows = Recipe.objects.filter(household=found).values_list("pk", "title")
    return [(title.lower(), (pk, title)) for pk, title in rows]


def item_names(world: World) -> list[tuple[str, Any]]:
    """The unchecked items on the household's lists by their names, singular and plural → the
    name as stored (one name may be on several lists: ``items_named`` tells them apart)."""
    found = home(world)
    if found is None:
        return []
    names = (
        GroceryItem.objects.filter(
            grocery_list__household=found, grocery_list__deleted_at=None, checked=False
        )
        .values_list("name", flat=True)
        .distinct()
    )
    return sorted({(form, name) for name in names for form in said.forms(name)})


def items_named(world: World, name: str, list_name: str | None) -> list[GroceryItem]:
    found = home(world)
    rows = GroceryItem.objects.select_related("grocery_list").filter(
        grocery_list__household=found, grocery_list__deleted_at=None, checked=False, name=name
    )
    if list_name:
        rows = rows.filter(grocery_list__name=list_name)
    return list(rows.order_by("pk"))


def list_title(words: str) -> str:
    """A list's name from the words it was asked with: as typed when it has capitals ("Meal
    Prep"), else each word capitalised, the ones people write in capitals in capitals ("the bbq"
    → "BBQ", "weekend bbq" → "Weekend BBQ")."""
    words = words.strip(" \"'.,!?")
    if words != words.lower():
        return words
    return " ".join(w.upper() if w in CAPITALS else w[:1].upper() + w[1:] for w in words.split())


def which_list(slots: Slots, retell: str = "") -> dict[str, Any] | Ask:
    """The list named (``grocery_list``), else the only one (the tool's default); with several
    and none named, a question whose chips retell the request (``retell``: "add {list}" →
    "add eggs to Costco") with each list."""
    if "grocery_list" in slots:
        return {"grocery_list_name": slots.get("grocery_list")}
    names = [n for _, n in list_names(slots.world)]
    if len(names) > 1:
        return Ask(
            "Which list? " + ", ".join(names[:-1]) + f" or {names[-1]}?",
            tuple(retell.format(list=n) if retell else f"show {n}" for n in names),
        )
    return {}  # the household's only list, or a new one (the tool's default)
