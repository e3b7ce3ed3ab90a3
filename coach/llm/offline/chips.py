"""The "Did you mean" chips of a message the grammar did not understand: the declared examples
nearest to it (``nearest``)."""

from __future__ import annotations

from rapidfuzz import fuzz, process

from .cleaning import clean
from .understand import COMMON, WORD, grammar


def nearest(message: str, *, limit: int = 3, extra: tuple[str, ...] = ()) -> list[str]:
    """The declared examples nearest to ``message`` (the "Did you mean" chips): each intent's
    example closest in words, scored also by how many of the message's words are the intent's
    own (its verbs: "replace squat" is nearer "swap squats for lunges" than "fewer reps on
    squats"), one chip per intent; then ``extra`` (the commands' examples) by words alone."""
    g = grammar()
    text = clean(message).lower()
    said = set(WORD.findall(text)) - COMMON
    scored: list[tuple[float, str]] = []
    for name, intent in g.by_name.items():
        if not intent.examples:
            continue
        found = process.extractOne(text, intent.examples, scorer=fuzz.token_set_ratio)
        shared = len(said & g.intent_words[name]) / max(1, len(said))
        scored.append((0.7 * found[1] + 30 * shared, found[0]))
    for example in extra:
        scored.append((0.7 * fuzz.token_set_ratio(text, example), example))
    scored.sort(key=lambda pair: -pair[0])
    ranked = list(dict.fromkeys(example for _, example in scored))
    best = {example: score for score, example in reversed(scored)}
    chips = [example for example in ranked if best[example] >= 35][:limit]
    if len(chips) == 1:  # a second, near enough, to choose between
        chips += [example for example in ranked[1:2] if best[example] >= 25]
    return chips
