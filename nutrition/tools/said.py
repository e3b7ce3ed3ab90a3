"""What a food sentence says, read by rules a person can check: items with a quantity and a unit
("2 liters of milk", "500g chicken breast", "a dozen eggs", "three bananas"), named by the known
ingredients (singular or plural) or, for a grocery item, as written; and a recipe typed in a
sentence ("overnight oats: 1 cup oats, 1 cup milk, 1 tbsp honey")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from coach import vocabulary
from coach.llm.offline.grammar import CommandError
from coach.llm.offline.language import World
from nutrition.models import Ingredient

# Quantities are JSON numbers in a tool call (the tools read them as exact decimals): a whole
# number, else a float of at most a few decimal places ("half a kilo" is 0.5).
NUMBER_WORDS: dict[str, int | float] = {
    "a": 1,
    "an": 1,
    **vocabulary.NUMBER_WORDS,
    "a dozen": 12,
    "dozen": 12,
    "half a dozen": 6,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a pair of": 2,
    "half a": 0.5,
    "half": 0.5,
}
UNIT_WORDS = {
    "cup": "cup",
    "cups": "cup",
    "tbsp": "tbsp",
    "tablespoon": "tbsp",
    "tablespoons": "tbsp",
    "tsp": "tsp",
    "teaspoon": "tsp",
    "teaspoons": "tsp",
    "ml": "ml",
    "milliliters": "ml",
    "millilitres": "ml",
    "l": "l",
    "liter": "l",
    "liters": "l",
    "litre": "l",
    "litres": "l",
    "fl oz": "fl oz",
    "lb": "lb",
    "lbs": "lb",
    "pound": "lb",
    "pounds": "lb",
    "oz": "oz",
    "ounce": "oz",
    "ounces": "oz",
    "g": "g",
    "gram": "g",
    "grams": "g",
    "kg": "kg",
    "kilo": "kg",
    "kilos": "kg",
    "kilogram": "kg",
    "kilograms": "kg",
    "whole": "whole",
    "piece": "piece",
    "pieces": "piece",
    "can": "can",
    "cans": "can",
    "tin": "can",
    "tins": "can",
    "package": "package",
    "packages": "package",
    "pack": "package",
    "packs": "package",
    "packet": "package",
    "packets": "package",
    "bag": "package",
    "bags": "package",
    "box": "package",
    "boxes": "package",
    "bottle": "package",
    "bottles": "package",
    "carton": "package",
    "cartons": "package",
    "jar": "package",
    "jars": "package",
    "loaf": "package",
    "loaves": "package",
    "bunch": "piece",
    "bunches": "piece",
}
_NUM = r"(\d+(?:[.,]\d+)?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + ")"
_UNIT = "|".join(re.escape(u) for u in sorted(UNIT_WORDS, key=len, reverse=True))
ITEM = re.compile(
    rf"^(?:{_NUM}\b\s*)?(?:({_UNIT})\b\.?\s*)?(?:of\s+)?(?:some\s+|more\s+|the\s+|fresh\s+)?(.+?)$",
    re.I,
)


@dataclass(frozen=True)
class Item:
    quantity: int | float
    unit: str
    words: str  # as the athlete wrote it
    ingredient: str | None  # the known ingredient's exact name, when it is one


def known_ingredients(world: World) -> dict[str, str]:
    """The known ingredients by the words people use (singular and plural) → the exact name."""

    def load() -> dict[str, str]:
        found: dict[str, str] = {}
        for name in Ingredient.objects.values_list("name", flat=True):
            for form in forms(name):
                found.setdefault(form, name)
        return found

    return world.cached("nutrition.ingredients", load)


def forms(name: str) -> set[str]:
    """A name's singular and plural forms as people write them."""
    base = name.lower()
    forms = {base, base.replace("-", " ")}
    if base.endswith(("s", "x", "ch", "sh")) and not base.endswith("ss"):
        forms.add(base[:-1])
        if base.endswith("es"):
            forms.add(base[:-2])
        if base.endswith("ies"):
            forms.add(base[:-3] + "y")
    else:
        forms.add(base + ("es" if base.endswith(("o", "ch", "sh")) else "s"))
        if base.endswith("y") and base[-2:-1] not in "aeiou":
            forms.add(base[:-1] + "ies")
        if base.endswith("o"):
            forms.add(base + "s")
    return forms


def _number(raw: str) -> int | float:
    raw = raw.lower().replace(",", ".")
    if raw in NUMBER_WORDS:
        return NUMBER_WORDS[raw]
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise CommandError(f'"{raw}" is not a quantity.') from None
    return int(value) if value == value.to_integral_value() else float(value)


def item(text: str, world: World) -> Item | None:
    """One item of a list ("2 cans of black beans"); None when ``text`` names nothing."""
    text = re.sub(r"\s+", " ", text).strip(" ,.!?")
    text = re.sub(r"(\d)([a-z])", r"\1 \2", text, flags=re.I)  # "500g" → "500 g"
    m = ITEM.match(text)
    if m is None or not m.group(3).strip():
        return None
    number, unit, words = m.group(1), m.group(2), m.group(3).strip()
    words = re.sub(r"^(?:of|some|more)\s+", "", words, flags=re.I)
    quantity = _number(number) if number else 1
    ingredient = known_ingredients(world).get(words.lower())
    # no unit: a count is of whole things ("three bananas"), nothing said is one package
    unit = UNIT_WORDS[unit.lower()] if unit else ("whole" if number else "package")
    return Item(quantity, unit, words, ingredient)


def items(text: str, world: World) -> list[Item]:
    """The items of "1 kg of rice and 2 cans of black beans" (commas, "and", "&", "plus")."""
    pieces = re.split(r",|\band\b|&|\bplus\b|\balso\b", text, flags=re.I)
    found = [item(p, world) for p in pieces if p.strip()]
    return [i for i in found if i is not None]
