"""What the roster finds and how it weighs it: pure functions and plain data, no ORM.

* ``Finding``: one thing a family (or the chat) found about an athlete, before it is a ``Flag``.
* ``Limits``: the thresholds, read from settings (``ROSTER_*``, config/settings/base.py).
* ``mentions``: the pain, injury and illness words in a note, with the sentence around them. It
  only points at the athlete's words; it never names a condition.
* ``need_score``: how much an athlete needs the coach, the roster's sort key (docs/coaching.md).
* ``sparkline``: a small inline SVG of a series (form over 14 days).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.html import escape

from .models import FlagKind

# Event kinds rest on one record and stay open until the coach acts; condition kinds hold while a
# state lasts and clear themselves (a recorded action) once it no longer holds.
EVENT_KINDS = frozenset({FlagKind.CRISIS, FlagKind.PAIN})

# The weight of an open flag of each kind in ``need_score``: a crisis outweighs everything else.
KIND_WEIGHTS = {
    FlagKind.CRISIS: 1000,
    FlagKind.PAIN: 40,
    FlagKind.MISSED: 25,
    FlagKind.INACTIVE: 25,
    FlagKind.FORM: 20,
    FlagKind.LOAD_JUMP: 15,
    FlagKind.READINESS: 15,
    FlagKind.REVIEW: 10,
}
WAITING_WEIGHT = 5  # each proposal waiting for the coach
UNREAD_WEIGHT = 2  # each unread message (when the inbox app is installed)
RED_WEEK_WEIGHT = 5  # this week's compliance red


@dataclass(frozen=True)
class Finding:
    athlete_id: int
    kind: str
    evidence_key: str
    summary: str
    occurred_on: datetime.date
    source: str = ""
    excerpt: str = ""
    link: str = ""


@dataclass(frozen=True)
class Limits:
    missed_sessions: int = 2  # missed in the last ``missed_days`` days
    missed_days: int = 7
    form_below: float = -30.0
    load_jump_percent: float = 30.0
    readiness_below: float = 2.5  # on 1 (poor) to 5 (great)
    readiness_days: int = 3
    review_hours: float = 24.0
    inactive_days: int = 7
    note_days: int = 14  # how far back notes and messages are read for pain words
    pain_words: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            missed_sessions=settings.ROSTER_MISSED_SESSIONS,
            missed_days=settings.ROSTER_MISSED_DAYS,
            form_below=settings.ROSTER_FORM_BELOW,
            load_jump_percent=settings.ROSTER_LOAD_JUMP_PERCENT,
            readiness_below=settings.ROSTER_READINESS_BELOW,
            readiness_days=settings.ROSTER_READINESS_DAYS,
            review_hours=settings.ROSTER_REVIEW_HOURS,
            inactive_days=settings.ROSTER_INACTIVE_DAYS,
            note_days=settings.ROSTER_NOTE_DAYS,
            pain_words=tuple(settings.ROSTER_PAIN_WORDS),
        )


def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)


_SENTENCE = re.compile(r"[^.!?\n]*[.!?\n]?")
EXCERPT_CHARS = 280


def mentions(text: str, words: tuple[str, ...]) -> tuple[list[str], str]:
    """``(the words found, lower-cased, in order; the sentences holding them)``; nothing found
    gives ``([], "")``. The excerpt is bounded to ``EXCERPT_CHARS``."""
    if not text or not words:
        return [], ""
    pattern = _pattern(words)
    found: list[str] = []
    sentences: list[str] = []
    for sentence in _SENTENCE.findall(text):
        hits = [hit.group(0).lower() for hit in pattern.finditer(sentence)]
        if hits:
            found += [hit for hit in hits if hit not in found]
            sentences.append(sentence.strip())
    excerpt = " … ".join(sentences)
    if len(excerpt) > EXCERPT_CHARS:
        excerpt = excerpt[: EXCERPT_CHARS - 1] + "…"
    return found, excerpt


def pain_finding(
    *,
    athlete_id: int,
    key: str,
    text: str,
    source: str,
    on: datetime.date,
    link: str,
    limits: Limits,
) -> Finding | None:
    """A ``PAIN`` finding when ``text`` mentions one of the words, else None."""
    words, excerpt = mentions(text, limits.pain_words)
    if not words:
        return None
    return Finding(
        athlete_id=athlete_id,
        kind=FlagKind.PAIN,
        evidence_key=key,
        summary=f"Mentions {', '.join(repr(w) for w in words)} in a {source}",
        occurred_on=on,
        source=source,
        excerpt=excerpt,
        link=link,
    )


def need_score(*, open_kinds: list[str], waiting: int, unread: int, week_colour: str | None) -> int:
    """How much the athlete needs the coach: each open flag weighs by its kind (``KIND_WEIGHTS``),
    each waiting proposal ``WAITING_WEIGHT``, each unread message ``UNREAD_WEIGHT``, and a red
    week so far ``RED_WEEK_WEIGHT``. Ties sort by name."""
    score = sum(KIND_WEIGHTS.get(kind, 10) for kind in open_kinds)
    score += WAITING_WEIGHT * waiting + UNREAD_WEIGHT * unread
    if week_colour == "red":
        score += RED_WEEK_WEIGHT
    return score


def percent(done: int, planned: int) -> int | None:
    """``done`` as a whole percentage of ``planned``; None when nothing was planned."""
    if planned <= 0:
        return None
    return round(done * 100 / planned)


def sparkline(values: list[float | None], *, width: int = 112, height: int = 24) -> str:
    """An inline SVG polyline of ``values`` (None: a gap), with the zero line dashed; empty text
    when there is nothing to draw. Numbers only: nothing of the athlete's text goes in."""
    known = [v for v in values if v is not None]
    if len(known) < 2:
        return ""
    low, high = min([*known, 0.0]), max([*known, 0.0])
    span = (high - low) or 1.0
    step = width / (len(values) - 1)

    def y(value: float) -> float:
        return round(height - 2 - (value - low) / span * (height - 4), 1)

    points = " ".join(f"{round(i * step, 1)},{y(v)}" for i, v in enumerate(values) if v is not None)
    last = known[-1]
    colour = "#b00" if last < settings.ROSTER_FORM_BELOW else "#2a6"
    zero = y(0.0)
    title = escape(f"form {known[0]:+.0f} → {last:+.0f}")
    return (
        f'<svg class="spark" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{title}"><title>{title}</title>'
        f'<line x1="0" y1="{zero}" x2="{width}" y2="{zero}" stroke="#bbb" stroke-dasharray="2 2"/>'
        f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{points}"/></svg>'
    )
