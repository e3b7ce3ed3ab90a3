"""reschedule_workout (swap, replace, push) and the session lookups the schedule tools share.

A moved session keeps its week and its position; only its date (and day name) change, through
``programs.services.object_update``. A session ``replace`` removes goes through
``programs.services.session_remove``, so the history can bring it back. Completed sessions never
move; ``push`` never moves a session past the program's end and warns where one leaves its
week's dates. A rest day (no exercises, no cardio) that a push would carry past the end is
dropped instead (shown on the card as removed, brought back by undo): plans often close on a rest
day, and it must not forbid every push.
"""

from __future__ import annotations

import datetime

from django.db.models import Count

from coach.tools.base import Outcome, ToolContext, ToolStateError, detail, quote
from coach.vocabulary import DAY_NAMES as DAYS
from programs import services
from programs.models import Session, Week
from programs.tools.lookups import get_session

from .args import RescheduleArgs, ref_numbers


def session_of(ctx: ToolContext, ref: str) -> Session:
    week, number = ref_numbers(ref)
    return get_session(
        program_id=ctx.program_id,
        week_number=week,
        number=number,
        week_field="workout_id",
        field="workout_id",
    )


def where(session: Session) -> str:
    return f"Week {session.week.position}, Session {session.position}: {session.name}"


def when(day: datetime.date | None) -> str:
    return f"{day.isoformat()} ({DAYS[day.weekday()]})" if day else "no date"


def workout_target(args) -> str:
    week, number = ref_numbers(args.workout_id)
    return f"Week {week}, Session {number}"  # as the program's own session tools name it


def program_dates(program_id: int) -> tuple[datetime.date, datetime.date]:
    weeks = Week.objects.filter(program_id=program_id).order_by("position")
    first, last = weeks.first(), weeks.last()
    if first is None or last is None:
        raise ToolStateError("NOT_FOUND", "The program has no weeks.")
    return min(first.start_date, last.start_date), max(first.end_date, last.end_date)


def _move(session: Session, day: datetime.date, moves: list, warnings: list[str]) -> None:
    before = session.scheduled_date
    services.object_update(
        obj=session, fields={"scheduled_date": day, "day_of_week": DAYS[day.weekday()]}
    )
    moves.append(
        detail(type="reorder", target=where(session), before=when(before), after=when(day))
    )
    week = session.week
    if not week.start_date <= day <= week.end_date:
        warnings.append(
            f"{where(session)} now falls on {day.isoformat()}, outside week {week.position} "
            f"({week.start_date.isoformat()} to {week.end_date.isoformat()})."
        )


def _refuse_completed(session: Session, what: str) -> None:
    if session.completed:
        raise ToolStateError(
            "CONFLICT",
            f"{where(session)} is already completed, so it can't be {what}.",
            "workout_id",
        )


def reschedule_workout(*, ctx: ToolContext, args: RescheduleArgs) -> Outcome:
    session = session_of(ctx, args.workout_id)
    _refuse_completed(session, "moved")
    old, new = session.scheduled_date, args.new_date
    if old is None:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"{where(session)} has no date; give it one with modify_session.",
            "workout_id",
        )
    if new == old:
        raise ToolStateError(
            "VALIDATION_ERROR", f"{where(session)} is already on {old.isoformat()}.", "new_date"
        )
    first, last = program_dates(ctx.program_id)
    if not first <= new <= last:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"new_date must be within the program, {first.isoformat()} to {last.isoformat()}.",
            "new_date",
        )
    moves: list = []
    warnings: list[str] = []
    if args.strategy == "push":
        _push(ctx, session, days=(new - old).days, last=last, moves=moves, warnings=warnings)
        moved = [m for m in moves if m["type"] == "reorder"]
        dropped = [m["target"] for m in moves if m["type"] == "remove"]
        summary = (
            f"Pushed {quote(session.name)} and {len(moved) - 1} later session(s) by "
            f"{(new - old).days} day(s)."
        )
        if dropped:
            summary += (
                f" Dropped the rest day(s) that would fall past the program's end: "
                f"{'; '.join(dropped)}."
            )
        return Outcome(summary=summary, details=moves, warnings=warnings)
    others = list(
        Session.objects.filter(week__program_id=ctx.program_id, scheduled_date=new)
        .exclude(pk=session.pk)
        .select_related("week")
        .order_by("week__position", "position")
    )
    for other in others:
        _refuse_completed(other, "swapped" if args.strategy == "swap" else "replaced")
    removed = []
    if args.strategy == "replace":
        for other in others:
            if Session.objects.filter(week_id=other.week_id).count() <= 1:
                raise ToolStateError(
                    "VALIDATION_ERROR",
                    f"{where(other)} is the only session of week {other.week.position}; "
                    "a week keeps at least one, so use swap or push.",
                    "strategy",
                )
            removed.append(detail(type="remove", target=where(other), before=when(new)))
            services.session_remove(session=other)
    _move(session, new, moves, warnings)
    if args.strategy == "swap":
        for other in others:
            _move(other, old, moves, warnings)
    summary = f"Moved {quote(session.name)} from {old.isoformat()} to {new.isoformat()}"
    if others and args.strategy == "swap":
        summary += f", and {', '.join(quote(o.name) for o in others)} to {old.isoformat()}"
    if removed:
        summary += f", replacing {', '.join(quote(o.name) for o in others)}"
    return Outcome(summary=summary + ".", details=moves + removed, warnings=warnings)


def _push(ctx, session: Session, *, days: int, last, moves: list, warnings: list[str]) -> None:
    if days < 0:
        raise ToolStateError(
            "VALIDATION_ERROR",
            "push moves sessions later; for an earlier date use swap or replace.",
            "strategy",
        )
    later = [
        s
        for s in Session.objects.filter(
            week__program_id=ctx.program_id,
            scheduled_date__gte=session.scheduled_date,
            completed=False,
        )
        .select_related("week", "cardio")
        .annotate(n_exercises=Count("exercises"))
        .order_by("scheduled_date", "week__position", "position")
        if s.scheduled_date > session.scheduled_date
        or (s.week.position, s.position) >= (session.week.position, session.position)
    ]
    shift = datetime.timedelta(days=days)
    beyond = [s for s in later if s.scheduled_date + shift > last]
    blocking = [s for s in beyond if _has_work(s) or s.pk == session.pk]
    if blocking:
        final = max((s for s in later if _has_work(s) or s.pk == session.pk), key=_order)
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"Pushing by {days} days would move {where(final)} to "
            f"{(final.scheduled_date + shift).isoformat()}, past the program's end "
            f"({last.isoformat()}); push by at most {(last - final.scheduled_date).days} days.",
            "new_date",
        )
    _refuse_emptied_weeks(beyond)
    for moved in reversed(later):  # the last first, so two never share a date mid-way
        if moved not in beyond:
            _move(moved, moved.scheduled_date + shift, moves, warnings)
    moves.reverse()
    warnings.reverse()
    for rest in beyond:  # positions after them renumber, so they go once the moves are made
        moves.append(
            detail(
                type="remove",
                target=where(rest),
                before=f"{when(rest.scheduled_date)}: a rest day that would fall past the "
                "program's end",
            )
        )
        services.session_remove(session=rest)


def _has_work(session: Session) -> bool:
    """Exercises or a cardio block: a session to do (a rest day has neither)."""
    return session.n_exercises > 0 or hasattr(session, "cardio")


def _order(session: Session) -> tuple:
    return (session.scheduled_date, session.week.position, session.position)


def _refuse_emptied_weeks(dropped: list[Session]) -> None:
    """A week keeps at least one session, so a push can't drop a week's every session."""
    by_week: dict[int, list[Session]] = {}
    for rest in dropped:
        by_week.setdefault(rest.week_id, []).append(rest)
    for week_id, rests in by_week.items():
        if Session.objects.filter(week_id=week_id).count() <= len(rests):
            week = rests[0].week
            raise ToolStateError(
                "VALIDATION_ERROR",
                f"Pushing would leave week {week.position} without a session (its rest days "
                "would fall past the program's end); push by fewer days.",
                "new_date",
            )
