"""The world a scenario starts from, built afresh for every run (inside the run's transaction).

A fresh athlete (and their coach) each time, so nothing from another run, or from the database
the command runs on, leaks in. The ``[fixture]`` table:

* ``program = "grid"`` (the default): ``weeks`` weeks from this week's Monday, each with the
  sessions of ``days``: ``[{ name, day, exercises = ["Back Squat", …], cardio = { type, duration,
  modality } }]``; every exercise 3 × 8-10 @ 135 lbs, 1 warm-up set, 120 s rest.
* ``program = "demo"``: the demo 8-week strength block (``programs.demo``), also from this Monday.
* ``start``: the Monday week 1 starts on, as a date expression (``monday``, the default, or
  ``monday-7`` so that last week is week 1 and today falls in week 2).
* ``training = true``: the demo's 12 weeks of activities and sleep up to yesterday.
* ``library = true``: the demo workout library, shared by the athlete's coach.

Week 1 contains today (week 2 with ``start = "monday-7"``), so "today", "tomorrow" and weekday names land in the program.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from coach.vocabulary import DAY_NAMES
from library.demo import seed_library_demo
from programs import services
from programs.demo import build_demo_program, monday_of
from programs.history import program_change
from programs.models import Program, RevisionVia
from training.demo import seed_training_demo

from ..models import Conversation
from .templates import resolve_date

FIXTURE_KEYS = frozenset({"program", "start", "weeks", "days", "training", "library", "name"})
DEFAULT_DAYS = (
    {"name": "Lower Body", "day": "Monday", "exercises": ["Back Squat", "Romanian Deadlift"]},
    {"name": "Upper Body", "day": "Wednesday", "exercises": ["Bench Press", "Barbell Row"]},
)


class FixtureError(ValueError):
    pass


@dataclass
class World:
    athlete: Any
    coach: Any
    program: Program
    conversation: Conversation
    today: datetime.date


def build(spec: dict[str, Any], *, today: datetime.date | None = None) -> World:
    unknown = set(spec) - FIXTURE_KEYS
    if unknown:
        raise FixtureError(f"Unknown fixture keys {sorted(unknown)}; use {sorted(FIXTURE_KEYS)}.")
    today = today or timezone.localdate()
    tag = uuid.uuid4().hex[:10]
    users = get_user_model().objects
    athlete = users.create_user(username=f"eval-athlete-{tag}", first_name="Alex")
    coach = users.create_user(username=f"eval-coach-{tag}", first_name="Casey", is_staff=True)
    start = monday_of(resolve_date(str(spec.get("start", "monday")), today))
    kind = spec.get("program", "grid")
    if kind == "demo":
        program = build_demo_program(athlete=athlete, coach=coach, start_date=start)
    elif kind == "grid":
        program = _grid(spec, athlete=athlete, coach=coach, start=start)
    else:
        raise FixtureError(f'program is "grid" or "demo", not {kind!r}.')
    if spec.get("training"):
        seed_training_demo(athlete=athlete, today=today)
    if spec.get("library"):
        seed_library_demo(coach=coach, athlete=athlete)
    conversation = Conversation.objects.create(athlete=athlete, program=program)
    return World(
        athlete=athlete, coach=coach, program=program, conversation=conversation, today=today
    )


def _grid(spec: dict[str, Any], *, athlete: Any, coach: Any, start: datetime.date) -> Program:
    weeks = int(spec.get("weeks", 4))
    days = spec.get("days") or DEFAULT_DAYS
    if not 1 <= weeks <= 52:
        raise FixtureError(f"weeks is 1 to 52, not {weeks}.")
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
                if day.get("day") not in DAY_NAMES:
                    raise FixtureError(f"day is one of {', '.join(DAY_NAMES)}: {day!r}")
                date = week_start + datetime.timedelta(days=DAY_NAMES.index(day["day"]))
                session = services.session_insert(
                    week=week,
                    position=position,
                    name=day.get("name", f"Session {position}"),
                    scheduled_date=date,
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
    program.refresh_from_db()
    return program
