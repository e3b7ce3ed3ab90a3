"""The program for a model: a compact summary of the program around today (the chat's prompt
asks for it through ``coach.plan``'s ``PLAN``), and every session of some weeks in full (the
``get_week`` read tool and the summary). User-written text is quoted and bounded
(``coach.render.quote``), so a name can neither pose as instructions nor close the
``<program_data>`` block it sits in.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.core.cache import cache
from django.db.models import Prefetch

from coach.render import Quote, quote

from .models import Exercise, Program, Session, Week
from .selectors import current_week, session_cardio, version_key


def _common_extras(exercise: Exercise) -> list[str]:
    """Warm-up sets and rest: often the same for every exercise of a session."""
    extras = [f"{exercise.warmup_sets} warm-up"] if exercise.warmup_sets else []
    return [*extras, f"rest {exercise.rest_seconds}s"]


def _sets_text(exercise: Exercise, *, shared: bool = False, q: Quote = quote) -> str:
    """One exercise; ``shared``: its warm-up and rest are on the session's line instead."""
    text = f"{exercise.position}. {q(exercise.name)} {exercise.working_sets}×{q(exercise.reps, limit=50)}"
    if exercise.target_load:
        text += f" @ {q(exercise.target_load, limit=100)}"
    extras = [] if shared else _common_extras(exercise)
    if exercise.group_label:
        extras.append(f"group {q(exercise.group_label, limit=20)}")
    if exercise.skipped:
        extras.append("SKIPPED")
    if extras:
        text += f" ({', '.join(extras)})"
    if exercise.notes:
        text += f" notes: {q(exercise.notes)}"
    return text


def _session_lines(session: Session, today: datetime.date, q: Quote = quote) -> list[str]:
    when = ", ".join(
        part
        for part in (
            session.day_of_week,
            session.scheduled_date and session.scheduled_date.isoformat(),
        )
        if part
    )
    head = f"  Session {session.position}: {q(session.name)}" + (f" ({when})" if when else "")
    if session.scheduled_date == today:
        head += " [today]"
    if session.completed:
        head += " [completed]"
    if session.skipped:
        head += f" [skipped: {q(session.skip_reason, limit=100)}]"
    exercises = list(session.exercises.all())
    common = {tuple(_common_extras(e)) for e in exercises}
    shared = len(exercises) > 1 and len(common) == 1
    if shared:
        head += f", every exercise: {', '.join(next(iter(common)))}"
    lines = [head]
    if session.notes:
        lines.append(f"    notes: {q(session.notes)}")
    for exercise in exercises:
        lines.append("    " + _sets_text(exercise, shared=shared, q=q))
    cardio = session_cardio(session)
    if cardio is not None:
        line = f"    cardio: {cardio.get_type_display()} {cardio.duration} min"
        if cardio.modality:
            line += f" {q(cardio.modality, limit=100)}"
        if cardio.instructions:
            line += f" instructions: {q(cardio.instructions)}"
        lines.append(line)
    if not exercises and cardio is None:
        lines.append("    rest day (no exercises, no cardio)")
    return lines


SUMMARY_DETAILS = ("full", "current", "brief", "outline")
SUMMARY_TTL_SECONDS = 24 * 60 * 60  # a key can't outlive its day anyway
SUMMARY_FORMAT = 1  # raise it when the summary's wording changes: a shared cache then starts afresh


def cached_program_summary(*, program: Program, today: datetime.date, detail: str = "full") -> str:
    """``program_summary`` kept in Django's cache per state of the program
    (``programs.selectors.version_key``), day and level of detail. Every turn of every athlete
    renders it (several queries and most of a turn's own CPU time); it changes only when the
    program does, so 50 turns at once for one worker process read it, they don't rebuild it."""
    key = f"coach:program-summary:{SUMMARY_FORMAT}:{version_key(program)}:{today}:{detail}"
    text = cache.get(key)
    if text is None:
        text = program_summary(program=program, today=today, detail=detail)
        cache.set(key, text, SUMMARY_TTL_SECONDS)
    return text


def program_summary(*, program: Program, today: datetime.date, detail: str = "full") -> str:
    """A compact view of the program around today, at one of four levels of ``detail`` (the
    token budget picks the richest that fits, ``chat.budget``):

    * ``full``: the current week in full, the next week in brief, the other weeks in one line;
    * ``current``: the current week in full, the other weeks in one line;
    * ``brief``: the current week in brief, the other weeks in one line;
    * ``outline``: only the weeks in one line.

    "In brief" is a session a line: its exercises' names and sets × reps (loads, rest and notes
    are one ``get_week`` call away). Runs of weeks with the same phase are one entry."""
    if detail not in SUMMARY_DETAILS:
        raise ValueError(f'detail is "{detail}"; use one of: {", ".join(SUMMARY_DETAILS)}.')
    weeks = list(Week.objects.filter(program=program).order_by("position"))
    lines = [
        f"Program: {quote(program.name)}, {len(weeks)} week{'s' if len(weeks) != 1 else ''}, "
        f"starts {program.start_date.isoformat()}."
    ]
    week = current_week(weeks, today)
    if week is None:
        lines.append("The program has no weeks yet.")
        return "\n".join(lines)
    if week.start_date <= today <= week.end_date:
        lines.append(f"Today ({today.isoformat()}) is in week {week.position}.")
    else:
        lines.append(
            f"Today ({today.isoformat()}) is outside the program; the nearest week is week {week.position}."
        )
    following = next((w for w in weeks if w.position == week.position + 1), None)
    full = [week] if detail in ("full", "current") else []
    brief = {"full": [following], "brief": [week]}.get(detail, [])
    brief = [w for w in brief if w is not None]
    shown = full + brief
    if full:
        lines.extend(week_lines(full, today=today, label=lambda w: "current week"))
    if brief:
        lines.extend(
            brief_week_lines(
                brief,
                label=lambda w: "current week" if w.pk == week.pk else "next week",
                reference=week if full else None,
            )
        )
    others = [w for w in weeks if w not in shown]
    if others:
        lines.append(
            ("Other weeks" if shown else "Weeks")
            + " (call get_week for their sessions): "
            + "; ".join(week_runs(others))
        )
    return "\n".join(lines)


def week_runs(weeks: list[Week]) -> list[str]:
    """The weeks in one line each run: consecutive weeks of the same phase, each starting the day
    after the one before, are one entry ("weeks 3-52 "Build" 2026-11-16 to 2027-10-31")."""
    runs: list[list[Week]] = []
    for week in weeks:
        last = runs[-1][-1] if runs else None
        if (
            last is not None
            and week.position == last.position + 1
            and week.phase == last.phase
            and week.start_date == last.end_date + datetime.timedelta(days=1)
        ):
            runs[-1].append(week)
        else:
            runs.append([week])
    entries = []
    for run in runs:
        first, last = run[0], run[-1]
        numbers = (
            f"week {first.position}" if len(run) == 1 else f"weeks {first.position}-{last.position}"
        )
        entries.append(
            f"{numbers} {quote(first.phase, limit=60)} {first.start_date.isoformat()} to "
            f"{last.end_date.isoformat()}"
        )
    return entries


def _brief_parts(session: Session) -> list[str]:
    parts = [
        f"{e.position} {quote(e.name)} {e.working_sets}×{quote(e.reps, limit=50)}"
        for e in session.exercises.all()
    ]
    cardio = session_cardio(session)
    if cardio is not None:
        parts.append(f"cardio {cardio.get_type_display()} {cardio.duration} min")
    return parts


def brief_week_lines(
    weeks: list[Week], *, label: Callable[[Week], str], reference: Week | None = None
) -> list[str]:
    """Each week's sessions a line: exercise numbers, names and sets × reps (two queries). A
    session whose line would repeat the one of the session at its place in ``reference`` (a week
    shown in full above it) says so instead, which is the same information in a few tokens."""
    sessions = (
        Session.objects.filter(week__in=[*weeks, *([reference] if reference else [])])
        .select_related("cardio")
        .prefetch_related(Prefetch("exercises", queryset=Exercise.objects.order_by("position")))
        .order_by("week__position", "position")
    )
    by_week: dict[int, list[Session]] = {}
    for session in sessions:
        by_week.setdefault(session.week_id, []).append(session)
    reference_parts = (
        {s.position: _brief_parts(s) for s in by_week.get(reference.pk, [])} if reference else {}
    )
    lines: list[str] = []
    for week in weeks:
        lines.append(
            f"Week {week.position} ({label(week)}, in brief: loads, rest and notes via get_week): "
            f"phase {quote(week.phase, limit=100)}, {week.start_date.isoformat()} to "
            f"{week.end_date.isoformat()}"
        )
        for session in by_week.get(week.pk, []):
            parts = _brief_parts(session)
            text = "; ".join(parts) if parts else "rest day"
            same = reference_parts.get(session.position)
            if parts and same == parts and reference is not None:
                text = (
                    f"same exercises, sets and reps as week {reference.position} "
                    f"session {session.position}"
                )
            when = session.scheduled_date.isoformat() if session.scheduled_date else ""
            lines.append(
                f"  Session {session.position}: {quote(session.name)}"
                + (f" ({when})" if when else "")
                + ": "
                + text
            )
        if not by_week.get(week.pk):
            lines.append("  no sessions")
    return lines


def week_lines(
    weeks: list[Week],
    *,
    today: datetime.date,
    label: Callable[[Week], str] | None = None,
    q: Quote = quote,
    day: str | None = None,
) -> list[str]:
    """Every session of ``weeks`` with its exercises and cardio, user text quoted (two queries
    whatever the number of weeks). Used by the summary and by the ``get_week`` read tool; with
    ``q=plain``, for a person (user text as written); with ``day`` ("Wednesday"), only that day's
    sessions."""
    sessions = (
        Session.objects.filter(week__in=weeks)
        .select_related("cardio")
        .prefetch_related(Prefetch("exercises", queryset=Exercise.objects.order_by("position")))
        .order_by("week__position", "position")
    )
    by_week: dict[int, list[Session]] = {}
    for session in sessions:
        by_week.setdefault(session.week_id, []).append(session)
    lines: list[str] = []
    for week in weeks:
        tag = f" ({label(week)})" if label else ""
        lines.append(
            f"Week {week.position}{tag}: phase {q(week.phase, limit=100)}, "
            f"{week.start_date.isoformat()} to {week.end_date.isoformat()}"
        )
        if week.description:
            lines.append(f"  description: {q(week.description)}")
        week_sessions = by_week.get(week.pk, [])
        if day is not None:
            week_sessions = [s for s in week_sessions if s.day_of_week.lower() == day.lower()]
            if not week_sessions:
                lines.append(f"  nothing planned on {day}")
        if not week_sessions and day is None:
            lines.append("  no sessions")
        for session in week_sessions:
            lines.extend(_session_lines(session, today, q))
    return lines
