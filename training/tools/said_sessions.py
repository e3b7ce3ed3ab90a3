"""Sessions as people name them, for the training family's sentences (``training.tools.language``):
"tomorrow's workout", "the session on Friday", "my long run on Sunday", "skip tomorrow", "it".

``session_rule(p)`` is the template; ``session_said`` reads its slots into one planned session of
the conversation's program (the ref the schedule tools take, ``week-2-session-3``). A date with
two sessions is a question naming both; a date with none is refused in words; "it" / "that" is
the session in focus: the one this message or the conversation just named, else today's.
"""

from __future__ import annotations

import datetime
import re
from collections import OrderedDict
from dataclasses import dataclass

from coach.llm.offline.grammar import CommandError
from coach.llm.offline.language import Ask, Slots, World
from coach.vocabulary import DAY_NAMES

from .said_dates import date_rule, date_said, spoken, told, which_weekday

NOUNS = (
    "workout|session|training|training session|workout session|sesh|run|ride|swim|lift|"
    "lifting|gym session|gym|class|wod|practice|exercise session|workouts|sessions"
)


def _possessives() -> list[tuple[str, str]]:
    pairs = []
    for word, when in (
        ("today", "today"),
        ("tonight", "today"),
        ("this morning", "today"),
        ("this evening", "today"),
        ("tomorrow", "tomorrow"),
        ("tmrw", "tomorrow"),
        ("yesterday", "yesterday"),
        ("last night", "yesterday"),
    ):
        pairs += [(f"{word}'s", when), (f"{word}s", when)]
    for index, name in enumerate(DAY_NAMES):
        lower = name.lower()
        pairs += [(f"{lower}'s", str(index)), (f"{lower}s", str(index))]
    return pairs


FOCUS = [
    ("it", True),
    ("that", True),
    ("this", True),
    ("that one", True),
    ("this one", True),
    ("that workout", True),
    ("this workout", True),
    ("that session", True),
    ("this session", True),
]

VALUES = {
    "training_possessive": _possessives(),
    "training_focus": FOCUS,
    "training_noun": [(noun, noun) for noun in NOUNS.split("|")],
    "training_which_week": [("this week", 0), ("next week", 1), ("last week", -1)],
    "training_which_week_s": [
        ("this week's", 0),
        ("this weeks", 0),
        ("next week's", 1),
        ("next weeks", 1),
        ("last week's", -1),
    ],
}


def session_rule(p: str) -> str:
    """The template of one session named by its day or name, its slots named ``<p>_…``."""
    what = f"({{training_noun:{p}_noun}}|{{training_session:{p}_name}})"
    name = f"{{training_session:{p}_name}}"
    return (
        "("
        f"[my] {{training_possessive:{p}_poss}} {what}"
        f"|[the|my] {what} [[planned|scheduled] [on|for|from] {date_rule(p)}]"
        f"|[the|my] {name} {{training_which_week:{p}_week}}"
        f"|{{training_which_week_s:{p}_week}} {name}"
        f"|[the|my] {date_rule(p)} [{{training_noun:{p}_noun}}]"
        ")"
    )


def other_rule(p: str) -> str:
    """A second session in the same sentence ("swap tomorrow's workout with Friday's"): a
    session as ``session_rule`` names it, or a day's possessive alone."""
    return f"({session_rule(p)}|{{training_possessive:{p}_poss}})"


def focus_rule(p: str) -> str:
    """ "it", "that", "this one": the session in focus. Kept apart from ``session_rule`` so that
    a sentence never reads free words after it ("skip that exercise" is not a skipped session)."""
    return f"{{training_focus:{p}_focus}}"


@dataclass(frozen=True)
class Planned:
    ref: str
    name: str
    date: datetime.date | None
    completed: bool
    skipped: bool

    @property
    def told(self) -> str:
        return f"{self.name} ({told(self.date)})" if self.date else self.name


_KEPT = 64  # programs whose sessions are kept between messages
_rows: OrderedDict[tuple, list[Planned]] = OrderedDict()


def planned(world: World) -> list[Planned]:
    """The program's sessions in date order. Kept by the program's version (it increases on
    every change by any path, ``programs.models.Program.version``), so a message reads them from
    the database only after a change: the lists are filled for every message, whatever it says."""
    program = getattr(world.ctx, "program", None)
    if program is None:
        return []
    # created_at too: a key reused after a rolled-back transaction is another program.
    key = (program.pk, program.version, getattr(program, "created_at", None))
    if key in _rows:
        _rows.move_to_end(key)
        return _rows[key]
    # Through the program's own relations (the program family's models are its own to import).
    rows = (
        program.weeks.filter(sessions__isnull=False)
        .order_by("sessions__scheduled_date", "position", "sessions__position")
        .values_list(
            "position",
            "sessions__position",
            "sessions__name",
            "sessions__scheduled_date",
            "sessions__completed",
            "sessions__skipped",
        )
    )
    _rows[key] = [
        Planned(f"week-{w}-session-{s}", name, day, done, skipped)
        for w, s, name, day, done, skipped in rows
    ]
    while len(_rows) > _KEPT:
        _rows.popitem(last=False)
    return _rows[key]


def session_names(world: World) -> list[tuple[str, str]]:
    """The program's session names as people write them ("long run", "long runs")."""
    names = sorted({p.name for p in planned(world)})
    pairs = []
    for name in names:
        lower = name.lower().strip()
        pairs += [(lower, name), (lower + "s", name), (lower.replace("-", " "), name)]
    return list(dict.fromkeys(pairs))


def _span(slots: Slots, p: str) -> str:
    """The words of the sentence that named the session (from its first slot to its last)."""
    text, low = slots.text, slots.text.lower()
    spans = []
    for key, said in slots.words.items():
        if key.startswith(p + "_") and said:
            at = low.find(said.lower())
            if at >= 0:
                spans.append((at, at + len(said)))
    if not spans:
        return ""
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    tail = re.match(rf"\s*(?:{NOUNS})\b", text[end:], re.I)
    return text[start : end + (tail.end() if tail else 0)]


def _which(slots: Slots, p: str, found: list[Planned], question: str) -> Ask:
    said = _span(slots, p)
    options = []
    for one in found:
        words = f"the {one.name.lower()} on {spoken(one.date)}" if one.date else one.name
        options.append(slots.text.replace(said, words, 1) if said else words)
    names = ", ".join(one.told for one in found[:-1]) + f" or {found[-1].told}"
    return Ask(f"{question} {names}?", tuple(options))


def in_conversation(slots: Slots) -> Planned | None:
    """The session this message or the conversation named last (a call's ``workout_id``)."""
    refs = {p.ref: p for p in planned(slots.world)}
    for _, arguments in slots.world.recent_calls():
        ref = arguments.get("workout_id")
        if ref in refs:
            return refs[ref]
    return None


def _focus(slots: Slots) -> Planned | None:
    named = in_conversation(slots)
    if named is not None:
        return named
    today = [p for p in planned(slots.world) if p.date == slots.world.today]
    return today[0] if len(today) == 1 else None


def session_said(slots: Slots, p: str = "s", *, past: bool = False) -> Planned | Ask:
    """The one session the ``<p>_…`` slots name (see the module docstring)."""
    world = slots.world
    if getattr(world.ctx, "program", None) is None:
        raise CommandError("You have no program yet, so there is no session to change.")
    named = any(
        k.startswith(p + "_") and k not in (f"{p}_noun", f"{p}_focus") for k in slots.values
    )
    if slots.get(f"{p}_focus") or not named:
        found = _focus(slots)
        if found is None:
            raise CommandError('Which session? Say its day, e.g. "tomorrow\'s workout".')
        return found
    day: datetime.date | Ask | None
    poss = slots.get(f"{p}_poss")
    if poss is not None:
        shift = {"today": 0, "tomorrow": 1, "yesterday": -1}
        day = (
            world.today + datetime.timedelta(days=shift[poss])
            if poss in shift
            else _weekday(world, int(poss), past=past)
        )
        if poss not in shift and not past and day <= world.today:
            # "friday's workout" said on a Friday or later: this week's or the next? Asked.
            return which_weekday(slots, day, span=_span(slots, p))
    else:
        day = date_said(slots, p, past=past, change=not past)
    if isinstance(day, Ask):
        return day
    name = slots.get(f"{p}_name")
    rows = planned(world)
    if name:
        rows = [r for r in rows if r.name == name]
        if slots.get(f"{p}_week") is not None:
            monday = world.weekday(0) + datetime.timedelta(days=7 * int(slots.get(f"{p}_week")))
            sunday = monday + datetime.timedelta(days=6)
            rows = [r for r in rows if r.date and monday <= r.date <= sunday]
            if len(rows) > 1:
                return _which(slots, p, rows, f"You have {len(rows)} of them that week:")
        elif day is None:
            upcoming = [r for r in rows if r.date and r.date >= world.today and not r.completed]
            rows = upcoming[:1] or rows[-1:]
    if day is not None:
        rows = [r for r in rows if r.date == day]
    if not rows:
        what = f"no {name}" if name else "nothing"
        when = f"on {told(day)}" if day else "in your program"
        raise CommandError(f"You have {what} planned {when}.")
    if len(rows) > 1:
        return _which(slots, p, rows, f"You have {len(rows)} sessions on {told(day)}:")
    return rows[0]


def _weekday(world: World, index: int, *, past: bool) -> datetime.date:
    day = world.weekday(index)
    if past and day > world.today:
        return day - datetime.timedelta(days=7)
    return day
