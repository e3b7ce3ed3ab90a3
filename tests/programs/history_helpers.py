"""Shared helpers for the history tests: a program with logged sets and cardio, export without
the version, and random valid service calls."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction

from programs import services
from programs.export import export_program
from programs.history import program_change
from programs.models import Exercise, Program, Session, Week
from tests.factories import CardioBlockFactory, SetResultFactory, build_program


def rich_program(**fields: Any) -> Program:
    """2 weeks × 3 sessions × 3 exercises, two logged sets on the first two exercises of each
    session, and a cardio block on every third session."""
    program = build_program(weeks=2, sessions=3, exercises=3, **fields)
    for session in Session.objects.filter(week__program=program):
        if session.position == 3:
            CardioBlockFactory(session=session)
        for exercise in session.exercises.filter(position__lte=2):
            SetResultFactory(exercise=exercise, reps=8, rpe="7.5")
            SetResultFactory(exercise=exercise, reps=6)
    return program


def export_without_version(program: Program) -> dict[str, Any]:
    data = export_program(program)
    data.pop("version")
    return data


def recorded(program: Program, *, actor=None, via: str = "admin", summary: str = "edit"):
    """``with recorded(program): ...`` runs the block in a transaction as one revision."""
    return _Recorded(program, actor=actor, via=via, summary=summary)


class _Recorded:
    def __init__(self, program, **kwargs):
        self.program, self.kwargs = program, kwargs
        self.revision = None

    def __enter__(self):
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self._change = program_change(program=self.program, **self.kwargs).start()
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.revision = self._change.finish()
        return self._atomic.__exit__(exc_type, exc, tb)


# --- random valid service calls -----------------------------------------------------------------

WEEK_FIELDS = {
    "phase": "Deload",
    "start_date": datetime.date(2027, 1, 4),
    "end_date": datetime.date(2027, 1, 10),
}


def _pick(queryset, seed: int):
    items = list(queryset.order_by("pk"))
    return items[seed % len(items)] if items else None


def apply_random_op(program: Program, op: str, seed: int) -> None:
    """Run one valid service call chosen by ``op`` on a target chosen by ``seed`` (no-op when the
    program has nothing to act on)."""
    weeks = Week.objects.filter(program=program)
    sessions = Session.objects.filter(week__program=program)
    exercises = Exercise.objects.filter(session__week__program=program)
    if op == "week_insert":
        services.week_insert(
            program=program, position=seed % (weeks.count() + 1) + 1, **WEEK_FIELDS
        )
    elif op == "week_remove" and (week := _pick(weeks, seed)):
        services.week_remove(week=week)
    elif op == "week_move" and (week := _pick(weeks, seed)):
        services.week_move(week=week, new_position=seed % weeks.count() + 1)
    elif op == "session_insert" and (week := _pick(weeks, seed)):
        position = seed % (week.sessions.count() + 1) + 1
        services.session_tree_insert(
            week=week,
            position=position,
            spec={
                "fields": {"name": f"New {seed}", "warmup": ["jog"]},
                "exercises": [
                    {"name": "Dip", "working_sets": 3, "reps": "10", "target_load": "bw"}
                ],
                "cardio": {"type": "zone2", "duration": 20} if seed % 2 else None,
            },
        )
    elif op == "session_remove" and (session := _pick(sessions, seed)):
        services.session_remove(session=session)
    elif op == "session_move" and (session := _pick(sessions, seed)):
        services.session_move(
            session=session, new_position=seed % session.week.sessions.count() + 1
        )
    elif op == "exercise_insert" and (session := _pick(sessions, seed)):
        services.exercise_insert(
            session=session,
            position=seed % (session.exercises.count() + 1) + 1,
            name=f"Curl {seed}",
            working_sets=3,
            reps="12",
            target_load="20 lbs",
        )
    elif op == "exercise_remove" and (exercise := _pick(exercises, seed)):
        services.exercise_remove(exercise=exercise)
    elif op == "exercise_move" and (exercise := _pick(exercises, seed)):
        count = exercise.session.exercises.count()
        services.exercise_move(exercise=exercise, new_position=seed % count + 1)
    elif op == "exercise_update" and (exercise := _pick(exercises, seed)):
        services.object_update(obj=exercise, fields={"reps": str(seed % 20 + 1), "notes": "x"})
    elif op == "session_update" and (session := _pick(sessions, seed)):
        services.object_update(obj=session, fields={"name": f"Renamed {seed}", "rating": 4})
    elif op == "cardio_set" and (session := _pick(sessions, seed)):
        fields = None if seed % 3 == 0 else {"type": "intervals", "duration": seed % 50 + 1}
        services.cardio_set(session=session, fields=fields)
    elif op == "exercises_reorder" and (session := _pick(sessions, seed)):
        pks = list(session.exercises.values_list("pk", flat=True))
        services.exercises_reorder(session=session, ordered_pks=pks[::-1])
    elif op == "program_update":
        services.object_update(obj=program, fields={"name": f"Block {seed}"})


OPS = [
    "week_insert",
    "week_remove",
    "week_move",
    "session_insert",
    "session_remove",
    "session_move",
    "exercise_insert",
    "exercise_remove",
    "exercise_move",
    "exercise_update",
    "session_update",
    "cardio_set",
    "exercises_reorder",
    "program_update",
]
