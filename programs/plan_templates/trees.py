"""A template's tree as copies, versions and links.

* ``specs``: a program's weeks as ``services.weeks_tree_insert`` specs, every date moved by a
  number of days (a plan only: nothing done, logged or skipped is copied);
* ``record_version``: the template's tree as it is now, kept as a ``TemplateVersion`` when it
  changed since the last one (``history.snapshot``'s plain values, JSON keys as strings);
* ``pair``: which row of a copy is which row of its source, by position (a copy has the same
  shape), as ``TemplateAssignment.links``.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Max

from ..history import snapshot
from ..models import ProgramTemplate, TemplateVersion, Week
from ..services import program_version

KINDS = ("week", "session", "cardioblock", "exercise")  # what a template version keeps
LINKED = ("week", "session", "exercise")

SESSION_COPIED = ("name", "day_of_week", "warmup", "notes")
EXERCISE_COPIED = (
    "name",
    "group_label",
    "warmup_sets",
    "working_sets",
    "reps",
    "target_load",
    "rest_seconds",
    "notes",
)
CARDIO_COPIED = ("type", "duration", "modality", "instructions", "notes")


def moved(day: datetime.date | None, days: int) -> datetime.date | None:
    return None if day is None else day + datetime.timedelta(days=days)


def specs(weeks: list[Week], days: int) -> list[dict[str, Any]]:
    """``weeks`` (``editor.tree.program_tree``'s, prefetched) as tree-insert specs, moved by
    ``days``."""
    out = []
    for week in weeks:
        sessions = []
        for session in week.sessions.all():
            cardio = getattr(session, "cardio", None)
            fields = {name: getattr(session, name) for name in SESSION_COPIED}
            fields["scheduled_date"] = moved(session.scheduled_date, days)
            sessions.append(
                {
                    "fields": fields,
                    "exercises": [
                        {name: getattr(e, name) for name in EXERCISE_COPIED}
                        for e in session.exercises.all()
                    ],
                    "cardio": (
                        {name: getattr(cardio, name) for name in CARDIO_COPIED} if cardio else None
                    ),
                }
            )
        out.append(
            {
                "fields": {
                    "phase": week.phase,
                    "description": week.description,
                    "start_date": moved(week.start_date, days),
                    "end_date": moved(week.end_date, days),
                },
                "sessions": sessions,
            }
        )
    return out


def tree_now(template: ProgramTemplate) -> dict[str, dict[str, dict[str, Any]]]:
    """The template's tree now, as a version keeps it (keys as strings, as JSON gives them back)."""
    state = snapshot(program_id=template.program_id)
    return {kind: {str(pk): row for pk, row in state[kind].items()} for kind in KINDS}


def latest_version(template: ProgramTemplate) -> TemplateVersion | None:
    return template.versions.order_by("-number").first()


def record_version(template: ProgramTemplate) -> TemplateVersion:
    """The template's newest version, recorded first when its program changed since."""
    latest = latest_version(template)
    version = program_version(program_id=template.program_id)
    if latest is not None and latest.program_version == version:
        return latest
    number = (template.versions.aggregate(n=Max("number"))["n"] or 0) + 1
    return TemplateVersion.objects.create(
        template=template, number=number, program_version=version, tree=tree_now(template)
    )


def pair(source: list[Week], copy: list[Week]) -> dict[str, dict[str, int]]:
    """``{"week": {source pk: copy pk}, ...}`` for two trees of the same shape (keys as strings)."""
    links: dict[str, dict[str, int]] = {kind: {} for kind in LINKED}
    for week, their_week in zip(source, copy, strict=True):
        links["week"][str(week.pk)] = their_week.pk
        for session, theirs in zip(week.sessions.all(), their_week.sessions.all(), strict=True):
            links["session"][str(session.pk)] = theirs.pk
            for exercise, their_ex in zip(
                session.exercises.all(), theirs.exercises.all(), strict=True
            ):
                links["exercise"][str(exercise.pk)] = their_ex.pk
    return links
