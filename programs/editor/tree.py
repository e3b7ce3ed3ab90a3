"""The program as the editor reads it (the current tree, in a constant number of queries) and as
the coach sends it back (the desired tree, parsed and checked into plain values).

The page posts the whole tree as JSON: weeks in order, each with its sessions in order, each with
its exercises in order. A row that exists carries its ``id``; a new or copied row carries none,
only its ``key`` (made by the page). Every value is a string from a form field; ``parse`` turns
them into the model's types and words what is wrong ("Number of sets must be a whole number"),
so nothing malformed reaches the engine and no database error is ever shown.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch

from coach.vocabulary import DAY_NAMES

from ..models import Exercise, Program, Session, Week
from ..tools.args import MAX_EXERCISES, MAX_SESSIONS, MAX_WEEKS

# The fields the editor shows, per level, with their words (labels and error messages).
WEEK_FIELDS = {
    "phase": "Phase",
    "start_date": "Start date",
    "end_date": "End date",
    "description": "Description",
}
SESSION_FIELDS = {
    "name": "Name",
    "day_of_week": "Day",
    "scheduled_date": "Date",
    "notes": "Notes",
}
EXERCISE_FIELDS = {
    "name": "Name",
    "working_sets": "Sets",
    "reps": "Reps",
    "target_load": "Load",
    "rest_seconds": "Rest (s)",
    "warmup_sets": "Warm-up sets",
    "group_label": "Group",
    "notes": "Notes",
}
INTEGER_FIELDS = {"working_sets", "rest_seconds", "warmup_sets"}
DATE_FIELDS = {"start_date", "end_date", "scheduled_date"}
OPTIONAL_FIELDS = {"scheduled_date", "day_of_week"}


def program_tree(program: Program) -> list[Week]:
    """The program's weeks with their sessions (cardio joined), exercises and a count of each
    exercise's logged sets: three queries whatever the number of weeks."""
    return program_trees([program.pk])[program.pk]


def program_trees(program_ids: list[int]) -> dict[int, list[Week]]:
    """``program_tree`` of many programs at once, by program id: the same three queries."""
    exercises = Exercise.objects.order_by("position").annotate(logged=Count("sets"))
    sessions = (
        Session.objects.order_by("position")
        .select_related("cardio")
        .prefetch_related(Prefetch("exercises", queryset=exercises))
    )
    trees: dict[int, list[Week]] = {pk: [] for pk in program_ids}
    for week in (
        Week.objects.filter(program_id__in=program_ids)
        .order_by("program_id", "position")
        .prefetch_related(Prefetch("sessions", queryset=sessions))
    ):
        trees[week.program_id].append(week)
    return trees


# --- the desired tree -----------------------------------------------------------------------------


class TreeError(ValueError):
    """The posted tree is not one the editor could have sent (a person sees this text)."""


@dataclass
class Problem:
    """One thing wrong with what the coach typed, attached to a row (``key``) and a field."""

    key: str
    field: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "field": self.field, "message": self.message}


@dataclass
class Row:
    """One week, session or exercise as the coach wants it: ``pk`` None for a new one."""

    key: str
    pk: int | None
    values: dict[str, Any]
    children: list[Row] = field(default_factory=list)
    copy_of: int | None = None  # a new session copied from this one (its warm-up and cardio)


def _text(raw: Any) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str | int | float):
        raise TreeError("A field of the program is not text.")
    return str(raw).strip()


def _value(name: str, label: str, raw: Any, key: str, problems: list[Problem]) -> Any:
    text = _text(raw)
    if name in INTEGER_FIELDS:
        try:
            return int(text)
        except ValueError:
            problems.append(Problem(key, name, f"{label} must be a whole number (got {text!r})."))
            return None
    if name in DATE_FIELDS:
        if not text and name in OPTIONAL_FIELDS:
            return None
        try:
            return datetime.date.fromisoformat(text)
        except ValueError:
            problems.append(Problem(key, name, f"{label} must be a date like 2026-11-02."))
            return None
    if name == "day_of_week" and text and text not in DAY_NAMES:
        problems.append(Problem(key, name, f"{label} must be a day of the week."))
        return None
    return text


def _row(data: Any, fields: dict[str, str], problems: list[Problem], level: str) -> Row:
    if not isinstance(data, dict):
        raise TreeError(f"A {level} of the program is not an object.")
    key = data.get("key")
    if not isinstance(key, str) or not key or len(key) > 40:
        raise TreeError(f"A {level} has no key.")
    pk = data.get("id")
    if pk is not None and (isinstance(pk, bool) or not isinstance(pk, int)):
        raise TreeError(f"A {level}'s id is not a number.")
    raw = data.get("fields")
    if not isinstance(raw, dict):
        raise TreeError(f"A {level} has no fields.")
    values = {
        name: _value(name, label, raw.get(name), key, problems) for name, label in fields.items()
    }
    copy_of = data.get("copyOf")
    if copy_of is not None and (isinstance(copy_of, bool) or not isinstance(copy_of, int)):
        raise TreeError(f"A {level} copies something that is not a {level}.")
    return Row(key=key, pk=pk, values=values, copy_of=copy_of)


def _children(data: dict, name: str, limit: int, level: str) -> list:
    items = data.get(name, [])
    if not isinstance(items, list):
        raise TreeError(f"The {level}s are not a list.")
    if len(items) > limit:
        raise TreeError(f"At most {limit} {level}s.")
    return items


def parse(data: Any) -> tuple[list[Row], list[Problem]]:
    """The weeks the coach wants, and what is wrong with what they typed. Raises ``TreeError``
    for a shape the page never sends (a crafted request)."""
    if not isinstance(data, dict):
        raise TreeError("The program was not sent.")
    problems: list[Problem] = []
    weeks = []
    for week_data in _children(data, "weeks", MAX_WEEKS, "week"):
        week = _row(week_data, WEEK_FIELDS, problems, "week")
        for session_data in _children(week_data, "sessions", MAX_SESSIONS, "session"):
            session = _row(session_data, SESSION_FIELDS, problems, "session")
            session.children = [
                _row(item, EXERCISE_FIELDS, problems, "exercise")
                for item in _children(session_data, "exercises", MAX_EXERCISES, "exercise")
            ]
            week.children.append(session)
        weeks.append(week)
    keys = [
        r.key for w in weeks for r in (w, *w.children, *(e for s in w.children for e in s.children))
    ]
    if len(keys) != len(set(keys)):
        raise TreeError("Two rows of the program have the same key.")
    return weeks, problems
