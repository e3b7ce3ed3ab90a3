"""A program as seed 000's JSON: camelCase field names, ids derived from positions
("week-2", "week-2-session-1", "week-2-session-1-exercise-3"), cardio or null, logged sets.

``export_program`` runs a constant number of queries (nested ``Prefetch``) whatever the size of
the program. It is what the ``export_program`` command prints, and what tests compare to prove
that a preview or a failed batch leaves the program exactly as it was.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from .models import CardioBlock, Exercise, Program, Session, SetResult, Week


def _date(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def export_cardio(cardio: CardioBlock | None) -> dict[str, Any] | None:
    if cardio is None:
        return None
    return {
        "type": cardio.type,
        "duration": cardio.duration,
        "modality": cardio.modality,
        "instructions": cardio.instructions,
        "completed": cardio.completed,
        "actualDuration": cardio.actual_duration,
        "avgHeartRate": cardio.avg_heart_rate,
        "notes": cardio.notes,
    }


def export_set(result: SetResult) -> dict[str, Any]:
    return {
        "setNumber": result.set_number,
        "reps": result.reps,
        "load": result.load,
        "rpe": float(result.rpe) if result.rpe is not None else None,
        "isWarmup": result.is_warmup,
        "completed": result.completed,
        "notes": result.notes,
    }


def export_exercise(exercise: Exercise, *, session_ref: str) -> dict[str, Any]:
    return {
        "id": f"{session_ref}-exercise-{exercise.position}",
        "name": exercise.name,
        "groupLabel": exercise.group_label,
        "warmupSets": exercise.warmup_sets,
        "workingSets": exercise.working_sets,
        "reps": exercise.reps,
        "targetLoad": exercise.target_load,
        "restSeconds": exercise.rest_seconds,
        "notes": exercise.notes,
        "sets": [export_set(s) for s in exercise.sets.all()],
        "skipped": exercise.skipped,
    }


def _cardio_of(session: Session) -> CardioBlock | None:
    try:
        return session.cardio
    except CardioBlock.DoesNotExist:
        return None


def export_session(session: Session, *, week_ref: str) -> dict[str, Any]:
    ref = f"{week_ref}-session-{session.position}"
    return {
        "id": ref,
        "name": session.name,
        "scheduledDate": _date(session.scheduled_date),
        "dayOfWeek": session.day_of_week,
        "warmup": list(session.warmup or []),
        "exercises": [export_exercise(e, session_ref=ref) for e in session.exercises.all()],
        "cardio": export_cardio(_cardio_of(session)),
        "notes": session.notes,
        "startedAt": session.started_at.isoformat() if session.started_at else None,
        "completed": session.completed,
        "completedDate": _date(session.completed_date),
        "duration": session.duration,
        "rating": session.rating,
    }


def export_week(week: Week) -> dict[str, Any]:
    ref = f"week-{week.position}"
    return {
        "id": ref,
        "weekNumber": week.position,
        "phase": week.phase,
        "startDate": _date(week.start_date),
        "endDate": _date(week.end_date),
        "description": week.description,
        "sessions": [export_session(s, week_ref=ref) for s in week.sessions.all()],
    }


def weeks_queryset():
    """Weeks with everything below them prefetched: four queries for any number of weeks."""
    exercises = Exercise.objects.order_by("position").prefetch_related(
        Prefetch("sets", queryset=SetResult.objects.order_by("set_number"))
    )
    sessions = (
        Session.objects.order_by("position")
        .select_related("cardio")
        .prefetch_related(Prefetch("exercises", queryset=exercises))
    )
    return Week.objects.order_by("position").prefetch_related(
        Prefetch("sessions", queryset=sessions)
    )


def export_program(program: Program) -> dict[str, Any]:
    """The whole program as seed-000 JSON (re-read from the database, so always current)."""
    fresh = Program.objects.select_related("athlete").get(pk=program.pk)
    weeks = weeks_queryset().filter(program_id=program.pk)
    return {
        "id": fresh.pk,
        "name": fresh.name,
        "athlete": fresh.athlete.get_username(),
        "version": fresh.version,
        "startDate": _date(fresh.start_date),
        "weeks": [export_week(w) for w in weeks],
    }
