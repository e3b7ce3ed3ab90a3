"""Which library workouts a user may see and change: the access policy's rule (``access.policy``)
for the library's rows, plus the one rule of the library's own, sharing. Used by the services,
the search, the pages and the admin.

* A workout is its owner's (``LibraryWorkout.get_owner_object()``, a user): they see and change it.
* The coach of its owner (of any of the owner's programs) sees it and changes nothing: a coach
  reads the private workouts of each athlete they coach.
* An athlete also sees the **shared** workouts of each coach of one of their programs.
* Staff (a superuser, or the read-only "Staff" group) see every workout; only a superuser changes
  any of them.

Someone else's workout is "not found", never "forbidden": its existence is not revealed.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from access.policy import ACT, coaches_of, is_active, scope, visible

from .models import LibraryWorkout, Scope

COACH_READS_ONLY = [LibraryWorkout]  # the coach of a workout's owner reads it, never changes it


class WorkoutNotFound(LookupError):
    """The workout does not exist, was deleted, or belongs to someone this user may not see."""

    code = "NOT_FOUND"


def visible_workouts(user: Any) -> QuerySet[LibraryWorkout]:
    """The live (not deleted) workouts ``user`` may read."""
    workouts = LibraryWorkout.objects.defer("search_document")
    if not is_active(user):
        return workouts.none()
    rule = scope(user, LibraryWorkout, lookup="owner")
    if rule is None:
        return workouts
    return workouts.filter(rule | Q(scope=Scope.SHARED, owner_id__in=coaches_of(user)))


def editable_workouts(user: Any) -> QuerySet[LibraryWorkout]:
    """The live workouts ``user`` may change: their own (a superuser: all)."""
    return visible(
        LibraryWorkout.objects.defer("search_document"), user, lookup="owner", action=ACT
    )


def parse_workout_id(workout_id: Any) -> int | None:
    """12, "12" and "w_12" all mean workout 12; anything else means none."""
    if isinstance(workout_id, bool):
        return None
    if isinstance(workout_id, int):
        return workout_id if workout_id > 0 else None
    if isinstance(workout_id, str):
        text = workout_id.strip().removeprefix("w_")
        if text.isascii() and text.isdigit() and len(text) <= 18 and int(text) > 0:
            return int(text)
    return None


def get_workout_for(*, user: Any, workout_id: Any) -> LibraryWorkout:
    """The workout ``user`` may read, or ``WorkoutNotFound`` (a ``LookupError``) whose message
    a person can act on; the same error whether it doesn't exist or isn't theirs."""
    pk = parse_workout_id(workout_id)
    workout = visible_workouts(user).filter(pk=pk).first() if pk is not None else None
    if workout is None:
        raise WorkoutNotFound(
            f"There is no workout with ID {workout_id!s:.40} in your library; "
            "search the library for the IDs you can use."
        )
    return workout
