"""What the program family's everyday sentences change in sessions and weeks, and what they ask
to see (``language``): rename a workout, make a day a rest day or a cardio day, copy or delete a
session, note on it; add a deload week, name a week's phase; "what's on Wednesday?".

A weekday means the athlete's current week (the one around today) unless a week is named: "make
Sunday a rest day" is this week's Sunday, never an earlier week's."""

from __future__ import annotations

import datetime
import re
from typing import Any

from coach import vocabulary
from coach.llm.offline.grammar import CommandError, Parsed, make_cardio
from coach.llm.offline.language import Ask, NotMeant, Slots, day_of

from .nl_changes import new_title
from .nl_data import plan
from .nl_refs import describe_session, named_week, said_day, session_meant
from .offline_words import cardio_name

_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow"


def _name_cut_short(slots: Slots) -> bool:
    """The new name read without its first words, taken for a session ("rename friday to full
    body blast": "to full body" is no place, "Full body blast" is the name)."""
    said = str(slots.words.get("new_name") or "").lower()
    at = slots.text.lower().rfind(said) if said else -1
    if at <= 0:
        return False
    names = [re.escape(s.name.lower()) for s in plan(slots.world).sessions if s.name]
    sessions = "|".join([*names, _DAYS])
    return bool(
        re.search(
            rf"\b(?:to|as|into)\s+(?:the\s+)?(?:{sessions})(?:'s)?"
            r"(?:\s+(?:workout|session|day|training|lift))?\s*$",
            slots.text.lower()[:at].rstrip(),
        )
    )


def rename_session(slots: Slots) -> list[Parsed] | Ask:
    if _name_cut_short(slots):
        raise NotMeant(slots.get("new_name"))
    session = session_meant(slots)
    assert session is not None
    name = new_title(slots.get("new_name", ""), exercise=False)
    return [
        Parsed(
            "modify_session",
            {
                "weekNumber": session.week,
                "sessionNumber": session.session,
                "updates": {"name": name},
            },
            f"week {session.week}: rename {describe_session(session)} to {name}",
        )
    ]


def note_session(slots: Slots) -> list[Parsed] | Ask:
    session = session_meant(slots)
    assert session is not None
    note = str(slots.get("note", "")).strip()
    if not note:
        raise CommandError('Say the note, e.g. "add a note to Monday\'s workout: go easy".')
    return [
        Parsed(
            "modify_session",
            {
                "weekNumber": session.week,
                "sessionNumber": session.session,
                "updates": {"notes": note},
            },
            f"week {session.week}: note on {describe_session(session)}: {note}",
        )
    ]


def remove_session(slots: Slots) -> list[Parsed] | Ask:
    session = session_meant(slots)
    assert session is not None
    return [
        Parsed(
            "remove_session",
            {"weekNumber": session.week, "sessionNumber": session.session},
            f"week {session.week}: remove {describe_session(session)} ({session.name})",
        )
    ]


def copy_session(slots: Slots) -> list[Parsed] | Ask:
    session = session_meant(slots)
    assert session is not None
    target = session.week + 1 if slots.get("to_next") else slots.get("target_week")
    if target is None:
        return Ask("Copy it to which week?", (f"copy {describe_session(session)} to next week",))
    count = len(plan(slots.world).weeks)
    if not 1 <= int(target) <= count:
        raise CommandError(f"Your program has {count} weeks; there is no week {target}.")
    return [
        Parsed(
            "copy_session",
            {
                "sourceWeekNumber": session.week,
                "sourceSessionNumber": session.session,
                "targetWeekNumber": int(target),
                "position": "end",
            },
            f"copy {describe_session(session)} of week {session.week} to week {target}",
        )
    ]


def _free_day(slots: Slots) -> tuple[int, str] | Ask:
    """The week and weekday a new session goes on; a day that already has a workout is a
    question, never a second session by surprise."""
    world = slots.world
    p = plan(world)
    day = said_day(slots)
    if day is None:
        raise CommandError('Say which day, e.g. "on Saturday".')
    week = named_week(slots)
    if week is None:
        date = world.weekday(vocabulary.DAY_NAMES.index(day)) if "day" in slots else None
        week = p.week_of(date) if date else None
        week = week or p.current_week(world.today)
    taken = [s for s in p.sessions if s.week == week and s.day.lower() == day.lower()]
    if taken:
        return Ask(
            f"Week {week}'s {day} already has {taken[0].name}. Remove it instead?",
            (f"delete {day}'s workout in week {week}",),
        )
    return week, day


def rest_day(slots: Slots) -> list[Parsed] | Ask:
    free = _free_day(slots)
    if isinstance(free, Ask):
        return free
    week, day = free
    return [
        Parsed(
            "add_session",
            {
                "weekNumber": week,
                "position": "end",
                "session": {"name": "Rest", "exercises": [], "dayOfWeek": day},
            },
            f"week {week}: make {day} a rest day",
        )
    ]


def cardio_day(slots: Slots) -> list[Parsed] | Ask:
    free = _free_day(slots)
    if isinstance(free, Ask):
        return free
    week, day = free
    if "hour" in slots:
        minutes = int(slots.get("hour"))
    else:
        minutes = int(slots.get("minutes")) * int(slots.get("minute_unit") or 1)
    cardio = make_cardio(str(slots.get("cardio", "zone2")), str(minutes), slots.get("modality"))
    session = {
        "name": cardio_name(cardio["type"]),
        "exercises": [],
        "cardio": cardio,
        "dayOfWeek": day,
    }
    return [
        Parsed(
            "add_session",
            {"weekNumber": week, "position": "end", "session": session},
            f"week {week}: add a {minutes}-minute {session['name']} on {day}",
        )
    ]


def deload_week(slots: Slots) -> list[Parsed] | Ask:
    """A deload week after week N (or at the end): week N's sessions with about 60 % of the
    working sets, dated the week after it (later weeks move on, as the tool does)."""
    p = plan(slots.world)
    if not p.weeks:
        raise CommandError("Your program has no weeks yet.")
    after = int(slots.get("week")) if "week" in slots else p.weeks[-1].week
    if not 1 <= after <= len(p.weeks):
        raise CommandError(f"Your program has {len(p.weeks)} weeks; there is no week {after}.")
    base = p.weeks[after - 1]
    start = base.end + datetime.timedelta(days=1)
    phase = str(slots.get("phase", "Deload"))
    sessions = []
    for s in (x for x in p.sessions if x.week == after):
        exercises = [
            {
                "name": e.name,
                "reps": e.reps,
                "targetLoad": e.load,
                "workingSets": max(1, round(e.sets * 0.6)),
                "warmupSets": 0,
                "restSeconds": e.rest,
            }
            for e in p.in_session(s.week, s.session)
        ]
        session: dict[str, Any] = {"name": s.name, "exercises": exercises}
        if s.day:
            session["dayOfWeek"] = s.day
        sessions.append(session)
    week = {
        "phase": phase,
        "startDate": start.isoformat(),
        "endDate": (start + datetime.timedelta(days=6)).isoformat(),
        "description": f"{phase} week: week {after}'s sessions with fewer sets.",
        "sessions": sessions or [{"name": f"{phase} Session", "exercises": []}],
    }
    position: int | str = after + 1 if after < len(p.weeks) else "end"
    return [
        Parsed(
            "add_week",
            {"position": position, "weeks": [week]},
            f"add a {phase} week after week {after}",
        )
    ]


def name_phase(slots: Slots) -> list[Parsed] | Ask:
    week = named_week(slots)
    if week is None:
        raise CommandError('Say which week, e.g. "call week 2 the Intensification phase".')
    phase = new_title(slots.get("phase", ""), exercise=False)
    return [
        Parsed(
            "modify_week",
            {"weekNumber": week, "updates": {"phase": phase}},
            f"week {week}: phase {phase}",
        )
    ]


def show(slots: Slots) -> list[Parsed] | Ask:
    """What's planned: the week named, or the week of the day named, or the current week."""
    world = slots.world
    p = plan(world)
    week = named_week(slots)
    day = said_day(slots)
    if week is None and day is not None:
        date = day_of(slots, world)
        week = p.week_of(date) if date is not None else None
    week = week or p.current_week(world.today)
    if day is not None:
        args = {"weekNumber": week, "dayOfWeek": day}
        return [Parsed("get_week", args, f"show {day} of week {week}")]
    return [Parsed("get_week", {"weekNumber": week}, f"show week {week}")]


def show_fit(slots: Slots) -> int:
    """How well the week's read answers a day's question (``Intent.fit``): 1 when the sessions
    labelled that weekday are the ones dated that day; 0 when a session dated that day carries
    another weekday or none (the week's read, by weekday, would miss it) or nothing is there."""
    world = slots.world
    p = plan(world)
    day = said_day(slots)
    if day is None:
        return 1 if p.weeks else 0
    date = day_of(slots, world)
    week = named_week(slots) or (p.week_of(date) if date is not None else None)
    week = week or p.current_week(world.today)
    if date is not None and any(
        s.date == date and s.day.lower() != day.lower() for s in p.sessions
    ):
        return 0
    return 1 if any(s.week == week and s.day.lower() == day.lower() for s in p.sessions) else 0


def applied_by_button(slots: Slots) -> list[Parsed] | Ask:
    """Typing "yes, apply it" applies nothing: the preview's button decides."""
    return Ask(
        "Nothing is applied from the chat: press Apply Changes in the preview to make the change "
        "(or Cancel to drop it)."
    )
