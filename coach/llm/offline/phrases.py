"""The sentences tools declare (``ToolSpec.phrases``), matched when no command parser understood
a command: each phrase is a template, its words matched case-insensitively with any spacing and
each ``{slot}`` taking the rest of the words up to the next literal one, as that argument. A
number is passed as a number; the engine validates the call like any other."""

from __future__ import annotations

import functools
import re
from typing import Any

from coach.registry import REGISTRY

from .grammar import Parsed

_SLOT = re.compile(r"\{(\w+)\}")


@functools.cache
def _pattern(phrase: str) -> re.Pattern[str]:
    parts = []
    for i, piece in enumerate(_SLOT.split(phrase.strip())):
        if i % 2:
            parts.append(rf"(?P<{piece}>.+?)")
        else:
            parts.append(r"\s+".join(re.escape(word) for word in piece.split()))
    text = r"\s*".join(part for part in parts if part)
    return re.compile(text + r"[.!?]?", re.IGNORECASE)


def _value(raw: str) -> Any:
    text = raw.strip().strip('"')
    return int(text) if text.isdigit() else text


def match_phrase(command: str) -> Parsed | None:
    """The first tool (registry order) one of whose phrases the whole command matches."""
    text = command.strip()
    for spec in REGISTRY.values():
        for phrase in spec.phrases:
            if m := _pattern(phrase).fullmatch(text):
                arguments = {slot: _value(value) for slot, value in m.groupdict().items()}
                return Parsed(spec.name, arguments, text)
    return None
