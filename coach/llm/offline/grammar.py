"""What every family's offline commands share: a command's call (``Parsed``), its error
(``CommandError``), the answer to a suggested reply (``ReplyAnswer``), and the engine's vocabulary
as commands write it (day names, positions, cardio types and their aliases, positional refs such as
``week 1 session 2`` → ``session 1.2``). It names no family and no tool: each family's commands are
in its app (``<app>/tools/offline.py``, found by ``families``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from coach import vocabulary

CARDIO_TYPES = tuple(vocabulary.CARDIO_TYPES)
CARDIO_ALIASES = {
    "zone 2": "zone2",
    "z2": "zone2",
    "zone2": "zone2",
    "interval": "intervals",
    "intervals": "intervals",
    "sweet spot": "sweetspot",
    "sweetspot": "sweetspot",
    "threshold": "threshold",
    "vo2max": "vo2max",
    "vo2 max": "vo2max",
}
DEFAULT_LOAD = "bodyweight"


class CommandError(ValueError):
    """A command that was recognised but is incomplete or out of range."""


@dataclass
class Parsed:
    name: str
    arguments: dict[str, Any]
    description: str


@dataclass
class ReplyAnswer:
    """What the offline coach does with a suggested reply: say ``text``, run ``reads`` (read tool
    calls whose answers are shown), or parse ``retry`` (an earlier message) as a new command."""

    text: str = ""
    reads: list[Parsed] = field(default_factory=list)
    retry: str = ""


# --- helpers -------------------------------------------------------------------------------------


def normalise_refs(text: str) -> str:
    """``week 1 session 2 exercise 3`` / ``w1 s2 e3`` → ``exercise 1.2.3``; same for sessions."""
    text = re.sub(
        r"\b(?:exercise\s+)?(?:week|w)\s*(\d+)[,\s]+(?:session|day|s)\s*(\d+)[,\s]+(?:exercise|e)\s*(\d+)\b",
        r"exercise \1.\2.\3",
        text,
        flags=re.IGNORECASE,
    )
    text = re.sub(
        r"\b(?:session\s+)?(?:week|w)\s*(\d+)[,\s]+(?:session|s)\s*(\d+)\b",
        r"session \1.\2",
        text,
        flags=re.IGNORECASE,
    )
    return text


def parse_position(raw: str | None, default: int | str = "end") -> int | str:
    if raw is None:
        return default
    return "end" if raw.lower() == "end" else int(raw)


def parse_day(raw: str | None) -> str | None:
    if raw is None:
        return None
    index = vocabulary.weekday_index(raw) if len(raw) >= 3 else None
    if index is not None:
        return vocabulary.DAY_NAMES[index]
    raise CommandError(f'"{raw}" is not a day of the week (Monday to Sunday).')


def make_cardio(kind: str, minutes: str, modality: str | None) -> dict[str, Any]:
    cardio_type = CARDIO_ALIASES.get(kind.lower().strip())
    if cardio_type is None:
        raise CommandError(f'"{kind}" is not a cardio type; use one of {", ".join(CARDIO_TYPES)}.')
    block: dict[str, Any] = {"type": cardio_type, "duration": int(minutes)}
    if modality and modality.strip():
        block["modality"] = modality.strip().title()
    return block


# --- the grammar ---------------------------------------------------------------------------------


def with_replies(text: str, replies: list[str]) -> str:
    """Seed 000's format: the text, a ``---`` line, one suggested reply per line."""
    return text + "\n---\n" + "\n".join(replies)
