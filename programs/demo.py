"""The demo: three users and a realistic 8-week strength program, built through
``programs.services`` like every other change.

The program started last Monday, so the athlete is in week 2 with a past to show: every workout
before today is logged as done except the last ``DEMO_MISSED`` (3), left missed, so the chat offers
**Realign my plan** on any day of the week. The last week closes the block with three light
sessions and leaves Thursday to Sunday free, so a realign (which pushes the rest of the plan by up
to 4 days here) or a push fits before the program's end.

``seed_demo()`` is idempotent. Users are created or updated (their demo passwords are set again so
the printed logins always work); the demo program is built only when the athlete has none of that
name, so a re-run never wipes what the athlete or the coach changed. ``reset_program=True``
rebuilds it on purpose.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from access.policy import COACHES_GROUP, STAFF_GROUP
from coach.plan import DemoSeed
from coach.vocabulary import day_name

from . import services
from .admin.groups import ensure_coach_group, ensure_staff_group
from .demo_template import PHASES, WEEK_TEMPLATE, Lift
from .history import program_change
from .models import Program, RevisionVia, Session
from .workout_log import session_complete

DEMO_PROGRAM_NAME = "8-Week Strength Block"
DEMO_MISSED = 3  # the last workouts before today left undone: Realign is offered from 3


@dataclass(frozen=True)
class DemoLogin:
    username: str
    password: str
    where: str
    first_name: str
    is_staff: bool
    group: str | None


DEMO_LOGINS: tuple[DemoLogin, ...] = (
    DemoLogin("athlete", "spotter-athlete", "the athlete: chat at /", "Alex", False, None),
    DemoLogin("coach", "spotter-coach", "the coach: /admin/", "Casey", True, COACHES_GROUP),
    DemoLogin("staff", "spotter-staff", "staff: /admin/", "Sam", True, STAFF_GROUP),
)


@dataclass(frozen=True)
class SeedResult:
    users: dict[str, Any]
    program: Program
    program_created: bool


# --- the program --------------------------------------------------------------------------------


def _round5(lbs: float) -> int:
    return int(5 * round(lbs / 5))


def _prescription(lift: Lift, *, phase: str, week_in_phase: int) -> dict[str, Any]:
    """Sets, reps and load of ``lift`` in a week of ``phase`` (``week_in_phase`` from 0)."""
    sets, reps = lift.sets, lift.reps
    notes = lift.notes
    if phase == "Intensification":
        sets, reps = lift.heavy_sets, lift.heavy_reps
    if lift.base is None:
        load = lift.fixed_load
    elif phase == "Accumulation":
        load = f"{lift.base + lift.step * week_in_phase} lbs"
    elif phase == "Intensification":
        load = f"{_round5(lift.base * 1.1) + lift.step * week_in_phase} lbs"
    else:
        load = f"{_round5(lift.base * 0.8)} lbs"
    if phase == "Deload":
        sets = max(2, sets - 1)
        notes = "Deload: leave three or four reps in the tank."
    return {
        "name": lift.name,
        "group_label": lift.group,
        "warmup_sets": lift.warmups,
        "working_sets": sets,
        "reps": reps,
        "target_load": load,
        "rest_seconds": lift.rest,
        "notes": notes,
    }


def monday_of(day: datetime.date) -> datetime.date:
    return day - datetime.timedelta(days=day.weekday())


def build_demo_program(
    *, athlete: Any, coach: Any, start_date: datetime.date, name: str = DEMO_PROGRAM_NAME
) -> Program:
    """Create the 8-week demo program through the services, recorded as its first revision
    (``via=seed``, by the coach); ``start_date`` should be a Monday."""
    program = services.program_create(
        athlete=athlete, coach=coach, name=name, start_date=start_date
    )
    with program_change(
        program=program, actor=coach, via=RevisionVia.SEED, summary="Built the demo program."
    ):
        _build_weeks(program=program, start_date=start_date)
    return program


def _build_weeks(*, program: Program, start_date: datetime.date) -> None:
    seen: dict[str, int] = {}
    for week_number, (phase, description) in enumerate(PHASES, start=1):
        week_in_phase = seen.get(phase, 0)
        seen[phase] = week_in_phase + 1
        week_start = start_date + datetime.timedelta(weeks=week_number - 1)
        week = services.week_insert(
            program=program,
            position=week_number,
            phase=phase,
            start_date=week_start,
            end_date=week_start + datetime.timedelta(days=6),
            description=description,
        )
        last_week = week_number == len(PHASES)
        days = [
            (offset, day)
            for offset, day in enumerate(WEEK_TEMPLATE)
            if not (phase == "Deload" and day.deload_skip) and not (last_week and day.final_skip)
        ]
        for position, (offset, day) in enumerate(days, start=1):
            date = week_start + datetime.timedelta(days=offset)
            session = services.session_insert(
                week=week,
                position=position,
                name=day.name,
                scheduled_date=date,
                day_of_week=day_name(date),
                warmup=list(day.warmup),
                notes=day.notes,
            )
            for index, lift in enumerate(day.lifts, start=1):
                services.exercise_insert(
                    session=session,
                    position=index,
                    **_prescription(lift, phase=phase, week_in_phase=week_in_phase),
                )
            if day.cardio is not None:
                cardio = dict(day.cardio)
                if phase == "Deload":
                    cardio["duration"] = 30
                services.cardio_set(session=session, fields=cardio)


# --- users and the whole seed -------------------------------------------------------------------


def ensure_demo_users() -> dict[str, Any]:
    """Create or update the demo users, their groups and their (demo) passwords."""
    groups = {COACHES_GROUP: ensure_coach_group(), STAFF_GROUP: ensure_staff_group()}
    users: dict[str, Any] = {}
    for login in DEMO_LOGINS:
        user, _ = get_user_model().objects.get_or_create(
            username=login.username,
            defaults={"email": f"{login.username}@example.com", "first_name": login.first_name},
        )
        user.is_staff = login.is_staff
        user.is_active = True
        user.set_password(login.password)
        user.save()
        if login.group:
            user.groups.add(groups[login.group])
        users[login.username] = user
    return users


def log_demo_workouts(*, program: Program, today: datetime.date) -> int:
    """Mark the program's workouts before ``today`` done on their dates, except the last
    ``DEMO_MISSED``, left missed (rest days are never logged nor missed). Returns how many were
    logged."""
    past = [
        session
        for session in Session.objects.filter(week__program=program, scheduled_date__lt=today)
        .select_related("cardio")
        .annotate(n_exercises=Count("exercises"))
        .order_by("scheduled_date", "week__position", "position")
        if session.n_exercises or hasattr(session, "cardio")
    ]
    done = past[: max(0, len(past) - DEMO_MISSED)]
    for session in done:
        minutes = session.cardio.duration if hasattr(session, "cardio") else 60
        session_complete(
            session=session, on=session.scheduled_date, rating=4, duration_min=minutes, bump=False
        )
    return len(done)


@transaction.atomic
def seed_demo(*, today: datetime.date | None = None, reset_program: bool = False) -> SeedResult:
    """Create the demo users and, unless the athlete already has it, the demo program starting on
    the Monday before ``today``'s week (so today falls in week 2), its past workouts logged but
    the last three (``log_demo_workouts``)."""
    users = ensure_demo_users()
    athlete, coach = users["athlete"], users["coach"]
    existing = Program.objects.filter(athlete=athlete, name=DEMO_PROGRAM_NAME).order_by("pk")
    if reset_program:
        existing.delete()
    program = existing.first()
    if program is not None:
        return SeedResult(users=users, program=program, program_created=False)
    today = today or timezone.localdate()
    start = monday_of(today) - datetime.timedelta(weeks=1)
    program = build_demo_program(athlete=athlete, coach=coach, start_date=start)
    log_demo_workouts(program=program, today=today)
    return SeedResult(users=users, program=program, program_created=True)


def demo(seed: DemoSeed) -> None:
    """``seed_demo``'s part of this family (``DEMO`` in ``programs.tools``; it runs first, in
    INSTALLED_APPS order): the demo people, the program, and the logins printed last."""
    result = seed_demo(today=seed.today, reset_program=bool(seed.options.get("reset_program")))
    program = result.program
    seed.people.update(athlete=program.athlete, coach=program.coach)
    weeks = program.weeks.count()
    if result.program_created:
        line = (
            f'Created "{program.name}" for {program.athlete.username}: {weeks} weeks from '
            f"Monday {program.start_date.isoformat()}, coached by {program.coach}."
        )
        seed.lines.append(line)
        seed.created.add(line)
    else:
        seed.lines.append(
            f'Kept the existing "{program.name}" (version {program.version}, {weeks} weeks, '
            f"from {program.start_date.isoformat()}). Use --reset-program to rebuild it."
        )
    seed.closing.append("Log in at /accounts/login/ as:")
    width = max(len(f"{login.username} / {login.password}") for login in DEMO_LOGINS)
    for login in DEMO_LOGINS:
        credentials = f"{login.username} / {login.password}"
        seed.closing.append(f"  {credentials:<{width}}  ({login.where})")
