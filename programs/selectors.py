"""Read models of a program for pages and for the engine's rendering: which week is current, a
session's cardio block, and the program panel of the chat page. Reads only; three queries for a
week whatever the program's size."""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from .models import CardioBlock, Exercise, Program, Session, Week


def version_key(program: Program) -> str:
    """One state of ``program``, for caches of what is rendered from it (the chat page's panel, the
    prompt's program summary): its id, its version (every change bumps it, ``programs.services``)
    and ``updated_at`` (any save of the program row, even one that forgot the version). A change
    gives a new key, so such a cache is never invalidated by hand and can't be stale."""
    stamp = program.updated_at.isoformat() if program.updated_at else ""
    return f"{program.pk}:{program.version}:{stamp}"


def current_week(weeks: list[Week], today: datetime.date) -> Week | None:
    """The week containing ``today``, else the nearest one (the first before the program starts,
    the last after it ends)."""
    if not weeks:
        return None
    for week in weeks:
        if week.start_date <= today <= week.end_date:
            return week
    if today < weeks[0].start_date:
        return weeks[0]
    if today > weeks[-1].end_date:
        return weeks[-1]
    return min(weeks, key=lambda w: abs((w.start_date - today).days))


def session_cardio(session: Session) -> CardioBlock | None:
    try:
        return session.cardio
    except CardioBlock.DoesNotExist:
        return None


def _exercise_view(exercise: Exercise, week: Week, session: Session) -> dict[str, Any]:
    return {
        "number": exercise.position,
        "ref": f"week-{week.position}-session-{session.position}-exercise-{exercise.position}",
        "name": exercise.name,
        "group_label": exercise.group_label,
        "warmup_sets": exercise.warmup_sets,
        "working_sets": exercise.working_sets,
        "reps": exercise.reps,
        "target_load": exercise.target_load,
        "rest_seconds": exercise.rest_seconds,
        "notes": exercise.notes,
        "skipped": exercise.skipped,
        "sets_text": f"{exercise.working_sets}×{exercise.reps}"
        + (f" @ {exercise.target_load}" if exercise.target_load else ""),
    }


def program_week_view(
    *, program: Program, today: datetime.date | None = None, week_number: int | None = None
) -> dict[str, Any]:
    """The program panel's read model: the current week (the week containing ``today``, else the
    nearest) or week ``week_number``, with its sessions, exercises, cardio and position refs.
    Three queries whatever the program's size."""
    today = today or timezone.localdate()
    weeks = list(Week.objects.filter(program=program).order_by("position"))
    week = None
    if week_number is not None:
        week = next((w for w in weeks if w.position == week_number), None)
    if week is None:
        week = current_week(weeks, today)
    view: dict[str, Any] = {
        "program": {
            "id": program.pk,
            "name": program.name,
            "start_date": program.start_date,
            "version": program.version,
            "week_count": len(weeks),
        },
        "today": today,
        "week": None,
        "is_current_week": False,
        "previous_week_number": None,
        "next_week_number": None,
        "sessions": [],
    }
    if week is None:
        return view
    view["week"] = {
        "number": week.position,
        "ref": f"week-{week.position}",
        "phase": week.phase,
        "start_date": week.start_date,
        "end_date": week.end_date,
        "description": week.description,
    }
    view["is_current_week"] = week.start_date <= today <= week.end_date
    view["previous_week_number"] = week.position - 1 if week.position > 1 else None
    view["next_week_number"] = week.position + 1 if week.position < len(weeks) else None
    sessions = (
        Session.objects.filter(week=week)
        .select_related("cardio")
        .prefetch_related(Prefetch("exercises", queryset=Exercise.objects.order_by("position")))
        .order_by("position")
    )
    for session in sessions:
        cardio = session_cardio(session)
        exercises = [_exercise_view(e, week, session) for e in session.exercises.all()]
        view["sessions"].append(
            {
                "number": session.position,
                "ref": f"week-{week.position}-session-{session.position}",
                "name": session.name,
                "scheduled_date": session.scheduled_date,
                "day_of_week": session.day_of_week,
                "is_today": session.scheduled_date == today,
                "completed": session.completed,
                "skipped": session.skipped,
                "skip_reason": session.skip_reason,
                "notes": session.notes,
                "exercises": exercises,
                "cardio": None
                if cardio is None
                else {
                    "type": cardio.type,
                    "type_label": cardio.get_type_display(),
                    "duration": cardio.duration,
                    "modality": cardio.modality,
                    "instructions": cardio.instructions,
                    "completed": cardio.completed,
                },
                "is_rest_day": not exercises and cardio is None,
            }
        )
    return view


def week_date_problems(*, program_id: int) -> list[str]:
    """Weeks whose dates are out of order with the week before them (overlapping or earlier), in
    words a coach reads: "Week 3 starts 2026-12-05, before week 2 ends (2026-12-06)." One query."""
    weeks = list(
        Week.objects.filter(program_id=program_id)
        .order_by("position")
        .values_list("position", "start_date", "end_date")
    )
    problems = []
    for (before, _, before_end), (position, start, _) in itertools.pairwise(weeks):
        if start <= before_end:
            problems.append(
                f"Week {position} starts {start.isoformat()}, before week {before} ends "
                f"({before_end.isoformat()})."
            )
    return problems
