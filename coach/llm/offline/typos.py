"""Misspelt words corrected to the nearest word the grammar knows (rapidfuzz), each correction kept
as data (``Fix``) so that a reading built on one is known to be, and the words the athlete typed
can be read back for the free-text slots (``Corrected.original``).

A correction is *sure* when it is small and has no rival: the typed word is one edit from the word
it became (a letter added, dropped, changed, or two neighbours swapped: ``squatt``, ``benhc``) and
no other word the grammar knows is as near. A write built on a correction that is not sure is
asked back as a question ("Did you mean: …?") with the corrected sentence as its chip; a read goes
ahead. Measured on the evals' sentences (paraphrases, unseen dev halves, lead sets): their 7
corrections, in 6 sentences ("chnage", "deadlfits", "postpne", "tomorow's", "dumbell", "workuot"),
are all one edit with no rival, so none is asked back and every one passes; a correction two edits
away ("renmea") or with a rival as near ("squatz": squat, squats) is what the question is for.
A word of everyday English is not a typo: "chest supported rows" must not become "chest sorted
rows" because the grammar knows "sorted" and not "supported". Such a word is only replaced by a
sure correction (an autocorrected "squads" is still "squats"). Which words are English is read
from pyspellchecker's English word frequencies (a word used ``COMMON`` times or more in its corpus),
loaded once a process (about 0.3 s) at the first word the grammar doesn't know.
``coach/llm/OFFLINE_COMMANDS.md`` explains it for people; ``tests/llm/test_offline_ties.py`` holds
the cases."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA
from spellchecker import SpellChecker

WORDS = re.compile(r"[A-Za-z][A-Za-z'\-]+")
# Endings that make another form of a word ("benched"), not a typo of it.
_INFLECTED = re.compile(r"e?d|ing|ers?")
SIMILAR = 80  # rapidfuzz ratio a correction needs
SHORTEST = 5  # shorter words have too many near neighbours to correct
# How often a word must be used in pyspellchecker's English corpus to be a word, not a typo: the
# evals' typos ("dumbell", "tomorow", "postpne", "deadlfits") are used 0 times, "supported" 10,915.
COMMON = 100


@functools.cache
def _english() -> Any:
    return SpellChecker(language="en").word_frequency


def is_english(word: str) -> bool:
    """Whether ``word`` (lower case) is a word of everyday English."""
    return _english()[word] >= COMMON


@dataclass(frozen=True)
class Fix:
    """One corrected word: as typed (``said``), as the grammar knows it (``meant``), where it
    stands in the corrected text, and whether the correction is sure (see the module)."""

    said: str
    meant: str
    start: int
    end: int
    sure: bool


@dataclass(frozen=True)
class Corrected:
    """A text with its misspelt words corrected, and the corrections."""

    text: str
    fixes: tuple[Fix, ...] = ()

    @property
    def sure(self) -> bool:
        return all(fix.sure for fix in self.fixes)

    def part(self, start: int, end: int) -> Corrected:
        """The words from ``start`` to ``end``, with the corrections among them."""
        return Corrected(
            self.text[start:end],
            tuple(
                replace(fix, start=fix.start - start, end=fix.end - start)
                for fix in self.fixes
                if fix.start >= start and fix.end <= end
            ),
        )

    def original(self, start: int, end: int) -> str:
        """The words the athlete typed where the corrected text has ``text[start:end]``."""
        out, at = [], start
        for fix in self.fixes:
            if fix.end <= start or fix.start >= end:
                continue
            out.append(self.text[at : fix.start])
            out.append(fix.said)
            at = fix.end
        out.append(self.text[at:end])
        return "".join(out)


def _sure(word: str, meant: str, candidates: list[str]) -> bool:
    """One edit away (a transposition counting one), and no other known word as near."""
    distance = OSA.distance(word, meant)
    if distance > 1:
        return False
    rivals = process.extract(word, candidates, scorer=OSA.distance, score_cutoff=distance, limit=2)
    return [r[0] for r in rivals] == [meant]


def correct(text: str, known: Iterable[str]) -> Corrected:
    """``text`` with each word of five letters or more that isn't ``known`` replaced by the
    nearest known word (rapidfuzz ratio ≥ 80), unless the typed word is only another form of it
    ("benched" of "bench": another form may mean another thing)."""
    words = set(known)
    candidates = sorted(words)
    fixes: list[Fix] = []
    out: list[str] = []
    at = 0
    shift = 0
    for m in WORDS.finditer(text):
        word = m.group(0)
        lower = word.lower()
        if len(word) < SHORTEST or lower in words:
            continue
        best = process.extractOne(lower, candidates, scorer=fuzz.ratio, score_cutoff=SIMILAR)
        if not best or _INFLECTED.fullmatch(lower.removeprefix(best[0])):
            continue
        meant = best[0]
        sure = _sure(lower, meant, candidates)
        if not sure and is_english(lower):
            continue
        out.append(text[at : m.start()])
        start = m.start() + shift
        fixes.append(Fix(word, meant, start, start + len(meant), sure))
        out.append(meant)
        shift += len(meant) - len(word)
        at = m.end()
    out.append(text[at:])
    return Corrected("".join(out), tuple(fixes))


def originals(result: Any, corrected: Corrected) -> dict[str, str]:
    """The words the athlete typed in each wildcard slot (their spelling, before any typo
    correction)."""
    out = {}
    for name, entity in result.entities.items():
        if not entity.is_wildcard:
            continue
        span = entity.text_span
        if span is None:
            at = corrected.text.find(str(entity.text))
            span = (at, at + len(str(entity.text))) if at >= 0 else None
        said = corrected.original(*span) if span else str(entity.text)
        out[name] = said.strip().strip("\"'").strip()
    return out
