"""Loads as the program family's everyday sentences change them (``nl_changes``): a load said
without its unit after sets and reps, and a load moved by an amount in the exercise's own unit."""

from __future__ import annotations

import re
from collections import Counter

from coach.llm.offline.grammar import CommandError
from coach.llm.offline.language import Slots

from .nl_data import Plan, Planned, plan


def in_own_unit(slots: Slots, e: Planned) -> str:
    """A load said without its unit after sets and reps ("5 sets of 5 at 225"), in the unit of
    the exercise's own load, else the unit most of the program's loads are written in, else the
    number as said (a program with no unit anywhere writes its loads as bare numbers)."""
    n = f"{float(slots.get('bare_load')):g}"
    p = plan(slots.world)
    unit = _unit(e.load) or p.kept("load_unit", lambda: _program_unit(p))
    return f"{n} {unit}".strip()


def _program_unit(p: Plan) -> str:
    counts = Counter(_unit(o.load) for o in p.exercises)
    counts.pop("", None)
    return counts.most_common(1)[0][0] if counts else ""


def _unit(load: str) -> str:
    m = re.match(r"\s*\d+(?:\.\d+)?\s*(kg|kgs|lbs?)\s*$", load or "", re.I)
    if not m:
        return ""
    return "kg" if m.group(1).lower().startswith("kg") else "lbs"


def shifted(e: Planned, slots: Slots) -> str:
    """``e``'s load moved by the load said ("add 10 lbs to squats"), in its own unit only."""
    amount, unit = float(slots.get("load")), str(slots.get("unit") or "lbs")
    m = re.match(r"\s*(\d+(?:\.\d+)?)\s*(kg|lbs?)?\s*$", e.load or "")
    if not m or (m.group(2) or "lbs").rstrip("s") != unit.rstrip("s"):
        raise CommandError(
            f"{e.name} is at {e.load or 'no load'}; say the new load, e.g. “put {e.name} at 60 kg”."
        )
    new = float(m.group(1)) + int(slots.get("delta")) * amount
    if new <= 0:
        raise CommandError(f"{e.name} is at {e.load}; that would leave no load.")
    return f"{new:g} {m.group(2) or 'lbs'}"
