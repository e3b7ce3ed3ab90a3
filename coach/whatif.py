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


def rows(
    dates: KeyDates, before: dict[datetime.date, float], after: dict[datetime.date, float]
) -> list[dict[str, Any]]:
    """``[{label, date, before, after, change}]`` for the dates whose form changes."""
    out = []
    for label, day in dates:
        if day not in before or day not in after or before[day] == after[day]:
            continue
        out.append(
            {
                "label": label,
                "date": day.isoformat(),
                "before": before[day],
                "after": after[day],
                "change": round(after[day] - before[day], 1),
            }
        )
    return out
