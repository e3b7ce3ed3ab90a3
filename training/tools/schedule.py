"""Schedule tools: reschedule_workout, create_custom_workout, mark_workout_complete,
skip_workout and log_sets. Writes like any other: previewed, then applied on the athlete's click.

Every change goes through ``programs.services`` or ``programs.workout_log`` (so
``Program.version`` bumps and the history records it; a session removed by ``replace`` comes back
with undo). ``reschedule_workout`` lives in ``training.tools.reschedule``. The card shows every move as date
before → after.
"""

from __future__ import annotations

import datetime

from coach.tools.base import (
    Outcome,
    ToolContext,
    ToolSpec,
    ToolStateError,
    detail,
    no_target,
    quote,
)
from coach.vocabulary import DAY_NAMES as DAYS
from programs import services, workout_log
from programs.models import Session, Week
from training.services import athlete_today, profile_for, workout_complete

from .args import CompleteArgs, CustomWorkoutArgs, LogSetsArgs, RescheduleArgs, SkipArgs
from .reschedule import (
    program_dates,
    reschedule_workout,
    session_of,
    when,
    where,
    workout_target,
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
        first, last = program_dates(ctx.program_id)
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
        summary=f"Added {quote(args.name)} ({what}) on {when(args.date)} as Week "
        f"{week.position}, Session {position}.",
        details=[detail(type="add", target=where(session), after=f"{when(args.date)}, {what}")],
    )


def mark_workout_complete(*, ctx: ToolContext, args: CompleteArgs) -> Outcome:
    session = session_of(ctx, args.workout_id)
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
        details=[detail(type="modify", target=where(session), fields=fields)],
    )


def skip_workout(*, ctx: ToolContext, args: SkipArgs) -> Outcome:
    session = session_of(ctx, args.workout_id)
    try:
        workout_log.session_skip(session=session, reason=args.reason)
    except workout_log.WorkoutLogError as exc:
        raise ToolStateError("CONFLICT", str(exc), "workout_id") from exc
    return Outcome(
        summary=f"Skipped {quote(session.name)} ({when(session.scheduled_date)}): "
        f"{quote(args.reason)}. It stays in the plan with no load.",
        details=[
            detail(
                type="modify",
                target=where(session),
                fields=[
                    {"field": "status", "oldValue": "planned", "newValue": "skipped"},
                    {"field": "reason", "oldValue": None, "newValue": args.reason},
                ],
            )
        ],
    )


def log_sets(*, ctx: ToolContext, args: LogSetsArgs) -> Outcome:
    session = session_of(ctx, args.workout_id)
    exercises = {e.position: e for e in session.exercises.all()}
    entries = []
    for index, item in enumerate(args.sets):
        exercise = exercises.get(item.exercise)
        if exercise is None:
            raise ToolStateError(
                "NOT_FOUND",
                f"{where(session)} has {len(exercises)} exercises; exercise {item.exercise} "
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
        details=[detail(type="modify", target=where(session), fields=fields)],
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
        target=workout_target if "workout_id" in args_model.model_fields else no_target,
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
