"""What a family declares so that the offline coach understands its tools in everyday words.

A family's ``tools/language.py`` may hold ``LANGUAGE``, a ``Language``: its intents, each a set of
template sentences in Home Assistant's hassil syntax and a ``build`` that turns the matched slots
into tool calls (or a question), and the slot lists the templates use::

    Intent(
        "swap_exercise",
        ("(change|swap|replace) [my|the] {exercise} (to|with|for) {new_name}",),
        build=swap,                       # Slots -> Parsed | list[Parsed] | Ask
        examples=("swap squats for lunges",),
    )

Template syntax: ``(a|b)`` alternatives, ``[x]`` optional, ``{list}`` a slot, ``<rule>`` an
expansion rule. A list is one of: ``lists`` (filled at match time from the athlete's data: a
function of the ``World`` returning ``(words, value)`` pairs, e.g. the program's exercises by the
names people use), ``values`` (fixed ``(words, value)`` pairs), ``ranges`` (whole numbers, also
written as words: "three sets of ten"), ``wildcards`` (free text: a new exercise's name). The
engine adds the lists every family shares (``SHARED``: ``day``, ``when``, ``this_week``,
``next_week``, ``count``) and the skip words said around any request ("pls", "can you"): two
families may not declare the same list. A range named in ``decimals`` also reads halves ("62.5";
tenths cost the first message of a process 2 s more to build their words). The matcher is
``understand``; nothing here names a family."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from coach import vocabulary
from coach.llm.base import World

from .grammar import Parsed


class NotMeant(Exception):
    """Raised by a ``build``: the words matched its templates but don't mean its intent (a
    wildcard that took "Leg Day Destroyer on my calendar" for an exercise's name); the matcher
    tries the next best reading, and without one the message is not understood."""


@dataclass(frozen=True)
class Ask:
    """A short question instead of a guess; ``options`` are sentences offered as chips, each
    understood as it reads when the athlete taps it."""

    question: str
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Slots:
    """One match: the slots' values (``values``), the words they matched (``words``), the world,
    and the words matched (``text``: the question's chips retell them with one candidate)."""

    values: Mapping[str, Any]
    words: Mapping[str, str]
    world: World
    text: str = ""  # the sentence (or clause) matched
    # The wildcard slots' words as the athlete typed them (``original``).
    originals: Mapping[str, str] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)

    def original(self, name: str, default: Any = None) -> Any:
        """A free-text (wildcard) slot's words as the athlete typed them: their casing and their
        spelling, before any typo correction ("Zercher Squat", not "zercher squat"); the slot's
        value for a slot of any other kind, ``default`` when it isn't in the match."""
        if name in self.originals:
            return self.originals[name]
        return self.values.get(name, default)

    def __contains__(self, name: str) -> bool:
        return name in self.values


Built = Parsed | list[Parsed] | Ask


@dataclass(frozen=True)
class Intent:
    """One thing people ask for, in the words they use. ``build`` gets the match and returns the
    call(s), or an ``Ask`` when the words fit more than one thing; it may raise ``CommandError``
    to say in words what is missing, or ``NotMeant`` when the words don't mean this intent. ``examples`` are offered as "Did you mean" chips."""

    name: str
    sentences: tuple[str, ...]
    build: Callable[[Slots], Built]
    examples: tuple[str, ...] = ()
    # How well the athlete's data answers this reading (higher is better): two families' readings
    # that hassil ranks equal ("what's on Saturday": the program's week, the dated plan) are tried
    # best answered first, not in the order the apps are installed. A fit may raise ``NotMeant``
    # or ``CommandError``: it counts as 0.
    fit: Callable[[Slots], int] | None = None


ListFill = Callable[[World], Sequence[tuple[str, Any]]]


@dataclass(frozen=True)
class Language:
    intents: tuple[Intent, ...] = ()
    lists: Mapping[str, ListFill] = field(default_factory=dict)
    values: Mapping[str, Sequence[tuple[str, Any]]] = field(default_factory=dict)
    ranges: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    decimals: tuple[str, ...] = ()  # the ranges that also read halves ("62.5 kg")
    wildcards: tuple[str, ...] = ()
    rules: Mapping[str, str] = field(default_factory=dict)
    skip_words: tuple[str, ...] = ()  # said around a request, meaning nothing ("pls")
    crisis: bool = False  # its intents are the crisis path: tried first, whatever else is said


# --- what every family shares --------------------------------------------------------------------


def _days() -> list[tuple[str, Any]]:
    pairs: list[tuple[str, Any]] = []
    for index, name in enumerate(vocabulary.DAY_NAMES):
        lower = name.lower()
        for words in {lower, lower + "s", lower + "'s", lower[:3], lower[:3] + "."}:
            pairs.append((words, index))
    return pairs


WHEN = [
    ("today", "today"),
    ("tonight", "today"),
    ("this evening", "today"),
    ("this morning", "today"),
    ("tomorrow", "tomorrow"),
    ("tmrw", "tomorrow"),
    ("tmr", "tomorrow"),
    ("yesterday", "yesterday"),
    ("today's", "today"),
    ("tonight's", "today"),
    ("tomorrow's", "tomorrow"),
    ("yesterday's", "yesterday"),
]

THIS_WEEK = [("this week", True), ("this week's", True), ("this weeks", True)]
NEXT_WEEK = [("next week", True), ("next week's", True), ("next weeks", True)]

# Words said around any request that change nothing of it, wherever they stand (hassil's skip
# words: a sentence is tried with them and without them).
SKIP_WORDS = (
    "please",
    "pls",
    "plz",
    "thanks",
    "thank you",
    "thx",
    "kindly",
    "can you",
    "could you",
    "would you",
    "can u",
    "could u",
    "can you please",
    "could you please",
    "i'd like to",
    "i would like to",
    "i want to",
    "i wanna",
    "go ahead and",
)

SHARED = Language(
    values={"day": _days(), "when": WHEN, "this_week": THIS_WEEK, "next_week": NEXT_WEEK},
    ranges={"count": (0, 1000)},
    skip_words=SKIP_WORDS,
    rules={
        "the": "[the|my|this|that|our]",
        "please": "[please|pls|plz]",
    },
)


def day_of(slots: Slots, world: World) -> datetime.date | None:
    """The date a ``{day}`` or ``{when}`` slot names in the athlete's current week (a weekday)
    or relative to today (today, tomorrow, yesterday); None when neither is said."""
    when = slots.get("when")
    if when == "today":
        return world.today
    if when == "tomorrow":
        return world.today + datetime.timedelta(days=1)
    if when == "yesterday":
        return world.today - datetime.timedelta(days=1)
    if "day" in slots:
        return world.weekday(int(slots.get("day")), next_week=bool(slots.get("next_week")))
    return None


def message_of(slots: Slots) -> str:
    """The athlete's whole message (their latest words in the conversation), or the matched
    words when the world holds no such turn: a build that reads details around its clause."""
    for turn in reversed(slots.world.turns):
        if turn.role == "user":
            text = turn.athlete_text if turn.athlete_text is not None else turn.content
            if text and slots.text.lower()[:20] in text.lower().replace("’", "'"):
                return text.strip()
            break
    return slots.text


def rest_of_message(slots: Slots) -> str:
    """The message from the matched clause to its end: a clause cut at "and" inside what one call
    reads ("3 sets of squats and 3 sets of lunges", "every monday and thursday") reads on."""
    whole = message_of(slots)
    at = whole.lower().replace("’", "'").find(slots.text.lower()[:20])
    return whole[at:] if at >= 0 else slots.text
