"""Placeholders in scenario text and matchers, resolved against one run's fixture.

Scenarios are written once but run on any day against freshly built data, so dates and ids are
named, not written:

* ``{date:EXPR}`` → ``YYYY-MM-DD``. ``EXPR`` is ``today``, ``monday`` (this week's Monday, where
  week 1 of the fixtures starts) or a weekday name (the next such day *after* today), optionally
  ``+N`` / ``-N`` days: ``{date:today+1}``, ``{date:friday}``, ``{date:monday+28}``.
* the families' own, from their ``EVAL``'s ``PLACEHOLDERS`` (``coach.plan``): for Spotter
  ``{ref:EXPR}`` → ``W.S`` (the offline coach's form) and ``{session:EXPR}`` →
  ``week-W-session-S`` (the tools' form) of the first session scheduled on that date
  (``programs.evals``), ``{workout:TITLE}`` → the id of the library workout with that title the
  athlete may see (``library.evals``).

An unknown placeholder, a date with no session or a title with no workout raises
``TemplateError``: the run fails and says so, rather than testing something else. A string that is
exactly one placeholder takes the placeholder's value as it is (a workout id is a number).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any

from coach.plan import declared
from coach.vocabulary import DAY_NAMES

PLACEHOLDER = re.compile(r"\{([a-z_]+):([^{}]+)\}")
DATE_EXPR = re.compile(r"\s*([a-z]+)\s*(?:([+-])\s*(\d+))?\s*", re.IGNORECASE)
WEEKDAYS = tuple(name.lower() for name in DAY_NAMES)


class TemplateError(ValueError):
    pass


def resolve_date(expr: str, today: datetime.date) -> datetime.date:
    """``today``, ``monday`` (of this week) or a weekday (the next one after today), ± N days."""
    m = DATE_EXPR.fullmatch(expr)
    base = m.group(1).lower() if m else ""
    if base == "today":
        day = today
    elif base == "monday":
        day = today - datetime.timedelta(days=today.weekday())
    elif base in WEEKDAYS:
        day = today + datetime.timedelta(days=(WEEKDAYS.index(base) - today.weekday() - 1) % 7 + 1)
    else:
        raise TemplateError(f"{{date:{expr}}}: write today, monday or a weekday, ± N days.")
    days = int(m.group(3) or 0)
    return day + datetime.timedelta(days=-days if m.group(2) == "-" else days)


@dataclass(frozen=True)
class Context:
    today: datetime.date
    program: Any
    athlete: Any

    def date(self, expr: str) -> datetime.date:
        return resolve_date(expr, self.today)

    def value(self, kind: str, expr: str) -> Any:
        """The placeholder ``{kind:expr}``'s value: a date, or a family's placeholder."""
        if kind == "date":
            return self.date(expr).isoformat()
        resolvers = {k: f for family in declared("EVAL") for k, f in family.PLACEHOLDERS.items()}
        if kind not in resolvers:
            raise TemplateError(f"{{{kind}:{expr}}}: no such placeholder.")
        try:
            return resolvers[kind](self, expr)
        except (LookupError, ValueError) as exc:
            raise TemplateError(str(exc)) from exc

    def placeholder(self, kind: str, expr: str) -> str:
        return str(self.value(kind, expr))

    def render(self, value: Any) -> Any:
        """``value`` with every placeholder resolved (strings, and inside lists and dicts). A
        string that is exactly one placeholder becomes its value (a workout's integer id)."""
        if isinstance(value, str):
            whole = PLACEHOLDER.fullmatch(value)
            if whole:
                return self.value(whole.group(1), whole.group(2))
            return PLACEHOLDER.sub(lambda m: self.placeholder(m.group(1), m.group(2)), value)
        if isinstance(value, list):
            return [self.render(v) for v in value]
        if isinstance(value, dict):
            return {k: self.render(v) for k, v in value.items()}
        return value
