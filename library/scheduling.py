"""Copying a library workout into a program on given dates.

Each date becomes one session in the week that contains it, placed where that day falls among the
week's sessions (after every session dated on or before it, before the first one dated after it).
``plan_workout_sessions`` only computes the plan (for the preview card);
``schedule_workout_sessions`` writes it through ``programs.services.session_tree_insert``, inside
the caller's transaction. Neither checks who may use the workout: callers find it with
``library.access.get_workout_for`` first. Program versions and revisions are left to
``programs.services`` and to the caller (the tool engine records one change per batch).

Bad input raises ``ValueError`` with a message for a person ("2027-03-01 is outside the program
"Base", which runs from 2026-11-02 to 2026-12-27.") and writes nothing.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from coach.vocabulary import day_name
from programs import services as program_services
from programs.models import Program, Session, Week

from .models import LibraryWorkout
from .recurrence import MAX_OCCURRENCES, as_date
from .schemas import WorkoutTemplate, validate_template

MAX_NOTES_CHARS = 2000


@dataclass(frozen=True)
class PlannedSession:
    """One session the plan would create. ``position`` is its place in the week once the plan's
    sessions are inserted in date order; ``same_day`` names the sessions already on that date."""

    date: datetime.date
    week_pk: int
    week_position: int
    position: int
    name: str
    same_day: tuple[str, ...]
    spec: dict[str, Any] = field(repr=False, compare=False)

    def describe(self) -> str:
        text = (
            f"Week {self.week_position}, session {self.position} on "
            f"{day_name(self.date)} {self.date.isoformat()}: {json.dumps(self.name)}"
        )
        if self.same_day:
            text += f" (same day as {', '.join(json.dumps(n) for n in self.same_day)})"
        return text


@dataclass(frozen=True)
class SchedulePlan:
    program_pk: int
    workout_pk: int
    sessions: tuple[PlannedSession, ...]

    def describe(self) -> list[str]:
        """One line per session, for a person or a model (the title is JSON-quoted)."""
        return [planned.describe() for planned in self.sessions]

    def rows(self) -> list[dict[str, Any]]:
        """The plan as JSON-ready rows, for a preview card or a tool result."""
        return [
            {
                "date": planned.date.isoformat(),
                "day": day_name(planned.date),
                "week": planned.week_position,
                "session": planned.position,
                "name": planned.name,
                "exercises": len(planned.spec["exercises"]),
                "cardio": planned.spec["cardio"] is not None,
                "same_day": list(planned.same_day),
            }
            for planned in self.sessions
        ]


def session_notes(workout: LibraryWorkout, time: datetime.time | None) -> str:
    """The workout's description, after "Planned for 06:00." when a time was given (a session
    has a date, not a time, so the time is kept where the athlete reads the session)."""
    notes = workout.description
    if time is not None:
        notes = f"Planned for {time:%H:%M}.\n\n{notes}".strip()
    return notes[:MAX_NOTES_CHARS]


def session_spec(
    *,
    workout: LibraryWorkout,
    template: WorkoutTemplate,
    date: datetime.date,
    time: datetime.time | None = None,
) -> dict[str, Any]:
    """The ``session_tree_insert`` spec of ``workout`` on ``date`` (at ``time``, if given)."""
    return {
        "fields": {
            "name": workout.title,
            "scheduled_date": date,
            "day_of_week": day_name(date),
            "warmup": list(template.warmup),
            "notes": session_notes(workout, time),
        },
        "exercises": [
            {
                "name": e.name,
                "warmup_sets": e.warmup_sets,
                "working_sets": e.sets,
                "reps": e.reps,
                "target_load": e.load,
                "rest_seconds": e.rest_seconds,
                "notes": e.notes,
            }
            for e in template.exercises
        ],
        "cardio": (
            {
                "type": template.cardio.type,
                "duration": template.cardio.duration,
                "modality": template.cardio.modality,
                "instructions": template.cardio.instructions,
            }
            if template.cardio
            else None
        ),
    }


def _dates(dates: Iterable[Any]) -> list[datetime.date]:
    if isinstance(dates, str | datetime.date):
        dates = [dates]
    parsed = [as_date(d, "date") for d in dates]
    if not parsed:
        raise ValueError("Give at least one date to schedule the workout on.")
    if len(parsed) > MAX_OCCURRENCES:
        raise ValueError(
            f"{len(parsed)} dates is too many; at most {MAX_OCCURRENCES} sessions at once."
        )
    seen: set[datetime.date] = set()
    for d in parsed:
        if d in seen:
            raise ValueError(f"{d.isoformat()} is listed twice; give each date once.")
        seen.add(d)
    return sorted(parsed)


def _insert_index(dated: list[datetime.date | None], day: datetime.date) -> int:
    """Where ``day`` goes among the week's sessions (their dates in position order)."""
    on_or_before = [i for i, d in enumerate(dated) if d is not None and d <= day]
    if on_or_before:
        return on_or_before[-1] + 1
    after = [i for i, d in enumerate(dated) if d is not None and d > day]
    return after[0] if after else len(dated)


def _plan(
    *,
    program: Program,
    workout: LibraryWorkout,
    dates: Iterable[Any],
    time: datetime.time | None = None,
) -> tuple[SchedulePlan, dict[int, Week]]:
    days = _dates(dates)
    template = validate_template(workout.template)
    weeks = list(Week.objects.filter(program=program).order_by("position"))
    program_name = json.dumps(program.name)
    if not weeks:
        raise ValueError(
            f"The program {program_name} has no weeks yet, so nothing can be scheduled."
        )
    first = min(w.start_date for w in weeks)
    last = max(w.end_date for w in weeks)
    rows = Session.objects.filter(week__program=program).order_by("week_id", "position")
    week_sessions: dict[int, list[tuple[datetime.date | None, str]]] = {w.pk: [] for w in weeks}
    for week_id, scheduled, name in rows.values_list("week_id", "scheduled_date", "name"):
        week_sessions[week_id].append((scheduled, name))
    planned = []
    for day in days:
        if not first <= day <= last:
            raise ValueError(
                f"{day.isoformat()} is outside the program {program_name}, which runs from "
                f"{first.isoformat()} to {last.isoformat()}."
            )
        week = next((w for w in weeks if w.start_date <= day <= w.end_date), None)
        if week is None:
            raise ValueError(
                f"No week of the program {program_name} contains {day.isoformat()}; its weeks "
                f"run {', '.join(f'{w.start_date}–{w.end_date}' for w in weeks)}."
            )
        siblings = week_sessions[week.pk]
        index = _insert_index([d for d, _ in siblings], day)
        planned.append(
            PlannedSession(
                date=day,
                week_pk=week.pk,
                week_position=week.position,
                position=index + 1,
                name=workout.title,
                same_day=tuple(n for d, n in siblings if d == day),
                spec=session_spec(workout=workout, template=template, date=day, time=time),
            )
        )
        siblings.insert(index, (day, workout.title))
    plan = SchedulePlan(program_pk=program.pk, workout_pk=workout.pk, sessions=tuple(planned))
    return plan, {w.pk: w for w in weeks}


def plan_workout_sessions(
    *,
    program: Program,
    workout: LibraryWorkout,
    dates: Iterable[Any],
    time: datetime.time | None = None,
) -> SchedulePlan:
    """What ``schedule_workout_sessions`` would create, without writing anything."""
    plan, _ = _plan(program=program, workout=workout, dates=dates, time=time)
    return plan


def schedule_workout_sessions(
    *,
    program: Program,
    workout: LibraryWorkout,
    dates: Iterable[Any],
    time: datetime.time | None = None,
) -> list[Session]:
    """Create one session from ``workout`` on each date (see the module docstring); returns them
    in date order. Must run inside ``transaction.atomic()``, with the program locked by the
    caller when others may write to it."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("schedule_workout_sessions must run inside transaction.atomic().")
    plan, weeks = _plan(program=program, workout=workout, dates=dates, time=time)
    return [
        program_services.session_tree_insert(
            week=weeks[planned.week_pk], position=planned.position, spec=planned.spec
        )
        for planned in plan.sessions
    ]
