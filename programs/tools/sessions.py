"""Session tools: modify_session, add_session, remove_session, copy_session."""

from __future__ import annotations

import datetime

from coach.tools.base import (
    FieldUpdate,
    Outcome,
    ToolContext,
    ToolSpec,
    ToolStateError,
    detail,
    insert_position,
    no_target,
    quote,
)
from coach.vocabulary import DAY_NAMES as DAYS
from programs import services
from programs.models import CardioBlock, Exercise, Session

from .args import (
    SESSION_FIELDS,
    AddSessionArgs,
    CopySessionArgs,
    ModifySessionArgs,
    RemoveSessionArgs,
    cardio_model_fields,
    sent_fields,
    session_tree_spec,
)
from .lookups import (
    as_written,
    cardio_dict,
    describe_session,
    get_cardio,
    get_session,
    get_week,
    session_label,
)


def _session_target(args: ModifySessionArgs | RemoveSessionArgs) -> str:
    return f"Week {args.weekNumber}, Session {args.sessionNumber}"


def _describe(session: Session) -> str:
    return describe_session(
        session,
        exercise_count=Exercise.objects.filter(session=session).count(),
        cardio=get_cardio(session),
    )


def modify_session(*, ctx: ToolContext, args: ModifySessionArgs) -> FieldUpdate:
    """Update session-level fields (name, scheduledDate, dayOfWeek, warmup, notes, cardio).

    ``cardio: null`` removes the cardio block; a cardio object replaces it whole (a new block,
    not completed). ``scheduledDate: null`` clears the date. ``updates`` must hold at least one
    field (an empty object is a VALIDATION_ERROR). Exercises are untouched."""
    program_id = ctx.program_id
    session = get_session(
        program_id=program_id, week_number=args.weekNumber, number=args.sessionNumber
    )
    # The decision as data (the engine words it once this returns), the writes last.
    changes = sent_fields(args.updates, session, SESSION_FIELDS)
    written = {SESSION_FIELDS[name]: new for name, _, new in changes}
    if "day_of_week" in written and written["day_of_week"] is None:
        written["day_of_week"] = ""
    old_cardio = get_cardio(session)
    cardio_sent = "cardio" in args.updates.model_fields_set
    new_cardio = args.updates.cardio
    cardio_fields = cardio_model_fields(new_cardio) if new_cardio is not None else None
    if cardio_sent:
        changes.append(("cardio", cardio_dict(old_cardio), new_cardio))
    count = Exercise.objects.filter(session=session).count()
    after_cardio = old_cardio
    if cardio_sent:
        after_cardio = CardioBlock(**cardio_fields) if cardio_fields is not None else None
    update = FieldUpdate(
        where=_session_target(args),
        target=session_label(session, args.weekNumber),
        name=session.name,
        before=describe_session(session, exercise_count=count, cardio=old_cardio),
        after=describe_session(
            as_written(session, written), exercise_count=count, cardio=after_cardio
        ),
        changes=changes,
    )
    if cardio_sent:
        services.cardio_set(session=session, fields=cardio_fields)
    if written:
        services.object_update(obj=session, fields=written)
    return update


def _day_offset(session: Session, week_start: datetime.date) -> int | None:
    """Days from the week's start to the session's day (its day name, else its date)."""
    if session.day_of_week in DAYS:
        return (DAYS.index(session.day_of_week) - week_start.weekday()) % 7
    if session.scheduled_date is not None:
        return (session.scheduled_date - week_start).days
    return None


def _day_position(sessions: list[Session], *, day: str, week_start: datetime.date) -> int:
    """Where a session on ``day`` falls: before the first session on a later day of the week
    (sessions with no day stay where they are), else at the end."""
    offset = (DAYS.index(day) - week_start.weekday()) % 7
    for session in sessions:
        other = _day_offset(session, week_start)
        if other is not None and other > offset:
            return session.position
    return len(sessions) + 1


def _is_rest(session: Session) -> bool:
    return not Exercise.objects.filter(session=session).exists() and get_cardio(session) is None


def add_session(*, ctx: ToolContext, args: AddSessionArgs) -> Outcome:
    """Insert a new session with its exercises and optional cardio block at ``position`` (1 to
    count+1, or "end"); later sessions move down by one. No exercises and no cardio makes a rest
    day; no exercises and a cardio block makes a cardio-only day.

    With a ``dayOfWeek`` and position "end", the session goes where that day falls in the week
    (a Saturday before the Sunday), not after the last session. A rest day on a day that is
    already a rest day is refused: there is nothing to add."""
    program_id = ctx.program_id
    week = get_week(program_id=program_id, number=args.weekNumber)
    sessions = list(Session.objects.filter(week=week).order_by("position"))
    count = len(sessions)
    new = args.session
    day = new.dayOfWeek
    if day and not new.exercises and new.cardio is None:
        offset = (DAYS.index(day) - week.start_date.weekday()) % 7
        resting = next(
            (s for s in sessions if _day_offset(s, week.start_date) == offset and _is_rest(s)),
            None,
        )
        if resting is not None:
            raise ToolStateError(
                "VALIDATION_ERROR",
                f"{day} of week {args.weekNumber} is already a rest day (session "
                f"{resting.position}, {quote(resting.name)}); there is nothing to add.",
                "session.dayOfWeek",
            )
    if args.position == "end" and day:
        position = _day_position(sessions, day=day, week_start=week.start_date)
    else:
        position = insert_position(
            args.position, count=count, where=f"Week {args.weekNumber}", noun="session"
        )
    spec = session_tree_spec(new)
    session = services.session_tree_insert(week=week, position=position, spec=spec)
    cardio = CardioBlock(session=session, **spec["cardio"]) if spec["cardio"] else None
    after = describe_session(session, exercise_count=len(spec["exercises"]), cardio=cardio)
    return Outcome(
        summary=f"Added {quote(session.name)} as Week {args.weekNumber}, Session {position}.",
        details=[detail(type="add", target=session_label(session, args.weekNumber), after=after)],
    )


def remove_session(*, ctx: ToolContext, args: RemoveSessionArgs) -> Outcome:
    """Delete a session with its exercises, cardio block and logged sets; later sessions move up
    by one. A week keeps at least one session: removing its only session is a VALIDATION_ERROR
    (make it a rest day with modify_session/remove_exercise instead)."""
    program_id = ctx.program_id
    session = get_session(
        program_id=program_id, week_number=args.weekNumber, number=args.sessionNumber
    )
    if Session.objects.filter(week_id=session.week_id).count() <= 1:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"Week {args.weekNumber} has only one session and a week must keep at least one; "
            "turn it into a rest day instead.",
            "sessionNumber",
        )
    target = session_label(session, args.weekNumber)
    before = _describe(session)
    services.session_remove(session=session)
    return Outcome(
        summary=f"Removed Week {args.weekNumber}, Session {args.sessionNumber}: {quote(session.name)}.",
        details=[detail(type="remove", target=target, before=before)],
    )


def copy_session(*, ctx: ToolContext, args: CopySessionArgs) -> Outcome:
    """Insert a deep copy of a session (same or other week) at ``position`` in the target week.

    Copied: name, dayOfWeek, warm-up, notes, every exercise (its plan, with skipped reset to
    false) and the cardio block's plan. Not copied: logged sets, completion, start time,
    duration, rating and the cardio block's results. The scheduledDate moves by the distance
    between the two weeks' start dates (same day of the target week)."""
    program_id = ctx.program_id
    source = get_session(
        program_id=program_id,
        week_number=args.sourceWeekNumber,
        number=args.sourceSessionNumber,
        week_field="sourceWeekNumber",
        field="sourceSessionNumber",
    )
    target_week = get_week(
        program_id=program_id, number=args.targetWeekNumber, field="targetWeekNumber"
    )
    count = Session.objects.filter(week=target_week).count()
    position = insert_position(
        args.position, count=count, where=f"Week {args.targetWeekNumber}", noun="session"
    )
    exercises = list(Exercise.objects.filter(session=source).order_by("position"))
    cardio = get_cardio(source)
    scheduled = source.scheduled_date
    if scheduled is not None:
        scheduled = scheduled + (target_week.start_date - source.week.start_date)
    spec = {
        "fields": {
            "name": source.name,
            "scheduled_date": scheduled,
            "day_of_week": source.day_of_week,
            "warmup": list(source.warmup or []),
            "notes": source.notes,
        },
        "exercises": [
            {
                "name": e.name,
                "group_label": e.group_label,
                "warmup_sets": e.warmup_sets,
                "working_sets": e.working_sets,
                "reps": e.reps,
                "target_load": e.target_load,
                "rest_seconds": e.rest_seconds,
                "notes": e.notes,
            }
            for e in exercises
        ],
        "cardio": (
            {
                "type": cardio.type,
                "duration": cardio.duration,
                "modality": cardio.modality,
                "instructions": cardio.instructions,
                "notes": cardio.notes,
            }
            if cardio is not None
            else None
        ),
    }
    copy = services.session_tree_insert(week=target_week, position=position, spec=spec)
    new_cardio = CardioBlock(session=copy, **spec["cardio"]) if spec["cardio"] else None
    return Outcome(
        summary=f"Copied Week {args.sourceWeekNumber}, Session {args.sourceSessionNumber} "
        f"{quote(source.name)} to Week {args.targetWeekNumber}, Session {position}.",
        details=[
            detail(
                type="add",
                target=session_label(copy, args.targetWeekNumber),
                before=None,
                after=describe_session(copy, exercise_count=len(exercises), cardio=new_cardio)
                + f" (copy of Week {args.sourceWeekNumber}, Session {args.sourceSessionNumber})",
            )
        ],
    )


SPECS = [
    ToolSpec(
        name="modify_session",
        description=(
            "Change a session's own fields (not its exercises: use the exercise tools for those)."
        ),
        args_model=ModifySessionArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="program",
        display_name="Change a session",
        execute=modify_session,
        target=_session_target,
    ),
    ToolSpec(
        name="add_session",
        description=(
            "Insert a session into a week (no exercises: a rest or cardio day). With dayOfWeek "
            "and no position, it goes on that day."
        ),
        args_model=AddSessionArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="program",
        display_name="Add a session",
        execute=add_session,
        target=no_target,
    ),
    ToolSpec(
        name="remove_session",
        description=(
            "Delete a session with its exercises and cardio. A week keeps at least one session."
        ),
        args_model=RemoveSessionArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="high",
        category="program",
        display_name="Remove a session",
        safety_rules=("A week's last session can't be removed.",),
        execute=remove_session,
        target=_session_target,
    ),
    ToolSpec(
        name="copy_session",
        description=(
            "Copy a session's plan (exercises and cardio, not logged results) into the same or "
            "another week."
        ),
        args_model=CopySessionArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="program",
        display_name="Copy a session",
        safety_rules=("Copies the plan, never the logged results.",),
        execute=copy_session,
        target=no_target,
    ),
]
