"""Two families' readings of one sentence that are equally good: the offline coach asks which was
meant instead of taking the one whose app happens to be installed first.

A reading (``Reading``) is an intent, its slots, hassil's rank of the match (``score``: fewer
wildcards, more literal words, less wildcard text), the family that declares the intent
(``owner``) and how well the athlete's data answers it (``fit``, the intent's own measure, 0
without one). The best reading whose build gives calls is *tied* when a reading of another family
has the same score and the same fit and builds other calls, starting with another tool, and one of
the two readings changes something (two reads change nothing: the first, in hassil's order and
then the apps', answers, and what it shows says which it read). Then the
athlete gets a question naming each reading's changes, with one chip per reading; a chip's text
is the sentence after the label of the tool its calls start with ("Read a week: what's on
Saturday"), which ``understand`` reads as that reading alone (``labelled``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from coach.registry import REGISTRY

from .grammar import CommandError, Parsed
from .language import Ask, Intent, NotMeant, Slots


@dataclass
class Reading:
    """One reading of a sentence (see the module)."""

    intent: Intent
    slots: Slots
    score: tuple[int, int, int]
    owner: str = ""

    @functools.cached_property
    def fit(self) -> int:
        if self.intent.fit is None:
            return 0
        try:
            return self.intent.fit(self.slots)
        except (NotMeant, CommandError):
            return 0


def label_of(calls: list[Parsed]) -> str:
    """The label of the tool the calls start with (its name for a tool the registry lacks)."""
    spec = REGISTRY.get(calls[0].name)
    return spec.label if spec is not None else calls[0].name


def labelled(text: str) -> tuple[str, str]:
    """``("Read a week", "what's on Saturday")`` for a chip's "Read a week: what's on Saturday";
    ``("", text)`` when ``text`` starts with no tool's label."""
    head, colon, rest = text.partition(":")
    if not colon or not rest.strip():
        return "", text
    for spec in REGISTRY.values():
        if spec.label.lower() == head.strip().lower():
            return spec.label, rest.strip()
    return "", text


def writes(calls: list[Parsed]) -> bool:
    """Any of the calls changes something (a tool the registry lacks counts as a change)."""
    return any((spec := REGISTRY.get(c.name)) is None or spec.kind != "read" for c in calls)


def _calls(calls: list[Parsed]) -> list[tuple[str, str]]:
    return [(c.name, repr(sorted(c.arguments.items()))) for c in calls]


def tie(
    readings: list[Reading],
    at: int,
    built: list[Parsed],
    build: Callable[[Reading], list[Parsed] | Ask],
    text: str,
) -> Ask | None:
    """The question to ask when ``readings[at]`` (which built ``built``) is tied with another
    family's reading (see the module), else None."""
    if not built:  # a build that asks for nothing ("skip it" with nothing to skip) ties nothing
        return None
    chosen = readings[at]
    world = chosen.slots.world
    options = {label_of(built): built}
    for other in readings[at + 1 :]:
        if other.score != chosen.score:
            break
        if other.owner == chosen.owner or other.fit != chosen.fit:
            continue
        said = len(world.said)
        try:
            result = build(other)
        except (NotMeant, CommandError):
            continue
        finally:
            del world.said[said:]
        if not isinstance(result, list) or not result or _calls(result) == _calls(built):
            continue
        if not writes(built) and not writes(result):
            continue  # two reads change nothing: the first answers, as the athlete sees
        options.setdefault(label_of(result), result)
    if len(options) < 2:
        return None
    meant = " or ".join(
        f'"{"; ".join(c.description for c in calls)}"' for calls in options.values()
    )
    return Ask(
        f"That could mean {len(options)} things: {meant}. Which do you mean?",
        tuple(f"{label}: {text}" for label in options),
    )
