"""Writes to the workout library. Every path (the coach's admin, the demo seed, the coach's
``save_workout_to_library`` tool) goes through these, so the same validation applies everywhere.
And the one read another family makes of it: ``workouts_for`` (the coach's calendar lists the
athlete's workouts to drop on a day).

Input is validated by ``library.schemas`` before anything is written; bad input raises
``ValueError`` with a message naming each bad field and its bounds, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from journal import services as journal

from .access import visible_workouts
from .models import LibraryWorkout, Scope
from .schemas import WorkoutInput, validate_workout


def workouts_for(athlete: Any):
    """The live workouts ``athlete`` may see (``library.access``: their own and their coaches'
    shared ones), as the library's tools look them up for that athlete; a queryset."""
    return visible_workouts(athlete)


EDITABLE_FIELDS = (
    "title",
    "sport",
    "duration_minutes",
    "intensity",
    "description",
    "tags",
    "template",
)


def _stored(data: WorkoutInput) -> dict[str, Any]:
    fields = data.model_dump(exclude={"template"})
    fields["template"] = data.template.model_dump(mode="json", exclude_none=False)
    return fields


def save_workout_to_library(
    *,
    owner: Any,
    title: str,
    sport: str,
    duration_minutes: int,
    intensity: str,
    template: dict[str, Any],
    description: str = "",
    tags: Iterable[str] = (),
    shared: bool = False,
) -> LibraryWorkout:
    """A new library workout owned by ``owner``: private, or ``shared=True`` for a coach's
    workout that every athlete of their programs sees.

    ``template`` is ``{"exercises": [{"name", "sets", "reps", "load", "rest_seconds"?,
    "warmup_sets"?, "notes"?}], "cardio": {"type", "duration", "modality"?, "instructions"?} |
    None, "warmup": [str]?}`` with at least one exercise or a cardio block."""
    data = validate_workout(
        {
            "title": title,
            "sport": sport,
            "duration_minutes": duration_minutes,
            "intensity": intensity,
            "description": description,
            "tags": list(tags),
            "template": template,
        }
    )
    workout = LibraryWorkout.objects.create(
        owner=owner, scope=Scope.SHARED if shared else Scope.PRIVATE, **_stored(data)
    )
    journal.created(workout)  # a chat batch's Undo soft-deletes it (no-op outside a capture)
    return workout


def workout_update(*, workout: LibraryWorkout, fields: dict[str, Any]) -> LibraryWorkout:
    """Change some of ``EDITABLE_FIELDS``; the whole workout is validated again."""
    unknown = sorted(set(fields) - set(EDITABLE_FIELDS))
    if unknown:
        raise ValueError(
            f"Cannot change {', '.join(unknown)}; editable fields: {', '.join(EDITABLE_FIELDS)}."
        )
    merged = {name: getattr(workout, name) for name in EDITABLE_FIELDS} | dict(fields)
    data = _stored(validate_workout(merged))
    for name, value in data.items():
        setattr(workout, name, value)
    workout.save()
    return workout


@transaction.atomic
def workout_soft_delete(*, workout: LibraryWorkout) -> None:
    """Hide the workout from everyone; the row stays (sessions already scheduled from it are
    copies and are not touched)."""
    LibraryWorkout.all_objects.filter(pk=workout.pk, deleted_at__isnull=True).update(
        deleted_at=timezone.now()
    )
    workout.deleted_at = workout.deleted_at or timezone.now()
