"""The "Did you mean" chips of a message the grammar did not understand: the declared examples
nearest to it (``nearest``)."""

from __future__ import annotations

from rapidfuzz import fuzz, process

from .cleaning import clean
from .understand import COMMON, WORD, grammar

NEAR = 35  # the score a chip needs
AS_NEAR = 0.7  # ... and this share of the best chip's
ALIKE = 60  # an example sharing none of the intent's own words must be this alike in words


def nearest(message: str, *, limit: int = 3, extra: tuple[str, ...] = ()) -> list[str]:
    """The declared examples nearest to ``message`` (the "Did you mean" chips): each intent's
    example closest in words, scored also by how many of the message's words are the intent's
    own (its verbs: "replace squat" is nearer "swap squats for lunges" than "fewer reps on
    squats"), one chip per intent; then ``extra`` (the commands' examples) by words alone. An
    example that shares none of the intent's own words must be alike in words (``ALIKE``), and
    each chip after the first near the first (``AS_NEAR``): "remind me to stretch at 8pm" gets
    the reminder's example, not a calendar beside it because both say "me"."""
    g = grammar()
    text = clean(message).lower()
    said = set(WORD.findall(text)) - COMMON
    scored: list[tuple[float, str]] = []
    for name, intent in g.by_name.items():
        if not intent.examples:
            continue
        found = process.extractOne(text, intent.examples, scorer=fuzz.token_set_ratio)
        shared = len(said & g.intent_words[name]) / max(1, len(said))
        if shared or found[1] >= ALIKE:
            scored.append((0.7 * found[1] + 30 * shared, found[0]))
    for example in extra:
        if (alike := fuzz.token_set_ratio(text, example)) >= ALIKE:
            scored.append((0.7 * alike, example))
    scored.sort(key=lambda pair: -pair[0])
    ranked = list(dict.fromkeys(example for _, example in scored))
    best = {example: score for score, example in reversed(scored)}
    if not ranked or best[ranked[0]] < NEAR:
        return []
    top = best[ranked[0]]
    chips = [e for e in ranked if best[e] >= max(NEAR, AS_NEAR * top)][:limit]
    if len(chips) == 1:  # a second, near enough, to choose between
        chips += [e for e in ranked[1:2] if best[e] >= 25]
    return chips
