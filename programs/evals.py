"""The program family's part of the coach's evaluation scenarios (``EVAL`` in ``programs.tools``,
found by ``coach.plan``; ``chat.evals`` plays the scenarios). The ``[fixture]`` keys it reads:

* ``program = "grid"`` (the default): ``weeks`` weeks from this week's Monday, each with the
  sessions of ``days``: ``[{ name, day, exercises = ["Back Squat", …], cardio = { type, duration,
  modality } }]``; every exercise 3 × 8-10 @ 135 lbs, 1 warm-up set, 120 s rest.
* ``program = "demo"``: the demo 8-week strength block (``programs.demo``), also from this Monday.
* ``start``: the Monday week 1 starts on, as a date expression (``monday``, the default, or
  ``monday-7`` so that last week is week 1 and today falls in week 2).
* ``name``: the grid program's name.

Week 1 contains today (week 2 with ``start = "monday-7"``), so "today", "tomorrow" and weekday
names land in the program. Placeholders: ``{ref:EXPR}`` → ``W.S`` (the offline coach's form) and
``{session:EXPR}`` → ``week-W-session-S`` (the tools' form) of the first session on that date.
A ``coach`` step edits the program while the card is open; a ``program`` expectation reads the
export: ``1.2.3.name`` is week 1, session 2, exercise 3's name (numbers from 1).
"""

from __future__ import annotations

import datetime
from typing import Any

from coach.vocabulary import DAY_NAMES

from . import services
from .demo import build_demo_program, monday_of
from .export import export_program
from .history import program_change
from .models import Exercise, Program, RevisionVia, Session

KEYS = frozenset({"program", "start", "weeks", "days", "name"})
DEFAULT_DAYS = (
    {"name": "Lower Body", "day": "Monday", "exercises": ["Back Squat", "Romanian Deadlift"]},
    {"name": "Upper Body", "day": "Wednesday", "exercises": ["Bench Press", "Barbell Row"]},
)


def build(world: Any, spec: dict[str, Any]) -> None:
    """Build the fixture's program for ``world.athlete`` (coached by ``world.coach``)."""
    start = monday_of(world.date(str(spec.get("start", "monday"))))
    kind = spec.get("program", "grid")
    if kind == "demo":
        world.program = build_demo_program(
            athlete=world.athlete, coach=world.coach, start_date=start
        )
    elif kind == "grid":
        world.program = _grid(spec, athlete=world.athlete, coach=world.coach, start=start)
    else:
        raise ValueError(f'program is "grid" or "demo", not {kind!r}.')


def _grid(spec: dict[str, Any], *, athlete: Any, coach: Any, start: datetime.date) -> Program:
    weeks = int(spec.get("weeks", 4))
    days = spec.get("days") or DEFAULT_DAYS
    if not 1 <= weeks <= 52:
        raise ValueError(f"weeks is 1 to 52, not {weeks}.")
    program = services.program_create(
        athlete=athlete, coach=coach, name=spec.get("name", "Eval program"), start_date=start
    )
    with program_change(
        program=program, actor=coach, via=RevisionVia.SEED, summary="Built the eval fixture."
    ):
        for number in range(1, weeks + 1):
            week_start = start + datetime.timedelta(weeks=number - 1)
            week = services.week_insert(
                program=program,
                position=number,
                phase="Accumulation",
                start_date=week_start,
                end_date=week_start + datetime.timedelta(days=6),
            )
            for position, day in enumerate(days, start=1):
                _grid_session(week, position, day, week_start)
    program.refresh_from_db()
    return program


def _grid_session(week: Any, position: int, day: dict[str, Any], week_start) -> None:
    if day.get("day") not in DAY_NAMES:
        raise ValueError(f"day is one of {', '.join(DAY_NAMES)}: {day!r}")
    session = services.session_insert(
        week=week,
        position=position,
        name=day.get("name", f"Session {position}"),
        scheduled_date=week_start + datetime.timedelta(days=DAY_NAMES.index(day["day"])),
        day_of_week=day["day"],
        warmup=[],
    )
    for index, name in enumerate(day.get("exercises", []), start=1):
        services.exercise_insert(
            session=session,
            position=index,
            name=name,
            warmup_sets=1,
            working_sets=3,
            reps="8-10",
            target_load="135 lbs",
            rest_seconds=120,
        )
    if day.get("cardio"):
        services.cardio_set(session=session, fields=dict(day["cardio"]))


def snapshot(world: Any) -> tuple[Any, ...]:
    """What "nothing was written" compares of the program: its export and every field of every
    session."""
    sessions = list(Session.objects.filter(week__program=world.program).order_by("pk").values())
    return (export_program(world.program), sessions)


def _session_on(ctx: Any, expr: str) -> Session:
    day = ctx.date(expr)
    session = (
        Session.objects.filter(week__program=ctx.program, scheduled_date=day)
        .select_related("week")
        .order_by("week__position", "position")
        .first()
    )
    if session is None:
        raise LookupError(f"No session of the fixture is scheduled on {day.isoformat()}.")
    return session


def _ref(ctx: Any, expr: str) -> str:
    session = _session_on(ctx, expr)
    return f"{session.week.position}.{session.position}"


def _session(ctx: Any, expr: str) -> str:
    session = _session_on(ctx, expr)
    return f"week-{session.week.position}-session-{session.position}"


PLACEHOLDERS = {"ref": _ref, "session": _session}


def edit(world: Any, step: Any) -> None:
    """A ``coach`` step: the coach removes or adds an exercise at ``step.ref`` (``W.S.E``)."""
    week, session, position = (int(n) for n in step.ref.split("."))
    if step.coach == "remove_exercise":
        services.exercise_remove(
            exercise=Exercise.objects.get(
                session__week__program=world.program,
                session__week__position=week,
                session__position=session,
                position=position,
            )
        )
    else:
        services.exercise_insert(
            session=Session.objects.get(
                week__program=world.program, week__position=week, position=session
            ),
            position=position,
            name=step.name or "Barbell Row",
            working_sets=3,
            reps="8",
            target_load="95 lbs",
        )
    services.program_bump_version(program=world.program)


def program_value(world: Any, path: str, *, lookup: Any, missing: Any) -> Any:
    """``1.2.3.name`` is week 1, session 2, exercise 3's name (numbers from 1); other paths are
    looked up in the export as they are (``weeks.length``, with the evals' ``lookup``); the evals'
    ``missing`` for a path that names nothing."""
    parts = path.split(".")
    value: Any = export_program(world.program)
    for level in ("weeks", "sessions", "exercises"):
        if not parts or not parts[0].isdigit():
            break
        items = value.get(level) if isinstance(value, dict) else None
        index = int(parts.pop(0)) - 1
        if not isinstance(items, list) or not 0 <= index < len(items):
            return missing
        value = items[index]
    return lookup(value, ".".join(parts)) if parts else value


EXPECTS = {"program": program_value}
