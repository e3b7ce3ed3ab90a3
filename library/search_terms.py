"""What a search query means: its words, each with the words that mean the same here, and whether
it asks for something short. Shared by the PostgreSQL and the portable search so both read a
query the same way.

* Filler words ("find me a workout") are dropped, unless they are all the query has.
* A word with a synonym group also matches its synonyms ("bike" matches cycling workouts,
  "cardio" the endurance sports, "hiit" intervals and conditioning), at a lower weight.
* "quick" or "short" is a duration hint: workouts of at most ``SHORT_MINUTES`` rank higher.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WORD = re.compile(r"[^\W_]+", re.UNICODE)
SHORT_MINUTES = 30
SHORT_WORDS = frozenset({"quick", "short"})
FILLER_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "any",
        "for",
        "find",
        "give",
        "i",
        "me",
        "my",
        "of",
        "please",
        "show",
        "some",
        "the",
        "to",
        "with",
        "workout",
        "workouts",
        "session",
        "sessions",
        "training",
        "routine",
    ]
)
SYNONYMS: dict[str, tuple[str, ...]] = {
    "cardio": ("running", "cycling", "rowing", "swimming", "conditioning", "zone"),
    "endurance": ("running", "cycling", "rowing", "swimming", "aerobic"),
    "hiit": ("intervals", "vo2max", "emom", "conditioning", "metcon"),
    "bike": ("cycling",),
    "cycle": ("cycling",),
    "ride": ("cycling",),
    "jog": ("running", "recovery"),
    "erg": ("rowing",),
    "row": ("rowing",),
    "weights": ("strength",),
    "lifting": ("strength",),
    "gym": ("strength",),
    "stretch": ("mobility",),
    "stretching": ("mobility",),
    "flexibility": ("mobility",),
    "abs": ("core",),
    "core": ("abs",),
    "easy": ("recovery", "zone"),
}


@dataclass(frozen=True)
class ParsedQuery:
    """``groups``: per meaningful word, the word then its synonyms; ``short``: a duration hint."""

    groups: tuple[tuple[str, ...], ...]
    short: bool

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(group[0] for group in self.groups)

    @property
    def alternatives(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(term for group in self.groups for term in group))


def parse_query(query: str) -> ParsedQuery:
    words = list(dict.fromkeys(WORD.findall(query.lower())))
    meaningful = [w for w in words if w not in FILLER_WORDS]
    words = meaningful or words
    content = [w for w in words if w not in SHORT_WORDS] or words
    short = len(content) < len(words)
    return ParsedQuery(groups=tuple((w, *SYNONYMS.get(w, ())) for w in content), short=short)
