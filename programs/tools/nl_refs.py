"""What the program family's everyday sentences point at (``programs.tools.language``): the
conversation's program read once a message, and the references people make to it resolved
against it — an exercise by name, position ("the second exercise", "exercise 2", "the last one")
or pronoun ("it", "that exercise"), a session by weekday, "today"/"tomorrow", its name or "this
workout", a week by number, "this week" or "next week".

The session in focus follows the conversation: the one named; else the one just changed (an
earlier clause of the message, or the conversation's last calls) or shown; else today's. A
reference that fits several things is a question (``Ask``), one that fits nothing is refused in
words naming what is there ("Monday's workout has 4 exercises")."""

from __future__ import annotations

import re
from typing import Any

from coach.llm.offline.grammar import CommandError
from coach.llm.offline.language import Ask, NotMeant, Slots, World, day_of

from .nl_data import Planned, Slot, plan

# --- weeks and sessions --------------------------------------------------------------------------


def named_week(slots: Slots) -> int | None:
    """The week a sentence names outright: "week 4", "this week", "next week"."""
    world = slots.world
    current = plan(world).current_week(world.today)
    if "week" in slots:
        week = int(slots.get("week"))
        check_week(world, week)
        return week
    if slots.get("next_week"):
        week = current + 1
        check_week(world, week)
        return week
    if slots.get("this_week"):
        return current
    return None


def check_week(world: World, week: int) -> None:
    count = len(plan(world).weeks)
    if not 1 <= week <= count:
        raise CommandError(
            f"Your program has {count} week{'s' if count != 1 else ''}; there is no week {week}."
        )


def said_day(slots: Slots) -> str | None:
    """The weekday a sentence names ("on Monday", "tomorrow"), as the program writes it."""
    date = day_of(slots, slots.world)
    return None if date is None else date.strftime("%A")


def _groups(world: World) -> list[list[dict[str, Any]]]:
    """The calls of this message's earlier clauses, then of each turn, newest first."""
    groups = [[dict(c.arguments) for c in world.said]]
    for turn in reversed(world.turns):
        groups.append([dict(c.arguments or {}) for c in turn.tool_calls or []])
    return groups


def _focus(world: World) -> tuple[int, int] | None:
    """The session just changed or shown."""
    for group in _groups(world):
        for args in reversed(group):
            week, session = args.get("weekNumber"), args.get("sessionNumber")
            if isinstance(week, int) and isinstance(session, int):
                return week, session
    return None


def _said_focus(world: World, name: str) -> list[Planned]:
    """``name`` in the session an earlier clause of this message changed."""
    for args in reversed([dict(c.arguments) for c in world.said]):
        week, session = args.get("weekNumber"), args.get("sessionNumber")
        if isinstance(week, int) and isinstance(session, int):
            return [e for e in plan(world).in_session(week, session) if e.name == name]
    return []


def focus_exercises(world: World) -> list[Planned]:
    """The exercises "it" and "that exercise" mean: the ones just changed."""
    keyed = {(e.week, e.session, e.position): e for e in plan(world).exercises}
    for group in _groups(world):
        found = [
            keyed[key]
            for args in group
            if (
                key := (
                    args.get("weekNumber"),
                    args.get("sessionNumber"),
                    args.get("exerciseNumber"),
                )
            )
            in keyed
        ]
        if found:
            return found
    return []


def session_meant(slots: Slots, *, required: bool = True) -> Slot | None:
    """The one session a sentence means: its weekday, "today", its name or "this workout" in the
    week named (the current one by default); else the session in focus."""
    world = slots.world
    p = plan(world)
    week = named_week(slots)
    day = said_day(slots)
    if day is not None and week is None:
        date = day_of(slots, world)
        week = p.week_of(date) if date is not None else None
        if week is None:
            raise CommandError(f"Your program has no week on {date:%A %-d %B}.")
    week = week or p.current_week(world.today)
    if day is not None:
        found = [s for s in p.sessions if s.week == week and s.day.lower() == day.lower()]
        if not found:
            planned_days = ", ".join(s.day for s in p.sessions if s.week == week and s.day)
            raise CommandError(
                f"There's no workout on {day} in week {week}"
                + (f" (it has {planned_days})." if planned_days else ".")
            )
        return found[0]
    if "session_name" in slots:
        found = [s for s in p.sessions if s.week == week and s.name == slots.get("session_name")]
        if found:
            return found[0]
        raise CommandError(f'Week {week} has no session called "{slots.get("session_name")}".')
    focus = _focus(world)
    if focus is not None and (
        not any(k in slots for k in ("week", "this_week", "next_week")) or focus[0] == week
    ):
        return p.slot(*focus)
    today = [s for s in p.sessions if s.week == week and s.day == world.today.strftime("%A")]
    if today and slots.get("this_session"):
        return today[0]
    if required:
        raise CommandError("Which workout do you mean? Name its day, e.g. “on Monday”.")
    return None


def describe_session(slot: Slot) -> str:
    return f"{slot.day}'s workout" if slot.day else f"week {slot.week} session {slot.session}"


# --- exercises -----------------------------------------------------------------------------------


def _retold(slots: Slots, name_slot: str, name: str) -> str:
    """The athlete's sentence with the ambiguous words replaced by one candidate's name."""
    text, said = slots.text, slots.words.get(name_slot, "")
    if text and said:
        return re.sub(re.escape(said), name, text, count=1, flags=re.I)
    return name


def _by_position(slots: Slots, slot_name: str) -> list[Planned]:
    """ "the second exercise", "exercise 2", "the last one" of the session meant."""
    session = session_meant(slots)
    assert session is not None
    rows = plan(slots.world).in_session(session.week, session.session)
    number = int(slots.get(slot_name))
    if number == -1:
        number = len(rows)
    if not 1 <= number <= len(rows):
        count = len(rows)
        raise CommandError(
            f"{describe_session(session)} in week {session.week} has {count} "
            f"exercise{'s' if count != 1 else ''}; there is no exercise {number}."
        )
    return [rows[number - 1]]


def exercises_meant(slots: Slots, *, every_week: bool, which: str = "") -> list[Planned] | Ask:
    """The exercise occurrences a sentence means (``which`` "" for the first reference,
    "other" for the second). Named with no week or day: the current week on when
    ``every_week`` (a change of what it is) or "from now on" is said (``ongoing``: with a day,
    that day's in every week from the current one), else the current week only."""
    world = slots.world
    p = plan(world)
    name_slot, position_slot = ("other", "other_position") if which else ("exercise", "position")
    ordinal_slot = "other_ordinal" if which else "ordinal"
    if position_slot in slots:
        return _by_position(slots, position_slot)
    if ordinal_slot in slots:
        return _by_position(slots, ordinal_slot)
    if name_slot not in slots:
        if slots.get("pronoun") or not which:
            found = focus_exercises(world)
            if found:
                return found
        if slots.get("pronoun") and not which:
            # "it" with no exercise in focus may be another family's thing ("… tomorrow. skip
            # it" is a session): let the next reading try, and ask only if none means it.
            raise NotMeant
        return Ask("Which exercise do you mean? Name it, e.g. “squats on Monday”.")
    names = slots.get(name_slot) or ()
    said = slots.words.get(name_slot, "")
    if len(names) > 1 and (said_day(slots) or "session_name" in slots):
        # "the rows on Wednesday": the day names the one it has.
        session = session_meant(slots)
        assert session is not None
        here = {e.name for e in p.in_session(session.week, session.session)}
        names = tuple(n for n in names if n in here) or names
    if len(names) > 1:
        return Ask(
            f'Which one do you mean by "{said}"? ' + ", ".join(names[:-1]) + f" or {names[-1]}?",
            tuple(_retold(slots, name_slot, n) for n in names),
        )
    name = names[0]
    week = named_week(slots)
    day = said_day(slots)
    ongoing = slots.get("ongoing")  # "from now on": every week from the current one on
    every_week = every_week or bool(ongoing)
    if day is not None and week is None and not ongoing:
        date = day_of(slots, world)
        week = p.week_of(date) if date is not None else None
    if "session_name" in slots or slots.get("this_session"):
        session = session_meant(slots)
        assert session is not None
        found = [e for e in p.in_session(session.week, session.session) if e.name == name]
    elif week is None and day is None and not ongoing and (focus := _said_focus(world, name)):
        found = focus  # "swap Monday's squats for lunges and add a set to the planks"
    else:
        current = p.current_week(world.today)
        weeks = (
            {week}
            if week
            else (
                {w.week for w in p.weeks if w.week >= current + (ongoing == "next")}
                if every_week
                else {current}
            )
        )
        found = [e for e in p.exercises if e.name == name and e.week in weeks]
        if day is not None:
            on_day = [e for e in found if p.slot(e.week, e.session).day.lower() == day.lower()]
            # "today"/"tomorrow" said of an exercise planned on another day of that week means
            # the week's; a weekday named outright must be the exercise's own day.
            if on_day or "day" in slots:
                found = on_day
    if not found:
        where = f" on {day}" if day else (f" in week {week}" if week else "")
        raise CommandError(f"{name} isn't planned{where}.")
    return found
