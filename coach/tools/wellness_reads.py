"""Read tools over the wellness log: the athlete's own logs of the last days and their reminders.
Answered at once, quoted and bounded like every read (user-written text is data)."""

from __future__ import annotations

import datetime

from wellness import selectors, services

from .base import Outcome, ToolContext, ToolSpec, no_target, quote
from .wellness_args import GetWellnessLogsArgs, ListRemindersArgs

MAX_ROWS = 60
DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _medication(log) -> str:
    when = (
        f" {log.taken_time:%H:%M}"
        if log.taken_time
        else (f" ({log.part_of_day})" if log.part_of_day else "")
    )
    dose = f", {quote(log.dose)}" if log.dose else ""
    return f"{log.taken_on.isoformat()}{when}: {log.kind} {quote(log.name)}{dose}"


def _mood(log) -> str:
    note = f" {quote(log.note)}" if log.note else ""
    return f"{log.logged_on.isoformat()}: {log.mood}{note}"


def _readiness(log) -> str:
    note = f" {quote(log.note)}" if log.note else ""
    return (
        f"{log.logged_on.isoformat()}: sleep quality {log.sleep_quality}/5, soreness "
        f"{log.soreness}/5, stress {log.stress}/5{note}"
    )


def _care(log, tz) -> str:
    return f"{log.occurred_at.astimezone(tz):%Y-%m-%d %H:%M}: {log.log_type} {quote(log.title)}"


def get_wellness_logs(*, ctx: ToolContext, args: GetWellnessLogsArgs) -> Outcome:
    tz = services.athlete_tz(ctx.athlete)
    today = services.local_now(ctx.athlete).date()
    since = today - datetime.timedelta(days=args.days - 1)
    logs = selectors.logs_since(athlete=ctx.athlete, since=since)
    render = {
        "medication": _medication,
        "mood": _mood,
        "readiness": _readiness,
        "care": lambda log: _care(log, tz),
    }
    kinds = list(render) if args.kind == "all" else [args.kind]
    lines = [f"Wellness log from {since.isoformat()} to {today.isoformat()}:"]
    for kind in kinds:
        rows = logs[kind]
        lines.append(f"{kind} ({len(rows)}):")
        lines.extend(f"- {render[kind](row)}" for row in rows[:MAX_ROWS])
        if len(rows) > MAX_ROWS:
            lines.append(f"- … {len(rows) - MAX_ROWS} more")
        if not rows:
            lines.append("- none")
    return Outcome(summary="\n".join(lines))


def list_reminders(*, ctx: ToolContext, args: ListRemindersArgs) -> Outcome:
    reminders = list(selectors.reminders_of(athlete=ctx.athlete))
    if not reminders:
        return Outcome(summary="The athlete has no reminders.")
    lines = [f"{len(reminders)} reminder(s), in the athlete's time zone:"]
    for r in reminders:
        days = ", ".join(DAY_NAMES[d - 1] for d in r.days)
        state = "" if r.active else " (paused)"
        lines.append(f"- {quote(r.title)} at {r.time:%H:%M} on {days}{state}")
    return Outcome(summary="\n".join(lines))


READ_SPECS = [
    ToolSpec(
        name="get_wellness_logs",
        description="The athlete's wellness logs (medication, mood, readiness, care) of the last days.",
        args_model=GetWellnessLogsArgs,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="wellness",
        needs_program=False,
        display_name="Read the wellness log",
        execute=get_wellness_logs,
        target=no_target,
    ),
    ToolSpec(
        name="list_reminders",
        description="The athlete's reminders: title, local time and weekdays of each.",
        args_model=ListRemindersArgs,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="wellness",
        needs_program=False,
        display_name="List reminders",
        execute=list_reminders,
        target=no_target,
    ),
]
