"""What the athlete logs against their program: sets (SetResult), the cardio block's actual
numbers, and the session marked complete; and the plain view of planned sessions that fitness
projections read.

Every write validates first (a ``WorkoutLogError`` names the real bounds and nothing changes),
then writes and bumps the program's version once. Callers run inside ``transaction.atomic()``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db.models import Q, Sum

from .models import AthleteProgram, CardioBlock, Exercise, Program, Session, SetResult
from .services import program_bump_version

MAX_SETS = 30
MAX_REPS = 200
MAX_LOAD = 100  # characters of a set's load ("100 kg", "bodyweight + 20 lb")


class WorkoutLogError(ValueError):
    """Bad input for a log; the message is written for the athlete."""


@dataclass(frozen=True)
class SetEntry:
    exercise_id: int
    set_number: int
    reps: int | None = None
    load: str = ""
    rpe: Decimal | float | str | None = None
    is_warmup: bool = False


@dataclass(frozen=True)
class PlannedSession:
    session_id: int
    ref: str
    name: str
    date: datetime.date
    cardio_type: str | None
    cardio_minutes: int | None
    cardio_modality: str
    working_sets: int
    completed: bool


def athlete_program(*, athlete) -> Program | None:
    """The athlete's current program (the newest, as the chat uses)."""
    return AthleteProgram.objects.filter(athlete=athlete).order_by("-created_at", "-pk").first()


def planned_sessions(
    *, athlete, start: datetime.date, end: datetime.date, include_completed: bool = False
) -> list[PlannedSession]:
    """Dated sessions of the athlete's current program between ``start`` and ``end`` (without
    ``include_completed``: only those still to do, neither completed nor skipped)."""
    program = athlete_program(athlete=athlete)
    if program is None:
        return []
    rows = (
        Session.objects.filter(
            week__program=program, scheduled_date__gte=start, scheduled_date__lte=end
        )
        .annotate(planned_sets=Sum("exercises__working_sets", filter=Q(exercises__skipped=False)))
        .order_by("scheduled_date", "week__position", "position")
    )
    if not include_completed:
        rows = rows.filter(completed=False, skipped=False)
    # plain values, not model instances: a year of sessions is read in a few milliseconds (the
    # what-if of every preview reads this twice)
    return [
        PlannedSession(
            session_id=row["pk"],
            ref=f"week-{row['week__position']}-session-{row['position']}",
            name=row["name"],
            date=row["scheduled_date"],
            cardio_type=row["cardio__type"],
            cardio_minutes=row["cardio__duration"],
            cardio_modality=row["cardio__modality"] or "",
            working_sets=row["planned_sets"] or 0,
            completed=row["completed"],
        )
        for row in rows.values(
            "pk",
            "week__position",
            "position",
            "name",
            "scheduled_date",
            "cardio__type",
            "cardio__duration",
            "cardio__modality",
            "planned_sets",
            "completed",
        )
    ]


def session_of_athlete(*, athlete, session_id: int) -> Session:
    """The session if it belongs to the athlete's programs; ``Session.DoesNotExist`` otherwise."""
    return (
        Session.objects.select_related("week__program")
        .prefetch_related("exercises__sets")
        .get(pk=session_id, week__program__athlete=athlete)
    )


def sessions_on(*, athlete, date: datetime.date) -> list[Session]:
    program = athlete_program(athlete=athlete)
    if program is None:
        return []
    return list(
        Session.objects.filter(week__program=program, scheduled_date=date)
        .select_related("week", "cardio")
        .order_by("week__position", "position")
    )


def _rpe(value) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        rpe = Decimal(str(value)).quantize(Decimal("0.1"))
    except InvalidOperation as exc:
        raise WorkoutLogError(f"RPE {value!r} is not a number between 1 and 10.") from exc
    if not Decimal(1) <= rpe <= Decimal(10):
        raise WorkoutLogError(f"RPE {value} is out of range: it goes from 1 to 10.")
    return rpe


def sets_log(*, session: Session, entries: list[SetEntry], bump: bool = True) -> list[SetResult]:
    """Create or replace the SetResults of ``entries`` (by exercise and set number)."""
    exercises = {e.pk: e for e in Exercise.objects.filter(session=session)}
    cleaned: list[tuple[Exercise, SetEntry, Decimal | None]] = []
    for entry in entries:
        exercise = exercises.get(entry.exercise_id)
        if exercise is None:
            raise WorkoutLogError(
                f"Exercise {entry.exercise_id} is not in {session.name}; it has "
                f"{len(exercises)} exercises."
            )
        if not 1 <= entry.set_number <= MAX_SETS:
            raise WorkoutLogError(
                f"{exercise.name}: set {entry.set_number} is out of range (1 to {MAX_SETS})."
            )
        if entry.reps is not None and not 0 <= entry.reps <= MAX_REPS:
            raise WorkoutLogError(
                f"{exercise.name}: {entry.reps} reps is out of range (0 to {MAX_REPS})."
            )
        if len(entry.load) > MAX_LOAD:
            raise WorkoutLogError(
                f"{exercise.name}: the load is longer than {MAX_LOAD} characters."
            )
        cleaned.append((exercise, entry, _rpe(entry.rpe)))
    if not cleaned:
        return []
    SetResult.objects.filter(
        Q(*[Q(exercise=ex, set_number=en.set_number) for ex, en, _ in cleaned], _connector=Q.OR)
    ).delete()
    results = SetResult.objects.bulk_create(
        SetResult(
            exercise=exercise,
            set_number=entry.set_number,
            reps=entry.reps,
            load=entry.load.strip(),
            rpe=rpe,
            is_warmup=entry.is_warmup,
        )
        for exercise, entry, rpe in cleaned
    )
    if bump:
        program_bump_version(program=session.week.program)
    return results


def cardio_log(
    *,
    session: Session,
    actual_duration: int | None,
    avg_heart_rate: int | None,
    notes: str = "",
    bump: bool = True,
) -> CardioBlock:
    cardio = CardioBlock.objects.filter(session=session).first()
    if cardio is None:
        raise WorkoutLogError(f"{session.name} has no cardio block to log.")
    if actual_duration is not None and not 1 <= actual_duration <= 1440:
        raise WorkoutLogError(f"{actual_duration} minutes is out of range (1 to 1440).")
    if avg_heart_rate is not None and not 30 <= avg_heart_rate <= 240:
        raise WorkoutLogError(f"Heart rate {avg_heart_rate} is out of range (30 to 240).")
    cardio.actual_duration = actual_duration
    cardio.avg_heart_rate = avg_heart_rate
    cardio.completed = actual_duration is not None
    if notes:
        cardio.notes = notes
    cardio.save(update_fields=["actual_duration", "avg_heart_rate", "completed", "notes"])
    if bump:
        program_bump_version(program=session.week.program)
    return cardio


def session_complete(
    *,
    session: Session,
    on: datetime.date,
    rating: int | None = None,
    notes: str = "",
    duration_min: int | None = None,
    bump: bool = True,
) -> Session:
    """Mark the session done on ``on`` with an optional rating (1–5), notes and duration.
    Pass ``bump=False`` when the caller logs several things in one change and bumps once."""
    if rating is not None and not 1 <= rating <= 5:
        raise WorkoutLogError(f"Rating {rating} is out of range: it goes from 1 to 5.")
    if duration_min is not None and not 1 <= duration_min <= 1440:
        raise WorkoutLogError(f"{duration_min} minutes is out of range (1 to 1440).")
    session.completed = True
    session.completed_date = on
    session.rating = rating
    session.duration = duration_min
    session.skipped = False  # done after all: no longer skipped
    session.skip_reason = ""
    if notes:
        session.notes = notes
    session.save(
        update_fields=[
            "completed",
            "completed_date",
            "rating",
            "duration",
            "notes",
            "skipped",
            "skip_reason",
        ]
    )
    if bump:
        program_bump_version(program=session.week.program)
    return session


MAX_SKIP_REASON = 500


def session_skip(*, session: Session, reason: str, bump: bool = True) -> Session:
    """Mark the session skipped with ``reason``: it stays in the plan (and in its week's
    positions) but plans no load. A completed session can't be skipped."""
    reason = reason.strip()
    if not reason:
        raise WorkoutLogError("Give a reason for skipping the session.")
    if len(reason) > MAX_SKIP_REASON:
        raise WorkoutLogError(f"The reason is longer than {MAX_SKIP_REASON} characters.")
    if session.completed:
        done = session.completed_date.isoformat() if session.completed_date else "already"
        raise WorkoutLogError(f"{session.name} was completed ({done}); it can't be skipped.")
    session.skipped = True
    session.skip_reason = reason
    session.save(update_fields=["skipped", "skip_reason"])
    if bump:
        program_bump_version(program=session.week.program)
    return session
