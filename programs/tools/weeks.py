"""Week tools: modify_week, add_week, remove_week."""

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
from coach.vocabulary import plural
from programs import services
from programs.models import Program, Session, Week

from .args import (
    WEEK_FIELDS,
    AddWeekArgs,
    ModifyWeekArgs,
    RemoveWeekArgs,
    sent_fields,
    week_tree_spec,
)
from .lookups import as_written, describe_week, get_week, week_label


def _week_target(args: ModifyWeekArgs | RemoveWeekArgs) -> str:
    return f"Week {args.weekNumber}"


def modify_week(*, ctx: ToolContext, args: ModifyWeekArgs) -> FieldUpdate:
    """Update week-level fields (phase, startDate, endDate, description). Dates are ISO; the
    resulting endDate must not be before the resulting startDate (checked against the week's
    current dates when only one is sent). Session dates are not moved. ``updates`` must hold at
    least one field (an empty object is a VALIDATION_ERROR)."""
    program_id = ctx.program_id
    week = get_week(program_id=program_id, number=args.weekNumber)
    changes = sent_fields(args.updates, week, WEEK_FIELDS)
    sent = {name: new for name, _, new in changes}
    start = sent.get("startDate", week.start_date)
    end = sent.get("endDate", week.end_date)
    if end < start:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"Week {args.weekNumber} would end ({end.isoformat()}) before it starts "
            f"({start.isoformat()}); endDate must be on or after startDate.",
            "updates.endDate" if "endDate" in sent else "updates.startDate",
        )
    # The decision as data (the engine words it once this returns), the write last.
    written = {WEEK_FIELDS[name]: new for name, new in sent.items()}
    count = Session.objects.filter(week=week).count()
    update = FieldUpdate(
        where=_week_target(args),
        target=week_label(week),
        name=None,
        before=describe_week(week, session_count=count),
        after=describe_week(as_written(week, written), session_count=count),
        changes=changes,
    )
    services.object_update(obj=week, fields=written)
    return update


def _check_order(args: AddWeekArgs, *, position: int, program_id: int) -> None:
    """The new weeks follow each other and start after the week before them ends."""
    previous = Week.objects.filter(program_id=program_id, position=position - 1).first()
    end, what = (previous.end_date, f"week {previous.position} ends") if previous else (None, "")
    for index, week in enumerate(args.weeks):
        if end is not None and week.startDate <= end:
            raise ToolStateError(
                "VALIDATION_ERROR",
                f"The new week would start on {week.startDate.isoformat()}, but {what} on "
                f"{end.isoformat()}; start it on {(end + datetime.timedelta(days=1)).isoformat()} "
                "or later, or insert it at another position.",
                f"weeks.{index}.startDate",
            )
        end, what = week.endDate, "the new week before it ends"


def add_week(*, ctx: ToolContext, args: AddWeekArgs) -> Outcome:
    """Insert one or more complete weeks at ``position`` (1 to count+1, or "end"); later weeks
    move down by the number inserted. A weekNumber inside a week object is ignored: weeks are
    numbered by where they land. Each week needs at least one session; its endDate must not be
    before its startDate.

    Dates never overlap: a new week must start after the week before it ends (else a
    VALIDATION_ERROR), and when the new weeks reach into the week after them, that week and every
    later one (with their sessions' dates) move later by the overlap, keeping their gaps; the
    preview shows the move."""
    program_id = ctx.program_id
    program = Program(pk=program_id)  # only its pk is needed; saves a query
    count = Week.objects.filter(program_id=program_id).count()
    position = insert_position(args.position, count=count, where="The program", noun="week")
    _check_order(args, position=position, program_id=program_id)
    following = Week.objects.filter(program_id=program_id, position=position).first()
    last_end = args.weeks[-1].endDate
    shift = 0
    if following is not None and following.start_date <= last_end:
        shift = (last_end - following.start_date).days + 1
        before = f"starts {following.start_date.isoformat()}"
        services.weeks_shift_dates(program=program, from_position=position, days=shift)
    weeks = services.weeks_tree_insert(
        program=program, position=position, specs=[week_tree_spec(w) for w in args.weeks]
    )
    details = [
        detail(
            type="add",
            target=week_label(week),
            after=describe_week(week, session_count=len(spec.sessions)),
        )
        for week, spec in zip(weeks, args.weeks, strict=True)
    ]
    if len(weeks) == 1:
        summary = f"Added Week {position}: {quote(weeks[0].phase)}."
    else:
        summary = f"Added {plural(len(weeks), 'week')} as weeks {position} to {position + len(weeks) - 1}."
    if following is not None and shift:
        moved = count - position + 1
        first_moved = position + len(weeks)
        following.refresh_from_db(fields=["start_date", "end_date", "position"])
        later = f"Week {first_moved}" + (
            f" and the {plural(moved - 1, 'week')} after it" if moved > 1 else ""
        )
        summary += f" {later} move {plural(shift, 'day')} later so the dates don't overlap."
        details.append(
            detail(
                type="modify",
                target=f"{later} (dates)",
                before=before,
                after=f"starts {following.start_date.isoformat()} ({plural(shift, 'day')} later, "
                "with their sessions' dates)",
                fields=[
                    {
                        "field": "startDate",
                        "oldValue": before.removeprefix("starts "),
                        "newValue": following.start_date.isoformat(),
                    }
                ],
            )
        )
    return Outcome(summary=summary, details=details)


def remove_week(*, ctx: ToolContext, args: RemoveWeekArgs) -> Outcome:
    """Delete a week with all its sessions, exercises and logged results; later weeks move up by
    one. The program keeps at least one week: removing the only week is a VALIDATION_ERROR."""
    program_id = ctx.program_id
    week = get_week(program_id=program_id, number=args.weekNumber)
    if Week.objects.filter(program_id=program_id).count() <= 1:
        raise ToolStateError(
            "VALIDATION_ERROR",
            f"Week {args.weekNumber} is the program's only week and a program must keep at "
            "least one week.",
            "weekNumber",
        )
    target = week_label(week)
    before = describe_week(week, session_count=Session.objects.filter(week=week).count())
    services.week_remove(week=week)
    return Outcome(
        summary=f"Removed Week {args.weekNumber}: {quote(week.phase)}.",
        details=[detail(type="remove", target=target, before=before)],
    )


SPECS = [
    ToolSpec(
        name="modify_week",
        description="Change a week's phase, dates or description. Its sessions' dates do not move.",
        args_model=ModifyWeekArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="medium",
        category="program",
        display_name="Change a week",
        safety_rules=("A week's end date can't be before its start date.",),
        execute=modify_week,
        target=_week_target,
    ),
    ToolSpec(
        name="add_week",
        description=(
            "Insert complete new weeks with their sessions. For one extra day, use add_session "
            "instead."
        ),
        args_model=AddWeekArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="high",
        category="program",
        display_name="Add a week",
        safety_rules=(
            "At most 520 weeks.",
            "A new week starts after the week before it ends; later weeks move later when it "
            "reaches into them.",
        ),
        execute=add_week,
        target=no_target,
    ),
    ToolSpec(
        name="remove_week",
        description="Delete a week with all its sessions. The program keeps at least one week.",
        args_model=RemoveWeekArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="critical",
        category="program",
        display_name="Remove a week",
        safety_rules=("The program's last week can't be removed.",),
        execute=remove_week,
        target=_week_target,
    ),
]
