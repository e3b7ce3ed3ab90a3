"""The library's part of the coach's evaluation scenarios (``EVAL`` in ``library.tools``, found
by ``coach.plan``; ``chat.evals`` plays them): the ``[fixture]`` key ``library = true`` adds the
demo workout library, shared by the athlete's coach; ``{workout:TITLE}`` is the id of the library
workout with that title the athlete may see; a message step must change none of the athlete's
workouts."""

from __future__ import annotations

from typing import Any

from .access import visible_workouts
from .demo import seed_library_demo
from .models import LibraryWorkout

KEYS = frozenset({"library"})
EXPECTS: dict[str, Any] = {}


def build(world: Any, spec: dict[str, Any]) -> None:
    if spec.get("library"):
        seed_library_demo(coach=world.coach, athlete=world.athlete)


def snapshot(world: Any) -> list[Any]:
    return list(
        LibraryWorkout.all_objects.filter(owner=world.athlete)
        .order_by("pk")
        .values_list("pk", "updated_at")
    )


def workout_id(ctx: Any, title: str) -> int:
    workout = visible_workouts(ctx.athlete).filter(title=title.strip()).first()
    if workout is None:
        raise LookupError(f"No library workout titled {title.strip()!r} in the fixture.")
    return workout.pk


PLACEHOLDERS = {"workout": workout_id}
