"""Build large programs in bulk (for the ``bench_tools`` benchmark and demos): a constant number
of queries for any size, positions 1..n at every level."""

from __future__ import annotations

import datetime

from coach.vocabulary import DAY_NAMES

from .models import Exercise, Program, Session, Week

EXERCISE_NAMES = [
    "Back Squat",
    "Bench Press",
    "Barbell Row",
    "Romanian Deadlift",
    "Overhead Press",
    "Pull-up",
    "Lunge",
    "Plank",
]


def build_program_bulk(
    *,
    athlete,
    weeks: int,
    sessions: int,
    exercises: int,
    name: str = "Bulk program",
    start_date: datetime.date = datetime.date(2026, 11, 2),
) -> Program:
    program = Program.objects.create(athlete=athlete, name=name, start_date=start_date)
    fill_program(program=program, weeks=weeks, sessions=sessions, exercises=exercises)
    return program


def fill_program(*, program: Program, weeks: int, sessions: int, exercises: int) -> None:
    """Give an empty program ``weeks`` × ``sessions`` × ``exercises`` from its start date on."""
    start_date = program.start_date
    week_objs = Week.objects.bulk_create(
        Week(
            program=program,
            position=w,
            phase="Accumulation",
            start_date=start_date + datetime.timedelta(weeks=w - 1),
            end_date=start_date + datetime.timedelta(weeks=w - 1, days=6),
        )
        for w in range(1, weeks + 1)
    )
    session_objs = Session.objects.bulk_create(
        Session(
            week=week,
            position=s,
            name=f"Session {s}",
            scheduled_date=week.start_date + datetime.timedelta(days=(s - 1) % 7),
            day_of_week=DAY_NAMES[(week.start_date.weekday() + s - 1) % 7],
        )
        for week in week_objs
        for s in range(1, sessions + 1)
    )
    Exercise.objects.bulk_create(
        (
            Exercise(
                session=session,
                position=e,
                name=EXERCISE_NAMES[(e - 1) % len(EXERCISE_NAMES)],
                warmup_sets=1,
                working_sets=3,
                reps="8-10",
                target_load="135 lbs",
                rest_seconds=120,
            )
            for session in session_objs
            for e in range(1, exercises + 1)
        ),
        batch_size=2000,
    )
