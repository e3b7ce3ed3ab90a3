"""Helpers for the program editor's tests: the tree as the page posts it (read from the database
the way the page renders it), and posting it to the preview and apply views."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse

from programs.editor.tree import EXERCISE_FIELDS, SESSION_FIELDS, WEEK_FIELDS
from programs.models import Program, Week


def _fields(obj: Any, names: dict[str, str]) -> dict[str, str]:
    out = {}
    for name in names:
        value = getattr(obj, name)
        out[name] = (
            ""
            if value is None
            else (value.isoformat() if hasattr(value, "isoformat") else str(value))
        )
    return out


def page_tree(program: Program) -> dict[str, Any]:
    """What the editor posts when nothing was touched."""
    program.refresh_from_db()
    weeks = []
    for week in Week.objects.filter(program=program).order_by("position"):
        sessions = []
        for session in week.sessions.order_by("position"):
            exercises = [
                {"key": f"exercise-{e.pk}", "id": e.pk, "fields": _fields(e, EXERCISE_FIELDS)}
                for e in session.exercises.order_by("position")
            ]
            sessions.append(
                {
                    "key": f"session-{session.pk}",
                    "id": session.pk,
                    "fields": _fields(session, SESSION_FIELDS),
                    "exercises": exercises,
                }
            )
        weeks.append(
            {
                "key": f"week-{week.pk}",
                "id": week.pk,
                "fields": _fields(week, WEEK_FIELDS),
                "sessions": sessions,
            }
        )
    return {"version": program.version, "weeks": weeks}


def url(program: Program, step: str = "") -> str:
    name = "admin:programs_program_editor" + (f"_{step}" if step else "")
    return reverse(name, args=[program.pk])


def send(client, program: Program, step: str, tree: dict[str, Any]):
    return client.post(url(program, step), data=json.dumps(tree), content_type="application/json")


def new_exercise(key: str, name: str, **fields: str) -> dict[str, Any]:
    values = {
        "name": name,
        "working_sets": "3",
        "reps": "10",
        "target_load": "bodyweight",
        "rest_seconds": "90",
        "warmup_sets": "0",
        "group_label": "",
        "notes": "",
    } | fields
    return {"key": key, "id": None, "fields": values}
