"""Spotter's words, once: day names, sports, cardio types, units and plurals.

The engine and every family use these instead of keeping a copy, so a day is spelled one way on the
card, in the tools' schemas, in the offline coach and in the demo data. This module knows no
family's models; a family builds its model's choices from it (``text_choices``), keeping the
spelling its rows are stored in.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Iterable

from django.db import models

# --- days ----------------------------------------------------------------------------------------

# Index = ``date.weekday()`` (Monday 0); ISO weekday ``n`` (Monday 1) is index ``n - 1``.
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DAY_ABBREVIATIONS = tuple(name[:3] for name in DAY_NAMES)  # "Mon" … "Sun"


def day_name(day: datetime.date) -> str:
    return DAY_NAMES[day.weekday()]


def weekday_index(word: str) -> int | None:
    """The ``date.weekday()`` of a word whose first three letters name a day ("mon", "Weds",
    "sunday"), else None."""
    prefix = word[:3].lower()
    for index, abbreviation in enumerate(DAY_ABBREVIATIONS):
        if abbreviation.lower() == prefix:
            return index
    return None


# --- sports and cardio -----------------------------------------------------------------------------

# Every sport a family stores, with the label people read. A family picks the ones it keeps and
# the spelling of its rows: training stores "RUNNING" (as its importers and CSV columns write it),
# the library "running".
SPORTS = {
    "strength": "Strength",
    "running": "Running",
    "cycling": "Cycling",
    "rowing": "Rowing",
    "swimming": "Swimming",
    "conditioning": "Conditioning",
    "mobility": "Mobility",
    "other": "Other",
}

# The kinds of cardio block a session or a library workout can hold.
CARDIO_TYPES = {
    "zone2": "Zone 2",
    "intervals": "Intervals",
    "sweetspot": "Sweet spot",
    "threshold": "Threshold",
    "vo2max": "VO2 max",
}

# --- units ---------------------------------------------------------------------------------------

# Small numbers as people write them ("three sets", "at eight"): the one list every family's
# sentences share (hassil reads numbers in words for its range lists on its own).
_SMALL_NUMBERS = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
]
NUMBER_WORDS = {word: n for n, word in enumerate(_SMALL_NUMBERS, start=1)}

# Contractions as people type them without the apostrophe ("cant", "im", "whats"), each with its
# written form ("ill" is a word of its own, never "I'll"); "id" is "I'd" only before the words
# that make it so ("id like", "id rather").
CONTRACTIONS = {
    "cant": "can't",
    "dont": "don't",
    "wont": "won't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "couldnt": "couldn't",
    "shouldnt": "shouldn't",
    "wouldnt": "wouldn't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "im": "i'm",
    "ive": "i've",
    "whats": "what's",
    "thats": "that's",
    "hows": "how's",
    "wheres": "where's",
    "theres": "there's",
    "youre": "you're",
}
I_WOULD_BEFORE = ("like", "love", "rather", "prefer", "want")

WEIGHT_UNITS = ("kg", "lb")
DISTANCE_UNITS = ("km", "mi")
METRES_PER_UNIT = {"km": 1000.0, "mi": 1609.344}
FEET_PER_METRE = 3.28084

# --- plurals -------------------------------------------------------------------------------------


def plural(count: object, noun: str) -> str:
    """``1 week``, ``2 weeks``, ``0 weeks``: the English regular plural, the count first."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# A text with its counts left as data: each ``(count, noun)`` part reads as ``plural`` words it
# ("1 warm-up set", "2 warm-up sets"). A family's executor describes an object this way, so the
# description is right for one and for many without the executor calling the vocabulary in the
# middle of its write; the engine spells it once, with the rest of the call's words.
Counted = tuple[int, str]
Phrase = str | tuple[str | Counted, ...]


def spelled(phrase: Phrase) -> str:
    """``("Squat, ", (2, "warm-up set"))`` → "Squat, 2 warm-up sets"; a plain string as it is."""
    if isinstance(phrase, str):
        return phrase
    return "".join(part if isinstance(part, str) else plural(*part) for part in phrase)


# --- choices for a family's models ---------------------------------------------------------------


def text_choices(
    name: str,
    words: Iterable[str],
    labels: dict[str, str] | None = None,
    *,
    stored_upper: bool = False,
) -> type[models.TextChoices]:
    """A ``TextChoices`` of ``words`` in that order, labelled from ``labels`` (the word itself
    without): member ``RUNNING`` holds ``"running"`` (``"RUNNING"`` with ``stored_upper``). It
    belongs to the calling module, as a class statement there would."""
    members = [
        (w.upper(), (w.upper() if stored_upper else w, labels[w] if labels else w)) for w in words
    ]
    return models.TextChoices(name, members, module=sys._getframe(1).f_globals["__name__"])
