"""Demo data for the workout library: ~40 shared workouts of the demo coach and a few private
ones of the demo athlete, saved through ``library.services``.

``seed_library_demo`` is idempotent: a workout is created only when its owner has none of that
title (a deleted one counts, so a re-run does not bring back what a coach deleted), so it never
overwrites what the coach or the athlete changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from coach.plan import DemoSeed

from .demo_data import ATHLETE_WORKOUTS, COACH_WORKOUTS
from .models import LibraryWorkout
from .services import save_workout_to_library


@dataclass(frozen=True)
class LibrarySeedResult:
    created: int
    total: int


@transaction.atomic
def seed_library_demo(*, coach: Any, athlete: Any) -> LibrarySeedResult:
    created = 0
    for owner, specs, shared in ((coach, COACH_WORKOUTS, True), (athlete, ATHLETE_WORKOUTS, False)):
        existing = set(
            LibraryWorkout.all_objects.filter(owner=owner).values_list("title", flat=True)
        )
        for spec in specs:
            if spec["title"] in existing:
                continue
            save_workout_to_library(owner=owner, shared=shared, **spec)
            created += 1
    return LibrarySeedResult(created=created, total=len(COACH_WORKOUTS) + len(ATHLETE_WORKOUTS))


def demo(seed: DemoSeed) -> None:
    """``seed_demo``'s part of this family (``DEMO`` in ``library.tools``)."""
    library = seed_library_demo(coach=seed.people["coach"], athlete=seed.people["athlete"])
    seed.lines.append(f"Workout library: {library.total} demo workouts ({library.created} new).")
