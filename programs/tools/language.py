"""The program family in everyday words (``coach.llm.offline.language``): the athlete's exercises
by the names people use, and the sentences that change them.

An exercise is named as people say it: its name in any case, singular or plural, with or without
its hyphen ("push ups", "pushups"), its last word alone when only one exercise has it ("squats"
for Back Squat), and the common short names (``SYNONYMS``: bench, RDL, OHP, pull-ups/chin-ups).
A word that fits several exercises ("press") is a question with the candidates as chips, never a
guess. Without a week, a change applies from the current week on, wherever the exercise is
planned; "this week", "week 4", "on Monday" or "today" narrow it."""

from __future__ import annotations

import datetime
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, Intent, Language, Slots, World, day_of
from programs.models import Exercise

# Short names people use → words of the exercise's own name they stand for.
SYNONYMS = {
    "bench": "bench press",
    "rdl": "romanian deadlift",
    "rdls": "romanian deadlift",
    "ohp": "overhead press",
    "military press": "overhead press",
    "shoulder press": "overhead press",
    "pull ups": "pull-up",
    "pullups": "pull-up",
    "pull up": "pull-up",
    "chin ups": "pull-up",
    "chin-ups": "pull-up",
    "chinups": "pull-up",
    "squat": "back squat",
    "squats": "back squat",
    "deads": "deadlift",
    "farmers walk": "farmer carry",
    "farmer's walk": "farmer carry",
    "farmers carry": "farmer carry",
    "farmer's carry": "farmer carry",
    "rows": "barbell row",
}


@dataclass(frozen=True)
class Planned:
    week: int
    session: int
    position: int
    name: str
    start: datetime.date
    end: datetime.date
    day: str


def planned(world: World) -> list[Planned]:
    """Every exercise of the conversation's program, in order (once a message)."""

    def load() -> list[Planned]:
        program = getattr(world.ctx, "program", None)
        if program is None:
            return []
        rows = (
            Exercise.objects.filter(session__week__program=program)
            .order_by("session__week__position", "session__position", "position")
            .values_list(
                "session__week__position",
                "session__position",
                "position",
                "name",
                "session__week__start_date",
                "session__week__end_date",
                "session__day_of_week",
            )
        )
        return [Planned(*row) for row in rows]

    return world.cached("programs.planned", load)


def _forms(name: str) -> set[str]:
    base = name.lower().strip()
    forms = {base, base.replace("-", " "), base.replace("-", "")}
    for form in list(forms):
        forms.add(form[:-1] if form.endswith("s") else form + "s")
    return {f for f in forms if f}


def exercise_names(world: World) -> list[tuple[str, Any]]:
    """Words → the exercise names they may mean (a tuple: more than one is a question)."""
    names = sorted({p.name for p in planned(world)})
    meaning: dict[str, set[str]] = defaultdict(set)
    for name in names:
        for form in _forms(name):
            meaning[form].add(name)
        words = name.lower().replace("-", " ").split()
        if len(words) > 1:
            for form in _forms(words[-1]):
                meaning.setdefault(form, set()).add(name)
    lowered = {n.lower(): n for n in names}
    for short, full in SYNONYMS.items():
        if full in lowered and short not in meaning:
            meaning[short].add(lowered[full])
    return [(words, tuple(sorted(found))) for words, found in meaning.items()]


def weeks_meant(slots: Slots, world: World) -> tuple[Sequence[int] | None, str | None]:
    """The weeks a sentence names (None: from the current week on) and the weekday, if any."""
    rows = planned(world)
    if "week" in slots:
        return [int(slots.get("week"))], None
    date = day_of(slots, world)
    if date is not None:
        week = next((p.week for p in rows if p.start <= date <= p.end), None)
        if week is None:
            raise CommandError(f"Your program has no week on {date:%A %-d %B}.")
        return [week], date.strftime("%A")
    if slots.get("this_week"):
        week = next((p.week for p in rows if p.start <= world.today <= p.end), None)
        return ([week] if week else [min((p.week for p in rows), default=1)]), None
    current = [p.week for p in rows if p.end >= world.today]
    first = min(current) if current else min((p.week for p in rows), default=1)
    return [w for w in sorted({p.week for p in rows}) if w >= first], None


def occurrences(slots: Slots, name_slot: str = "exercise") -> list[Planned] | Ask:
    world = slots.world
    names = slots.get(name_slot) or ()
    said = slots.words.get(name_slot, "")
    if len(names) > 1:
        return Ask(
            f'Which one do you mean by "{said}"? ' + ", ".join(names[:-1]) + f" or {names[-1]}?",
            tuple(_retold(slots, name_slot, n) for n in names),
        )
    weeks, day = weeks_meant(slots, world)
    found = [
        p
        for p in planned(world)
        if p.name == names[0]
        and (weeks is None or p.week in weeks)
        and (day is None or p.day.lower() == day.lower())
    ]
    if not found:
        where = f" on {day}" if day else ""
        raise CommandError(f"{names[0]} isn't planned{where} in the weeks you meant.")
    return found


def _retold(slots: Slots, name_slot: str, name: str) -> str:
    """The athlete's sentence with the ambiguous words replaced by one candidate's name."""
    text = slots.text
    said = slots.words.get(name_slot, "")
    if text and said:
        return re.sub(re.escape(said), name, text, count=1, flags=re.I)
    return name


def _swap(slots: Slots) -> list[Parsed] | Ask:
    found = occurrences(slots)
    if isinstance(found, Ask):
        return found
    new_name = str(slots.get("new_name")).strip()
    if not new_name:
        raise CommandError('Say what to change it to, e.g. "swap squats for lunges".')
    new_name = new_name[:1].upper() + new_name[1:]
    return [
        Parsed(
            "modify_exercise",
            {
                "weekNumber": p.week,
                "sessionNumber": p.session,
                "exerciseNumber": p.position,
                "updates": {"name": new_name},
            },
            f"week {p.week}: change {p.name} to {new_name}",
        )
        for p in found
    ]


LANGUAGE = Language(
    lists={"exercise": exercise_names},
    wildcards=("new_name",),
    values={"this_week": [("this week", True), ("this week's", True), ("for this week", True)]},
    ranges={"week": (1, 52)},
    rules={
        "scope": "[({this_week}|in week {week}|for week {week}|on {day}|{when})]",
    },
    intents=(
        Intent(
            "swap_exercise",
            (
                "[<please>] (change|swap|switch|replace|sub|substitute) <the> {exercise} (to|with|for|into) {new_name} [<scope>]",
                "[<please>] (change|swap|switch|replace|sub|substitute) <the> {exercise} [<scope>] (to|with|for|into) {new_name}",
                "[i'd rather|i want to|let me|can i|i'll] do {new_name} instead of <the> {exercise} [<scope>]",
                "instead of <the> {exercise} [<scope>] [i want to|i'd like to|let me|i'll] do {new_name}",
            ),
            build=_swap,
            examples=("swap squats for lunges", "change bench press to dumbbell press this week"),
        ),
    ),
)
