"""Names for the rows of a snapshot ("Week 2, Session 1, Exercise 3") and the readable lines of a
revision ("Week 2, Session 1, Exercise 3: reps 8 → 10", "Removed Week 4: Deload (6 sessions)").

Rows are named by their positions at the time of the change: ``where`` is computed when the
revision is recorded (from the state before for updates and deletes, after for creates) and stored
with each change, so a later renumbering does not rename history.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from coach.vocabulary import plural

from ..models import CardioType
from .snapshot import MODELS, PARENTS, Snapshot

LIMIT = 40
RENUMBERED_SHOWN = 6
NOUNS = {"week": "week", "session": "session", "exercise": "exercise", "setresult": "set"}


def where(state: Snapshot, key: str, pk: int) -> str:
    """The row's name by positions in ``state`` ("" for a row that isn't there)."""
    row = state.get(key, {}).get(pk)
    if row is None:
        return ""
    if key == "program":
        return "Program"
    if key == "week":
        return f"Week {row['position']}"
    parent = where(state, *_parent(key, row))
    if key == "session":
        return f"{parent}, Session {row['position']}"
    if key == "exercise":
        return f"{parent}, Exercise {row['position']}"
    if key == "cardioblock":
        return f"{parent}, cardio"
    return f"{parent}, set {row['set_number']}"


def _parent(key: str, row: dict[str, Any]) -> tuple[str, int]:
    parent_key, attname = PARENTS[key]
    return parent_key, row[attname]


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, list):
        value = "; ".join(str(v) for v in value)
    text = str(value)
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def _field_label(key: str, name: str) -> str:
    model = MODELS[key][0]
    for field in model._meta.concrete_fields:
        if field.attname == name:
            return str(field.verbose_name)
    return name


def _title(key: str, row: dict[str, Any]) -> str:
    if key == "week":
        return row.get("phase", "")
    if key == "cardioblock":
        kind = row.get("type", "")
        label = CardioType(kind).label if kind in CardioType.values else kind
        return f"{label}, {row.get('duration', '')} min"
    if key == "setresult":
        return f"{_shown(row.get('reps'))} × {_shown(row.get('load'))}"
    return row.get("name", "")


def _structural(change: dict[str, Any], children: dict[tuple[str, int, str], int]) -> str:
    key, op = change["model"], change["op"]
    row = change["after"] if op == "create" else change["before"]
    verb = "Added" if op == "create" else "Removed"
    label = change.get("where") or f"{key} #{change['pk']}"
    counts = {
        "week": ("session", "session"),
        "session": ("exercise", "exercise"),
        "exercise": ("setresult", "logged set"),
    }
    suffix = ""
    if key in counts:
        child_key, noun = counts[key]
        count = children.get((child_key, change["pk"], op), 0)
        if count or key != "exercise":
            suffix = f" ({plural(count, noun)})"
    if key == "cardioblock":
        return f"{verb} cardio {'to' if op == 'create' else 'from'} {label.rsplit(', ', 1)[0]}: {_title(key, row)}"
    if key == "setresult":
        return f"{'Logged' if op == 'create' else 'Removed logged'} {label}: {_title(key, row)}"
    return f"{verb} {label}: {_title(key, row)}{suffix}"


def revision_lines(revision: Any) -> list[str]:
    """The revision's changes as lines a person reads, in the order they were recorded."""
    changes: list[dict[str, Any]] = revision.changes or []
    touched = {(c["model"], c["pk"], c["op"]) for c in changes if c["op"] != "update"}
    children: dict[tuple[str, int, str], int] = defaultdict(int)
    lines: list[str] = []
    renumbered: dict[tuple[str, str], list[str]] = {}
    for change in changes:
        key, op = change["model"], change["op"]
        if op != "update":
            row = change["after"] if op == "create" else change["before"]
            if key in PARENTS:
                children[(key, row[PARENTS[key][1]], op)] += 1
    for change in changes:
        key, op = change["model"], change["op"]
        label = change.get("where") or f"{key} #{change['pk']}"
        if op != "update":
            row = change["after"] if op == "create" else change["before"]
            if key in PARENTS and (PARENTS[key][0], row[PARENTS[key][1]], op) in touched:
                continue  # part of a parent added or removed with it
            lines.append(_structural(change, children))
            continue
        before, after = change["before"], change["after"]
        order = "set_number" if key == "setresult" else "position"
        if set(after) == {order}:
            parent = label.rsplit(", ", 1)[0] if ", " in label else ""
            renumbered.setdefault((key, parent), []).append(f"{before[order]} → {after[order]}")
            continue
        parts = [
            f"{_field_label(key, name)} {_shown(before.get(name))} → {_shown(value)}"
            for name, value in after.items()
        ]
        lines.append(f"{label}: {', '.join(parts)}")
    for (key, parent), moves in renumbered.items():
        shown = ", ".join(moves[:RENUMBERED_SHOWN]) + (
            ", …" if len(moves) > RENUMBERED_SHOWN else ""
        )
        noun = NOUNS.get(key, key) + "s"
        if parent:
            lines.append(f"{parent}: {noun} renumbered {shown}")
        else:
            lines.append(f"{noun.capitalize()} renumbered {shown}")
    return lines
