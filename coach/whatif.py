"""The what-if of a preview: the projected Form (TSB) on the plan's next key dates before and after
a proposed change (``coach.engine.preview_calls`` reads it before the run and again inside the
rolled-back run, so the "after" is exactly what applying would give).

Which dates and what form come from the family that declares ``WHATIF`` (``coach.plan``: for
Spotter, the training family's ``training.whatif``); with none installed, a preview has no
what-if. Rows whose form doesn't change are left out; a batch that changes no form has none.
"""

from __future__ import annotations

import datetime
from typing import Any

from . import plan
from .tools.base import ToolContext

KeyDates = list[tuple[str, datetime.date]]


def key_dates(ctx: ToolContext) -> KeyDates:
    """The dates to project (none without a ``WHATIF`` family)."""
    source = plan.whatif()
    return source.key_dates(ctx) if source is not None else []


def form(ctx: ToolContext, dates: KeyDates) -> dict[datetime.date, float]:
    """The projected form on ``dates``, as the database is at this moment."""
    source = plan.whatif()
    if source is None or not dates:
        return {}
    return source.form(ctx, dates)


def projection(ctx: ToolContext, dates: KeyDates) -> dict[datetime.date, dict[str, float]]:
    """Fitness, fatigue and form on ``dates`` (``{"fitness", "fatigue", "form"}``), when the
    family declares ``projection``; else the form alone (``{"form"}``)."""
    source = plan.whatif()
    if source is None or not dates:
        return {}
    if hasattr(source, "projection"):
        return source.projection(ctx, dates)
    return {day: {"form": value} for day, value in source.form(ctx, dates).items()}


def _form(value: Any) -> float:
    return value["form"] if isinstance(value, dict) else value


def rows(
    dates: KeyDates, before: dict[datetime.date, Any], after: dict[datetime.date, Any]
) -> list[dict[str, Any]]:
    """``[{label, date, before, after, change}]`` (the form) for the dates whose form, fitness or
    fatigue changes; with a ``projection``, also ``fitness`` and ``fatigue`` as ``[before,
    after]``. ``before`` and ``after`` map a date to its form, or to its projection."""
    out = []
    for label, day in dates:
        if day not in before or day not in after or before[day] == after[day]:
            continue
        old, new = _form(before[day]), _form(after[day])
        row = {
            "label": label,
            "date": day.isoformat(),
            "before": old,
            "after": new,
            "change": round(new - old, 1),
        }
        for name in ("fitness", "fatigue"):
            if isinstance(before[day], dict) and name in before[day] and name in after[day]:
                row[name] = [before[day][name], after[day][name]]
        out.append(row)
    return out
