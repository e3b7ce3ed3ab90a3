"""Where an exercise goes, as the program family's everyday sentences say it (``language``):
adding one (after or before another, first, at the end of a session) and moving one within its
session. Both touch the current week's session only, never the program's future by surprise."""

from __future__ import annotations

import dataclasses

from coach.llm.offline.grammar import DEFAULT_LOAD, CommandError, Parsed
from coach.llm.offline.language import Ask, NotMeant, Slots

from .nl_changes import DEFAULT_REPS, DEFAULT_REST, DEFAULT_SETS, load_of, new_title
from .nl_data import plan
from .nl_refs import describe_session, exercises_meant, session_meant


def _anchor(slots: Slots) -> tuple[int, int, int | str] | Ask:
    """Where a new exercise goes: after/before another, first, at the end of a session."""
    if "other" in slots or "other_position" in slots:
        found = exercises_meant(slots, every_week=False, which="other")
        if isinstance(found, Ask):
            return found
        e = found[0]
        if len(found) > 1:
            return Ask(f"{e.name} is in more than one workout: which day?")
        after = slots.get("side") != "before"
        return e.week, e.session, e.position + (1 if after else 0)
    session = session_meant(slots, required=False)
    if session is None:
        raise NotMeant("add with no workout named or in focus")  # "add rice" is no exercise
    count = len(plan(slots.world).in_session(session.week, session.session))
    where = slots.get("end")
    return session.week, session.session, 1 if where == "start" else ("end" if count else 1)


def add(slots: Slots) -> list[Parsed] | Ask:
    name = new_title(slots.get("new_name", ""))
    anchor = _anchor(slots)
    if isinstance(anchor, Ask):
        return anchor
    week, session, position = anchor
    exercise = {
        "name": name,
        "reps": str(slots.get("reps", DEFAULT_REPS)),
        "targetLoad": load_of(slots) or DEFAULT_LOAD,
        "workingSets": int(slots.get("sets", DEFAULT_SETS)),
        "warmupSets": 0,
        "restSeconds": DEFAULT_REST,
    }
    where = describe_session(plan(slots.world).slot(week, session))
    return [
        Parsed(
            "add_exercise",
            {
                "weekNumber": week,
                "sessionNumber": session,
                "position": position,
                "exercise": exercise,
            },
            f"week {week}: add {name} {exercise['workingSets']}×{exercise['reps']} to {where}",
        )
    ]


def _side_by_side(slots: Slots) -> Slots:
    """A reorder stays within one session: each of its two names ("put face pulls after rows")
    keeps only the exercises planned in a session with one the other name means (the Barbell Row
    of the Face Pull's session, not the Dumbbell Row of another); still several, it is asked."""
    moved, other = slots.get("exercise"), slots.get("other")
    if not isinstance(moved, tuple) or not isinstance(other, tuple):
        return slots
    pairs = set()
    for s in plan(slots.world).sessions:
        here = {e.name for e in plan(slots.world).in_session(s.week, s.session)}
        pairs |= {(m, o) for m in moved for o in other if m != o and {m, o} <= here}
    kept_moved = tuple(m for m in moved if any(m == a for a, _ in pairs)) or moved
    kept_other = tuple(o for o in other if any(o == b for _, b in pairs)) or other
    values = {**slots.values, "exercise": kept_moved, "other": kept_other}
    return dataclasses.replace(slots, values=values)


def move(slots: Slots) -> list[Parsed] | Ask:
    slots = _side_by_side(slots)
    found = exercises_meant(slots, every_week=False)
    if isinstance(found, Ask):
        return found
    calls = []
    for e in found:
        count = len(plan(slots.world).in_session(e.week, e.session))
        if "other" in slots:
            others = exercises_meant(slots, every_week=False, which="other")
            if isinstance(others, Ask):
                return others
            other = next((o for o in others if (o.week, o.session) == (e.week, e.session)), None)
            if other is None:
                raise CommandError(f"{e.name} and {others[0].name} aren't in the same workout.")
            before = slots.get("side") == "before"
            target = other.position if before else other.position + 1
            target = target - 1 if e.position < target else target
        elif slots.get("end") == "start":
            target = 1
        elif slots.get("end") == "end":
            target = count
        else:
            target = int(slots.get("to_position"))
        if not 1 <= target <= count:
            raise CommandError(
                f"That workout has {count} exercises; there is no position {target}."
            )
        calls.append(
            Parsed(
                "reorder_exercises",
                {
                    "weekNumber": e.week,
                    "sessionNumber": e.session,
                    "exerciseNumber": e.position,
                    "newPosition": target,
                },
                f"week {e.week}: move {e.name} to position {target}",
            )
        )
    return calls
