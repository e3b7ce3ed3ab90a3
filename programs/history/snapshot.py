"""A program's whole tree as plain values, and the diff between two such snapshots.

A snapshot is ``{"program": {pk: row}, "week": {pk: row}, "session": ..., "cardioblock": ...,
"exercise": ..., "setresult": ...}`` where a row maps field attnames (``week_id``, not ``week``)
to JSON-ready values (dates and times as ISO strings, decimals as strings). It is read with one
``values()`` query per model: six queries whatever the size of the program, no model instances.
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Callable
from typing import Any

from django.db import models

from ..models import CardioBlock, Exercise, Program, Session, SetResult, Week

Snapshot = dict[str, dict[int, dict[str, Any]]]

#: The models of a program's tree, parents before children, with the path from each to its program.
MODELS: dict[str, tuple[type[models.Model], str]] = {
    "program": (Program, "pk"),
    "week": (Week, "program_id"),
    "session": (Session, "week__program_id"),
    "cardioblock": (CardioBlock, "session__week__program_id"),
    "exercise": (Exercise, "session__week__program_id"),
    "setresult": (SetResult, "exercise__session__week__program_id"),
}

#: Each child's parent: (model key, attname of the foreign key).
PARENTS: dict[str, tuple[str, str]] = {
    "week": ("program", "program_id"),
    "session": ("week", "week_id"),
    "cardioblock": ("session", "session_id"),
    "exercise": ("session", "session_id"),
    "setresult": ("exercise", "exercise_id"),
}

#: Fields that change by themselves and are no change of the program.
NOT_DIFFED: dict[str, frozenset[str]] = {
    "program": frozenset({"version", "created_at", "updated_at"}),
}


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    return value


def _converter(field: models.Field) -> Callable[[Any], Any] | None:
    if isinstance(field, models.DateField | models.DateTimeField | models.DecimalField):
        return _json_value
    return None


def _columns(model: type[models.Model]) -> list[tuple[str, Callable[[Any], Any] | None]]:
    return [(f.attname, _converter(f)) for f in model._meta.concrete_fields if not f.primary_key]


COLUMNS = {key: _columns(model) for key, (model, _) in MODELS.items()}


def snapshot(*, program_id: int) -> Snapshot:
    """The program's tree as plain values, in six queries."""
    result: Snapshot = {}
    for key, (model, path) in MODELS.items():
        columns = COLUMNS[key]
        names = [name for name, _ in columns]
        converted = [(name, conv) for name, conv in columns if conv is not None]
        rows: dict[int, dict[str, Any]] = {}
        for row in model.objects.filter(**{path: program_id}).values("pk", *names):
            pk = row.pop("pk")
            for name, conv in converted:
                row[name] = conv(row[name])
            rows[pk] = row
        result[key] = rows
    return result


def diff(before: Snapshot, after: Snapshot) -> list[dict[str, Any]]:
    """The changes from ``before`` to ``after``: created and deleted rows whole, updated rows with
    only their changed fields. Parents come before children; deletes of a row's children are
    listed too (they are what a cascade removed)."""
    changes: list[dict[str, Any]] = []
    for key in MODELS:
        old, new = before.get(key, {}), after.get(key, {})
        skipped = NOT_DIFFED.get(key, frozenset())
        for pk in sorted(old.keys() | new.keys()):
            if pk not in new:
                changes.append(_change(key, pk, "delete", old[pk], None))
            elif pk not in old:
                changes.append(_change(key, pk, "create", None, new[pk]))
            else:
                fields = [f for f in new[pk] if f not in skipped and old[pk].get(f) != new[pk][f]]
                if fields:
                    changes.append(
                        _change(
                            key,
                            pk,
                            "update",
                            {f: old[pk].get(f) for f in fields},
                            {f: new[pk][f] for f in fields},
                        )
                    )
    return changes


def _change(key: str, pk: int, op: str, before: Any, after: Any) -> dict[str, Any]:
    return {"model": key, "pk": pk, "op": op, "before": before, "after": after}


def revert(state: Snapshot, changes: list[dict[str, Any]]) -> None:
    """Turn ``state`` (in place) back across ``changes``: created rows go, deleted rows come back,
    updated fields take their before values. Rows already gone or already there are left as they
    are (a change recorded outside history may have got there first)."""
    for change in reversed(changes):
        rows = state.setdefault(change["model"], {})
        pk = change["pk"]
        if change["op"] == "create":
            rows.pop(pk, None)
        elif change["op"] == "delete":
            rows[pk] = dict(change["before"])
        elif pk in rows:
            rows[pk].update(change["before"])


def copy_state(state: Snapshot) -> Snapshot:
    return {key: {pk: dict(row) for pk, row in rows.items()} for key, rows in state.items()}
