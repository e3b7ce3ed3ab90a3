"""Read tools over the wellness log: the athlete's own logs of the last days and their reminders.
Answered at once, quoted and bounded like every read (user-written text is data)."""

from __future__ import annotations

import datetime

from coach import vocabulary
from coach.render import plain
from coach.tools.base import Outcome, ToolContext, ToolSpec, no_target, quote
from wellness import selectors, services

from .args import GetWellnessLogsArgs, ListRemindersArgs
from .writes import days_text

MAX_ROWS = 60


def _medication(log, q=quote) -> str:
    when = (
        f" {log.taken_time:%H:%M}"
        if log.taken_time
        else (f" ({log.part_of_day})" if log.part_of_day else "")
    )
    dose = f", {q(log.dose)}" if log.dose else ""
    return f"{log.taken_on.isoformat()}{when}: {log.kind} {q(log.name)}{dose}"


def _mood(log, q=quote) -> str:
    note = f" {q(log.note)}" if log.note else ""
    return f"{log.logged_on.isoformat()}: {log.mood}{note}"


def _readiness(log, q=quote) -> str:
    note = f" {q(log.note)}" if log.note else ""
    return (
        f"{log.logged_on.isoformat()}: sleep quality {log.sleep_quality}/5, soreness "
        f"{log.soreness}/5, stress {log.stress}/5{note}"
    )


def _care(log, tz, q=quote) -> str:
    return f"{log.occurred_at.astimezone(tz):%Y-%m-%d %H:%M}: {log.log_type} {q(log.title)}"


def get_wellness_logs(*, ctx: ToolContext, args: GetWellnessLogsArgs) -> Outcome:
    tz = services.athlete_tz(ctx.athlete)
    today = services.local_now(ctx.athlete).date()
    since = today - datetime.timedelta(days=args.days - 1)
    logs = selectors.logs_since(athlete=ctx.athlete, since=since)

    def text(q) -> str:
        render = {
            "medication": lambda log: _medication(log, q),
            "mood": lambda log: _mood(log, q),
            "readiness": lambda log: _readiness(log, q),
            "care": lambda log: _care(log, tz, q),
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
        return "\n".join(lines)

    # The model reads user text quoted (data); a person reads it in words, as written.
    return Outcome(summary=text(quote), spoken=_spoken(logs, since, today, args, tz))


_HEADINGS = {"medication": "Taken", "mood": "Mood", "readiness": "Readiness", "care": "Care"}


def _day(date: datetime.date, today: datetime.date) -> str:
    if date == today:
        return "today"
    if date == today - datetime.timedelta(days=1):
        return "yesterday"
    return f"{date:%a} {date.day} {date:%b}"


def _spoken(logs, since, today, args, tz) -> str:
    """The log for a person: a line per kind, each entry with its day in words, no ISO dates."""

    def line(kind: str, log) -> str:
        if kind == "medication":
            when = f" at {log.taken_time:%H:%M}" if log.taken_time else ""
            when = when or (f" ({log.part_of_day})" if log.part_of_day else "")
            dose = f" {plain(log.dose)}" if log.dose else ""
            return f"{plain(log.name)}{dose}, {_day(log.taken_on, today)}{when}"
        if kind == "mood":
            note = f" ({plain(log.note)})" if log.note else ""
            return f"{log.mood}{note}, {_day(log.logged_on, today)}"
        if kind == "readiness":
            return (
                f"sleep {log.sleep_quality}/5, soreness {log.soreness}/5, stress "
                f"{log.stress}/5, {_day(log.logged_on, today)}"
            )
        local = log.occurred_at.astimezone(tz)
        return f"{log.log_type}: {plain(log.title)}, {_day(local.date(), today)} at {local:%H:%M}"

    span = "today" if args.days == 1 else f"the last {args.days} days"
    kinds = list(_HEADINGS) if args.kind == "all" else [args.kind]
    if not any(logs[kind] for kind in kinds):
        return f"Nothing logged {span}."
    lines = [f"Your log for {span}:"]
    for kind in kinds:
        rows = logs[kind]
        if not rows:
            lines.append(f"{_HEADINGS[kind]}: nothing.")
            continue
        shown = "; ".join(line(kind, row) for row in rows[:MAX_ROWS])
        more = f" and {len(rows) - MAX_ROWS} more" if len(rows) > MAX_ROWS else ""
        lines.append(f"{_HEADINGS[kind]}: {shown}{more}.")
    return "\n".join(lines)


def list_reminders(*, ctx: ToolContext, args: ListRemindersArgs) -> Outcome:
    reminders = list(selectors.reminders_of(athlete=ctx.athlete))
    if not reminders:
        return Outcome(summary="The athlete has no reminders.", spoken="You have no reminders.")
    lines = [f"{len(reminders)} reminder(s), in the athlete's time zone:"]
    count = len(reminders)
    spoken = [f"You have {count} reminder{'s' if count != 1 else ''}:"]
    for r in reminders:
        days = ", ".join(vocabulary.DAY_ABBREVIATIONS[d - 1] for d in r.days)
        state = "" if r.active else " (paused)"
        lines.append(f"- {quote(r.title)} at {r.time:%H:%M} on {days}{state}")
        spoken.append(f"- {plain(r.title)} at {r.time:%H:%M}, {days_text(r.days)}{state}")
    return Outcome(summary="\n".join(lines), spoken="\n".join(spoken))


SPECS = [
    ToolSpec(
        name="get_wellness_logs",
        looking_at="Looking at your logs…",
        description="The athlete's wellness logs (medication, mood, readiness, care) of the last days.",
        args_model=GetWellnessLogsArgs,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="wellness",
        logs=True,
        needs_program=False,
        display_name="Read the wellness log",
        execute=get_wellness_logs,
        target=no_target,
    ),
    ToolSpec(
        name="list_reminders",
        looking_at="Looking at your reminders…",
        description="The athlete's reminders: title, local time and weekdays of each.",
        args_model=ListRemindersArgs,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="wellness",
        logs=True,
        needs_program=False,
        display_name="List reminders",
        execute=list_reminders,
        target=no_target,
    ),
]
