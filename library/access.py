"""Who may see and change which library workouts: one place, used by the services, the search,
the pages and the admin.

* Staff (a superuser, or a member of the read-only "Staff" group that ``programs`` creates) see
  every workout; only a superuser changes any of them.
* Everyone sees their own workouts and may change them.
* An athlete also sees the shared workouts of each coach of one of their programs.
* A coach also sees (read-only) the private workouts of each athlete they coach.

Someone else's workout is "not found", never "forbidden": its existence is not revealed.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from programs.access import is_staff_reader
from programs.models import Program

from .models import LibraryWorkout, Scope


class WorkoutNotFound(LookupError):
    """The workout does not exist, was deleted, or belongs to someone this user may not see."""

    code = "NOT_FOUND"


def sees_everything(user: Any) -> bool:
    """An active staff reader (``programs.access``, the one rule): reads every workout."""
    return bool(getattr(user, "is_active", False)) and is_staff_reader(user)


def visible_workouts(user: Any) -> QuerySet[LibraryWorkout]:
    """The live (not deleted) workouts ``user`` may read."""
    workouts = LibraryWorkout.objects.defer("search_document")
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return workouts.none()
    if sees_everything(user):
        return workouts
    my_coaches = Program.objects.filter(athlete=user, coach__isnull=False).values("coach_id")
    my_athletes = Program.objects.filter(coach=user).values("athlete_id")
    return workouts.filter(
        Q(owner=user)
        | Q(scope=Scope.SHARED, owner_id__in=my_coaches)
        | Q(scope=Scope.PRIVATE, owner_id__in=my_athletes)
    )


def editable_workouts(user: Any) -> QuerySet[LibraryWorkout]:
    """The live workouts ``user`` may change: their own (a superuser: all)."""
    workouts = LibraryWorkout.objects.defer("search_document")
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return workouts.none()
    if user.is_superuser:
        return workouts
    return workouts.filter(owner=user)


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
