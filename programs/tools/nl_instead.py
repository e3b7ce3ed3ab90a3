"""What the program family asks when an athlete wants an exercise gone without saying what
instead ("i hate overhead press, give me something else", "replace the leg press", "change the
rows"): a question, never a swap to an exercise the coach picked. Its chips offer a few common
alternatives of the same movement pattern (``ALTERNATIVES``), each a sentence the athlete taps to
get the swap's preview; an exercise of no pattern listed here gets the question alone."""

from __future__ import annotations

import re

from coach.llm.offline.language import Ask, Slots

from .nl_data import Planned, plan
from .nl_refs import exercises_meant, named_week, said_day

# Words of an exercise's name → common alternatives for the same movement pattern, first match
# wins (so "romanian deadlift" is read before "deadlift").
ALTERNATIVES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        r"overhead press|shoulder press|military press|ohp",
        ("Dumbbell Shoulder Press", "Landmine Press", "Arnold Press"),
    ),
    (r"incline.*press", ("Incline Dumbbell Press", "Landmine Press", "Push-up")),
    (r"bench press|chest press", ("Dumbbell Bench Press", "Push-up", "Machine Chest Press")),
    (r"front squat|back squat|^squat", ("Goblet Squat", "Leg Press", "Bulgarian Split Squat")),
    (r"leg press|hack squat", ("Goblet Squat", "Bulgarian Split Squat", "Hack Squat")),
    (
        r"romanian deadlift|rdl|stiff.leg",
        ("Good Morning", "Hip Thrust", "Single-Leg Romanian Deadlift"),
    ),
    (r"deadlift", ("Trap Bar Deadlift", "Rack Pull", "Romanian Deadlift")),
    (r"pull.?up|chin.?up", ("Lat Pulldown", "Assisted Pull-up", "Inverted Row")),
    (r"\brow\b", ("Chest-Supported Row", "Seated Cable Row", "Inverted Row")),
    (r"face pull|rear delt|reverse fly", ("Band Pull-Apart", "Reverse Fly", "Rear Delt Row")),
    (r"push.?up|dip", ("Dumbbell Bench Press", "Incline Push-up", "Machine Chest Press")),
    (r"plank", ("Dead Bug", "Side Plank", "Ab Wheel Rollout")),
    (r"carry|farmer", ("Suitcase Carry", "Kettlebell Carry", "Trap Bar Carry")),
    (r"lunge|split squat|step.?up", ("Reverse Lunge", "Step-up", "Goblet Squat")),
    (r"curl", ("Hammer Curl", "Cable Curl", "Chin-up")),
)


def alternatives(name: str) -> tuple[str, ...]:
    """A few exercises of ``name``'s movement pattern (none when its pattern isn't listed)."""
    lowered = name.lower()
    for pattern, options in ALTERNATIVES:
        if re.search(pattern, lowered):
            return tuple(o for o in options if o.lower() != lowered)
    return ()


def _where(slots: Slots) -> str:
    """The day or week the athlete said, for the chips to keep ("on Wednesday", "in week 3")."""
    day = said_day(slots)
    if day:
        return f" on {day}"
    week = named_week(slots)
    return f" in week {week}" if week else ""


def instead(slots: Slots) -> Ask:
    """ "something else" for an exercise: which exercise instead, asked with chips."""
    found = exercises_meant(slots, every_week=True)
    if isinstance(found, Ask):
        return found
    e: Planned = found[0]
    where = _where(slots)
    here = {o.name.lower() for o in plan(slots.world).in_session(e.week, e.session)}
    options = tuple(
        f"swap {e.name} for {alt}{where}"
        for alt in alternatives(e.name)
        if alt.lower() not in here  # the session already has it
    )
    return Ask(f"What would you like instead of {e.name}{where}?", options)
