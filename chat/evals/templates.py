"""Placeholders in scenario text and matchers, resolved against one run's fixture.

Scenarios are written once but run on any day against freshly built data, so dates and ids are
named, not written:

* ``{date:EXPR}`` → ``YYYY-MM-DD``. ``EXPR`` is ``today``, ``monday`` (this week's Monday, where
  week 1 of the fixtures starts) or a weekday name (the next such day *after* today), optionally
  ``+N`` / ``-N`` days: ``{date:today+1}``, ``{date:friday}``, ``{date:monday+28}``.
* ``{ref:EXPR}`` → ``W.S`` (the offline coach's form) and ``{session:EXPR}`` → ``week-W-session-S``
  (the tools' form) of the first session scheduled on that date.
* ``{workout:TITLE}`` → the id of the library workout with that title the athlete may see.

An unknown placeholder, a date with no session or a title with no workout raises
``TemplateError``: the run fails and says so, rather than testing something else.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any

from coach.vocabulary import DAY_NAMES
from library.access import visible_workouts
from programs.models import Program, Session

PLACEHOLDER = re.compile(r"\{(date|ref|session|workout):([^{}]+)\}")
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
    program: Program
    athlete: Any

    def date(self, expr: str) -> datetime.date:
        return resolve_date(expr, self.today)

    def session_on(self, expr: str) -> Session:
        day = self.date(expr)
        session = (
            Session.objects.filter(week__program=self.program, scheduled_date=day)
            .select_related("week")
            .order_by("week__position", "position")
            .first()
        )
        if session is None:
            raise TemplateError(f"No session of the fixture is scheduled on {day.isoformat()}.")
        return session

    def workout_id(self, title: str) -> int:
        workout = visible_workouts(self.athlete).filter(title=title.strip()).first()
        if workout is None:
            raise TemplateError(f"No library workout titled {title.strip()!r} in the fixture.")
        return workout.pk

    def placeholder(self, kind: str, expr: str) -> str:
        if kind == "date":
            return self.date(expr).isoformat()
        if kind == "workout":
            return str(self.workout_id(expr))
        session = self.session_on(expr)
        if kind == "ref":
            return f"{session.week.position}.{session.position}"
        return f"week-{session.week.position}-session-{session.position}"

    def render(self, value: Any) -> Any:
        """``value`` with every placeholder resolved (strings, and inside lists and dicts). A
        string that is exactly ``{workout:…}`` becomes the integer id."""
        if isinstance(value, str):
            whole = PLACEHOLDER.fullmatch(value)
            if whole and whole.group(1) == "workout":
                return self.workout_id(whole.group(2))
            return PLACEHOLDER.sub(lambda m: self.placeholder(m.group(1), m.group(2)), value)
        if isinstance(value, list):
            return [self.render(v) for v in value]
        if isinstance(value, dict):
            return {k: self.render(v) for k, v in value.items()}
        return value
