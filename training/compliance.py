"""Compliance colours as athletes know them from TrainingPeaks: pure functions over plain numbers.

A completed session is compared with its plan by duration, as a whole percentage
(``round(actual / planned × 100)``):

* **green**: 80 to 120 % of the planned duration;
* **yellow**: 50 to 79 % or 121 to 150 %;
* **red**: below 50 % or above 150 %, and every **missed** session (dated before today and not
  completed).

A session still to come (today or later, not completed) has no colour, nor does a rest day (no
exercises and no cardio), nor a completed session with no planned or no logged duration (nothing
to compare: it shows as done, uncoloured).

Planned minutes (``planned_minutes``): the cardio block's duration when the session has one;
otherwise an estimate from its strength work: every set (warm-up and working, of the exercises not
skipped) takes ``SET_WORK_SECONDS`` (45 s) plus the exercise's rest, rounded up to whole minutes.
Three sets of five with 3 minutes' rest: 3 × (45 + 180) s = 11.25 → 12 minutes.

Logged minutes (``logged_minutes``): the session's logged duration, else the cardio block's actual
minutes, else the moving time of the activities linked to the session.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable

SET_WORK_SECONDS = 45
GREEN, YELLOW, RED = "green", "yellow", "red"


def compliance_percent(*, planned_minutes: int, actual_minutes: int) -> int:
    """``actual`` as a whole percentage of ``planned`` (> 0)."""
    if planned_minutes <= 0:
        raise ValueError(f"planned_minutes must be at least 1 (got {planned_minutes}).")
    return round(actual_minutes * 100 / planned_minutes)


def duration_colour(percent: int) -> str:
    """The colour of a completed session done at ``percent`` of its planned duration."""
    if 80 <= percent <= 120:
        return GREEN
    if 50 <= percent <= 150:
        return YELLOW
    return RED


def compliance_colour(
    *,
    date: datetime.date,
    today: datetime.date,
    completed: bool,
    planned_minutes: int | None,
    actual_minutes: int | None,
    rest: bool = False,
) -> str | None:
    """green, yellow, red or None (see the module docstring)."""
    if rest:
        return None
    if not completed:
        return RED if date < today else None
    if not planned_minutes or actual_minutes is None:
        return None
    return duration_colour(
        compliance_percent(planned_minutes=planned_minutes, actual_minutes=actual_minutes)
    )


def strength_minutes(sets: Iterable[tuple[int, int]]) -> int:
    """Estimated minutes of ``(set count, rest seconds)`` pairs, one per exercise."""
    seconds = sum(count * (SET_WORK_SECONDS + rest) for count, rest in sets)
    return math.ceil(seconds / 60)


def planned_minutes(*, cardio_minutes: int | None, sets: Iterable[tuple[int, int]]) -> int | None:
    """The cardio block's minutes, else the strength estimate; None for a rest day."""
    if cardio_minutes:
        return cardio_minutes
    minutes = strength_minutes(sets)
    return minutes or None


def logged_minutes(
    *,
    session_minutes: int | None,
    cardio_actual_minutes: int | None,
    activity_seconds: Iterable[int] = (),
) -> int | None:
    """What the athlete logged: the session's minutes, the cardio's, or the linked activities'."""
    if session_minutes:
        return session_minutes
    if cardio_actual_minutes:
        return cardio_actual_minutes
    seconds = sum(activity_seconds)
    return round(seconds / 60) if seconds else None
