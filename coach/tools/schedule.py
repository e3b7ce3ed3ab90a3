"""Schedule tools: reschedule_workout, create_custom_workout, mark_workout_complete,
skip_workout and log_sets. Writes like any other: previewed, then applied on the athlete's click.

Every change goes through ``programs.services`` or ``programs.workout_log`` (so
``Program.version`` bumps and the history records it; a session removed by ``replace`` comes back
with undo). A session moved by a reschedule keeps its week and its position; when its new date
lies outside its week's dates the preview warns. The card shows every move as date before → after.
"""

from __future__ import annotations

import datetime

from programs import services, workout_log
from programs.models import Session, Week
from training.services import athlete_today, profile_for, workout_complete

from ..schemas import DAYS
from .base import (
    Outcome,
    ToolContext,
    ToolSpec,
    ToolStateError,
    detail,
    get_session,
    no_target,
    quote,
)
from .training_args import (
    CompleteArgs,
    CustomWorkoutArgs,
    LogSetsArgs,
    RescheduleArgs,
    SkipArgs,
    ref_numbers,
)

ENDURANCE = {"RUNNING": "Running", "CYCLING": "Cycling", "SWIMMING": "Swimming"}
CARDIO_OF_INTENSITY = {
    "easy": "zone2",
    "tempo": "sweetspot",
    "threshold": "threshold",
    "intervals": "intervals",
    "vo2max": "vo2max",
}
DEFAULT_MINUTES = 45


def _session(ctx: ToolContext, ref: str) -> Session:
    week, number = ref_numbers(ref)
    return get_session(
        program_id=ctx.program_id,
        week_number=week,
        number=number,
        week_field="workout_id",
        field="workout_id",
    )


def _where(session: Session) -> str:
    return f"Week {session.week.position}, Session {session.position}: {session.name}"


def _when(day: datetime.date | None) -> str:
    return f"{day.isoformat()} ({DAYS[day.weekday()]})" if day else "no date"


def _target(args) -> str:
    week, number = ref_numbers(args.workout_id)
    return f"w{week}-s{number}"


def _program_dates(program_id: int) -> tuple[datetime.date, datetime.date]:
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
        detail(type="reorder", target=_where(session), before=_when(before), after=_when(day))
    )
    week = session.week
    if not week.start_date <= day <= week.end_date:
        warnings.append(
            f"{_where(session)} now falls on {day.isoformat()}, outside week {week.position} "
            f"({week.start_date.isoformat()} to {week.end_date.isoformat()})."
        )


def _refuse_completed(session: Session, what: str) -> None:
    if session.completed:
        raise ToolStateError(
            "CONFLICT",
            f"{_where(session)} is already completed, so it can't be {what}.",
            "workout_id",
        )


def reschedule_workout(*, ctx: ToolContext, args: RescheduleArgs) -> Outcome:
    session = _session(ctx, args.workout_id)
    _refuse_completed(session, "moved")
    old, new = session.scheduled_date, args.new_date
    if old is None:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"{_where(session)} has no date; give it one with modify_session.",
            "workout_id",
        )
    if new == old:
        raise ToolStateError(
            "VALIDATION_ERROR", f"{_where(session)} is already on {old.isoformat()}.", "new_date"
        )
    first, last = _program_dates(ctx.program_id)
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
        summary = (
            f"Pushed {quote(session.name)} and {len(moves) - 1} later session(s) by "
            f"{(new - old).days} day(s)."
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
                    f"{_where(other)} is the only session of week {other.week.position}; "
                    "a week keeps at least one, so use swap or push.",
                    "strategy",
                )
            removed.append(detail(type="remove", target=_where(other), before=_when(new)))
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
        .select_related("week")
        .order_by("scheduled_date", "week__position", "position")
        if s.scheduled_date > session.scheduled_date
        or (s.week.position, s.position) >= (session.week.position, session.position)
    ]
    final = later[-1]
    if final.scheduled_date + datetime.timedelta(days=days) > last:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"Pushing by {days} days would move {_where(final)} to "
            f"{(final.scheduled_date + datetime.timedelta(days=days)).isoformat()}, past the "
            f"program's end ({last.isoformat()}); push by at most "
            f"{(last - final.scheduled_date).days} days.",
            "new_date",
        )
    for moved in reversed(later):  # the last first, so two never share a date mid-way
        _move(moved, moved.scheduled_date + datetime.timedelta(days=days), moves, warnings)
    moves.reverse()
    warnings.reverse()


def _insert_position(week: Week, day: datetime.date) -> int:
    dated = (
        Session.objects.filter(week=week)
        .order_by("position")
        .values_list("position", "scheduled_date")
    )
    for position, scheduled in dated:
        if scheduled is not None and scheduled > day:
            return position
    return len(dated) + 1


def create_custom_workout(*, ctx: ToolContext, args: CustomWorkoutArgs) -> Outcome:
    week = Week.objects.filter(
        program_id=ctx.program_id, start_date__lte=args.date, end_date__gte=args.date
    ).first()
    if week is None:
        first, last = _program_dates(ctx.program_id)
        raise ToolStateError(
            "NOT_FOUND",
            f"No week of the program contains {args.date.isoformat()}; the program runs from "
            f"{first.isoformat()} to {last.isoformat()}.",
            "date",
        )
    notes = args.description
    if args.target_pace:
        notes = f"{notes}\nTarget pace: {args.target_pace}".strip()
    cardio = None
    if args.sport in ENDURANCE:
        cardio = {
            "type": CARDIO_OF_INTENSITY[args.intensity or "easy"],
            "duration": args.duration or DEFAULT_MINUTES,
            "modality": ENDURANCE[args.sport],
            "instructions": notes,
        }
    elif args.duration or args.intensity:
        extra = ", ".join(
            p for p in (args.duration and f"{args.duration} min", args.intensity) if p
        )
        notes = f"{notes} ({extra})".strip()
    position = _insert_position(week, args.date)
    spec = {
        "fields": {
            "name": args.name,
            "scheduled_date": args.date,
            "day_of_week": DAYS[args.date.weekday()],
            "notes": notes,
        },
        "exercises": [],
        "cardio": cardio,
    }
    session = services.session_tree_insert(week=week, position=position, spec=spec)
    session.week = week
    what = f"{args.sport.lower()}" + (
        f", {cardio['type']} {cardio['duration']} min" if cardio else ""
    )
    return Outcome(
        summary=f"Added {quote(args.name)} ({what}) on {_when(args.date)} as Week "
        f"{week.position}, Session {position}.",
        details=[detail(type="add", target=_where(session), after=f"{_when(args.date)}, {what}")],
    )


def mark_workout_complete(*, ctx: ToolContext, args: CompleteArgs) -> Outcome:
    session = _session(ctx, args.workout_id)
    today = athlete_today(profile=profile_for(athlete=ctx.athlete))
    on = args.date or min(session.scheduled_date or today, today)
    if on > today:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"{on.isoformat()} is in the future; a session is done on or before today.",
            "date",
        )
    was = "completed" if session.completed else ("skipped" if session.skipped else "planned")
    try:
        workout_complete(
            athlete=ctx.athlete,
            session_id=session.pk,
            on=on,
            rating=args.rating,
            notes=args.notes or "",
        )
    except workout_log.WorkoutLogError as exc:
        raise ToolStateError("VALIDATION_ERROR", str(exc)) from exc
    fields = [{"field": "status", "oldValue": was, "newValue": f"completed {on.isoformat()}"}]
    if args.rating is not None:
        fields.append({"field": "rating", "oldValue": session.rating, "newValue": args.rating})
    return Outcome(
        summary=f"Marked {quote(session.name)} completed on {on.isoformat()}.",
        details=[detail(type="modify", target=_where(session), fields=fields)],
    )


def skip_workout(*, ctx: ToolContext, args: SkipArgs) -> Outcome:
    session = _session(ctx, args.workout_id)
    try:
        workout_log.session_skip(session=session, reason=args.reason)
    except workout_log.WorkoutLogError as exc:
        raise ToolStateError("CONFLICT", str(exc), "workout_id") from exc
    return Outcome(
        summary=f"Skipped {quote(session.name)} ({_when(session.scheduled_date)}): "
        f"{quote(args.reason)}. It stays in the plan with no load.",
        details=[
            detail(
                type="modify",
                target=_where(session),
                fields=[
                    {"field": "status", "oldValue": "planned", "newValue": "skipped"},
                    {"field": "reason", "oldValue": None, "newValue": args.reason},
                ],
            )
        ],
    )


def log_sets(*, ctx: ToolContext, args: LogSetsArgs) -> Outcome:
    session = _session(ctx, args.workout_id)
    exercises = {e.position: e for e in session.exercises.all()}
    entries = []
    for index, item in enumerate(args.sets):
        exercise = exercises.get(item.exercise)
        if exercise is None:
            raise ToolStateError(
                "NOT_FOUND",
                f"{_where(session)} has {len(exercises)} exercises; exercise {item.exercise} "
                "doesn't exist.",
                f"sets.{index}.exercise",
            )
        entries.append(
            workout_log.SetEntry(
                exercise_id=exercise.pk,
                set_number=item.set,
                reps=item.reps,
                load=item.load,
                rpe=item.rpe,
            )
        )
    try:
        workout_log.sets_log(session=session, entries=entries)
    except workout_log.WorkoutLogError as exc:
        raise ToolStateError("VALIDATION_ERROR", str(exc), "sets") from exc
    fields = [
        {
            "field": f"{exercises[i.exercise].name} set {i.set}",
            "oldValue": None,
            "newValue": " ".join(
                p
                for p in (
                    f"{i.reps} reps" if i.reps is not None else "",
                    i.load,
                    f"RPE {i.rpe}" if i.rpe else "",
                )
                if p
            ),
        }
        for i in args.sets
    ]
    return Outcome(
        summary=f"Logged {len(entries)} set(s) of {quote(session.name)}.",
        details=[detail(type="modify", target=_where(session), fields=fields)],
    )


def _write(name, description, args_model, execute, *, display, sensitivity="low", rules=()):
    return ToolSpec(
        name=name,
        description=description,
        args_model=args_model,
        kind="write",
        requires_confirmation=True,
        sensitivity=sensitivity,
        category="schedule",
        display_name=display,
        safety_rules=rules,
        execute=execute,
        target=_target if "workout_id" in args_model.model_fields else no_target,
    )


SPECS = [
    _write(
        "reschedule_workout",
        "Move a session to another date. workout_id from get_training_plan.",
        RescheduleArgs,
        reschedule_workout,
        display="Reschedule a workout",
        sensitivity="medium",
        rules=(
            "Completed sessions never move.",
            "push never moves a session past the program's end.",
        ),
    ),
    _write(
        "create_custom_workout",
        "Add a one-off workout on a date (a cardio block for running, cycling, swimming).",
        CustomWorkoutArgs,
        create_custom_workout,
        display="Create a workout",
    ),
    _write(
        "mark_workout_complete",
        "Mark a planned session done (optional rating 1-5 and notes).",
        CompleteArgs,
        mark_workout_complete,
        display="Mark a workout done",
    ),
    _write(
        "skip_workout",
        "Mark a session skipped with a reason; it stays in the plan with no load.",
        SkipArgs,
        skip_workout,
        display="Skip a workout",
        rules=("A completed session can't be skipped.",),
    ),
    _write(
        "log_sets",
        "Log sets done in a session: exercise number, set number, reps, load, RPE.",
        LogSetsArgs,
        log_sets,
        display="Log sets",
    ),
]
