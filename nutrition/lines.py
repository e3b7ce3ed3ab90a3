"""Ingredient lines as people write them, read into seed 002's terms: one place for both readers.

* ``LINE`` is the strict form the offline coach's commands use ("0.5 cup rolled oats (sliced)":
  a number, a unit exactly as ``Unit`` spells it, a name, an optional prep state in brackets).
* ``LineReader`` reads a printed recipe's line ("1 1/2 cups rolled oats, toasted", "½ tsp salt",
  "2 eggs", "3 cloves garlic, minced") into a quantity, a unit of ``Unit``, a known ingredient and
  a prep state. It is lenient only in spelling, never in meaning: a unit word is one of
  ``UNIT_WORDS`` (plural and long forms of the seed's units; a clove, slice or stick of something
  counts as a ``piece``, a bare count as ``whole``), and the ingredient must be a known name (or
  its plural, or with a size word such as "large" in front); anything else is not read (``None``)
  and the caller shows the line as text. No conversion between units, no guessing of names.

Text read from a photo often loses its spaces ("1tbsppeanutbutter"), so names and unit words are
compared with the spaces taken out; the reading that names a known ingredient wins, a unit word
before the name preferred (so "1 l chicken broth" is a litre, "1 lemon" one whole lemon).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from .models import UNITS

FLAGS = re.IGNORECASE
UNIT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
NUMBER = r"(\d+(?:\.\d+)?)"
LINE = re.compile(rf"{NUMBER}\s+({UNIT})\s+(.+?)(?:\s*\(([^)]*)\))?", FLAGS)

_ALIASES = {
    "cup": ("cup", "cups", "c"),
    "tbsp": ("tbsp", "tbsps", "tbs", "tbl", "tablespoon", "tablespoons"),
    "tsp": ("tsp", "tsps", "teaspoon", "teaspoons"),
    "ml": ("ml", "millilitre", "millilitres", "milliliter", "milliliters"),
    "l": ("l", "litre", "litres", "liter", "liters"),
    "fl oz": ("fl oz", "fluid ounce", "fluid ounces"),
    "lb": ("lb", "lbs", "pound", "pounds"),
    "oz": ("oz", "ounce", "ounces"),
    "g": ("g", "gram", "grams", "gr"),
    "kg": ("kg", "kilogram", "kilograms", "kilo", "kilos"),
    "whole": ("whole",),
    "piece": ("piece", "pieces", "pc", "pcs", "clove", "cloves", "slice", "slices", "stick"),
    "can": ("can", "cans", "tin", "tins"),
    "package": ("package", "packages", "pack", "packs", "packet", "packets", "pkg"),
}
UNIT_WORDS: dict[str, str] = {word: unit for unit, words in _ALIASES.items() for word in words}
SIZE_WORDS = ("large", "small", "medium", "big", "fresh", "ripe", "heaped", "level")
FRACTIONS = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅛": "1/8"}
QUANTITIES = (  # tried in order: "1 1/2", "1/2", "1.5"
    re.compile(r"\s*(?P<whole>\d+)\s+(?P<num>\d+)\s*/\s*(?P<den>\d+)"),
    re.compile(r"\s*(?P<num>\d+)\s*/\s*(?P<den>\d+)"),
    re.compile(r"\s*(?P<whole>\d+(?:[.,]\d+)?)"),
)
THREE_PLACES = Decimal("0.001")
BULLETS = "•·◦▪‣*-–— "  # a list's bullet before the quantity (a photo reads "•" as "·" too)


@dataclass(frozen=True)
class ReadLine:
    """One ingredient line read: ``quantity`` exact to three places, ``unit`` one of ``UNITS``,
    ``ingredient`` a known name, ``prep_state`` as printed; ``text`` the line as read."""

    text: str
    quantity: Decimal
    unit: str
    ingredient: str
    prep_state: str = ""

    def as_args(self) -> dict:
        """The line as ``recipe_create``'s arguments take it (a JSON number, never text)."""
        number = (
            int(self.quantity)
            if self.quantity == self.quantity.to_integral()
            else float(self.quantity)
        )
        line = {"ingredient": self.ingredient, "quantity": number, "unit": self.unit}
        if self.prep_state:
            line["prep_state"] = self.prep_state
        return line


def squeeze(text: str) -> str:
    """Lower case without spaces: how names and unit words are compared."""
    return re.sub(r"\s+", "", text.lower())


def _plurals(name: str) -> set[str]:
    forms = {name, name + "s", name + "es"}
    if name.endswith("y"):
        forms.add(name[:-1] + "ies")
    return forms


def read_quantity(text: str) -> tuple[Decimal, str] | None:
    """The number a line starts with ("2", "1.5", "1/2", "1 1/2", "½") and the rest of it."""
    for glyph, fraction in FRACTIONS.items():
        text = re.sub(rf"(\d)\s*{glyph}", rf"\1 {fraction}", text).replace(glyph, fraction)
    m = next((m for pattern in QUANTITIES if (m := pattern.match(text))), None)
    if m is None:
        return None
    parts = m.groupdict()
    try:
        value = Decimal(parts["whole"].replace(",", ".")) if parts.get("whole") else Decimal(0)
        if parts.get("num"):
            denominator = Decimal(m.group("den"))
            if denominator == 0:
                return None
            value += Decimal(m.group("num")) / denominator
    except InvalidOperation:
        return None
    if value <= 0:
        return None
    return value.quantize(THREE_PLACES), text[m.end() :]


class LineReader:
    """Reads printed ingredient lines against the known names given (``services.line_reader``
    gives one over the ``Ingredient`` table)."""

    def __init__(self, known_names: Iterable[str]) -> None:
        self.names: dict[str, str] = {}
        for name in known_names:
            for form in _plurals(name):
                self.names.setdefault(squeeze(form), name)
        self.names.update({squeeze(name): name for name in known_names})
        self.units = sorted(
            ((squeeze(w), u) for w, u in UNIT_WORDS.items()), key=lambda p: -len(p[0])
        )

    def ingredient(self, text: str) -> str | None:
        """The known ingredient ``text`` names (plural, size word in front, spaces lost)."""
        key = squeeze(text).strip(".;:")
        if key in self.names:
            return self.names[key]
        for word in SIZE_WORDS:
            if key.startswith(word) and key[len(word) :] in self.names:
                return self.names[key[len(word) :]]
        return None

    def read(self, text: str) -> ReadLine | None:
        """The line read, or None when it isn't a quantity, a unit and a known ingredient."""
        line = " ".join(text.split()).lstrip(BULLETS)
        counted = read_quantity(line)
        if counted is None:
            return None
        quantity, rest = counted
        name_part, prep = rest, ""
        if m := re.search(r"\(([^)]*)\)\s*$", rest):
            name_part, prep = rest[: m.start()], m.group(1)
        elif "," in rest:
            name_part, _, prep = rest.partition(",")
        key = squeeze(name_part)
        for word, unit in self.units:
            if key.startswith(word) and (found := self.ingredient(key[len(word) :])):
                return ReadLine(line, quantity, unit, found, prep.strip())
        if found := self.ingredient(key):
            return ReadLine(line, quantity, "whole", found, prep.strip())
        return None
