"""Seed 002's ingredient aggregation, as a pure function (no database), so the rules are tested
on their own and the service only stores what it decides.

For each incoming line, in order: it merges into the first existing line (already on the list, or
added earlier in the same push) with the same ingredient, the same unit and the same prep state
(both empty counts as a match), by adding the quantities with exact decimal arithmetic; otherwise
it becomes a new line. No unit conversion, no guessing.

Spotter's one addition to the seed's rule: a line already ticked off (``checked``) is never merged
into: it was bought, so more of it is a new line to buy.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any


@dataclass
class Line:
    ingredient_id: int | None
    name: str
    quantity: Decimal
    unit: str
    prep_state: str = ""
    checked: bool = False
    source_recipe_id: int | None = None
    key: Any = None  # the stored item's id, or None for a line this push adds


@dataclass
class Step:
    """What one incoming line did: ``merged`` into ``line``, taking its quantity from ``before``
    to ``after``, or ``added`` as ``line`` with quantity ``after``. ``before`` and ``after`` are
    this step's own values: ``line`` is shared by every step into the same line, so
    ``line.quantity`` is the total after the whole push, not after this step."""

    action: str
    line: Line
    incoming: Line
    before: Decimal | None = None
    after: Decimal | None = None


def _matches(existing: Line, incoming: Line) -> bool:
    return (
        not existing.checked
        and existing.ingredient_id is not None
        and existing.ingredient_id == incoming.ingredient_id
        and existing.unit == incoming.unit
        and (existing.prep_state or "") == (incoming.prep_state or "")
    )


def aggregate(existing: list[Line], incoming: list[Line]) -> tuple[list[Line], list[Step]]:
    """The list after the push (existing lines first, then the new ones) and one step per
    incoming line. ``existing`` is not changed: merged lines are copies."""
    lines = [Line(**vars(line)) for line in existing]
    steps = []
    for item in incoming:
        target = next((line for line in lines if _matches(line, item)), None)
        if target is None:
            added = Line(**{**vars(item), "checked": False, "key": None})
            lines.append(added)
            steps.append(Step("added", added, item, None, added.quantity))
        else:
            before = target.quantity
            target.quantity = before + item.quantity
            steps.append(Step("merged", target, item, before, target.quantity))
    return lines, steps


def quantity_text(value: Decimal) -> str:
    """``Decimal("3.250")`` → ``"3.25"``, ``Decimal("2.000")`` → ``"2"`` (never ``2E+1``)."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"
