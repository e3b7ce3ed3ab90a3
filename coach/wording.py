"""The engine's error messages in the athlete's words.

``ToolError.message`` is written for a person but names the precise argument (``newPosition``,
``updates.scheduledDate``) and sometimes a tool by its name, because the model needs
them to correct its call. ``athlete_words`` turns such a message into what an athlete reads: the
argument as words ("the new position" → "new position", "date"), the tool by its display name.
Only athlete-facing text goes through it; the model keeps the precise message.
"""

from __future__ import annotations

import re

from .field_words import FIELD_WORDS, field_words
from .registry import REGISTRY

# A dotted argument path (``updates.scheduledDate``, ``weeks.0.startDate``) or a camelCase name.
_PATH = re.compile(r"\b[a-z][A-Za-z]*(?:\.(?:\d+|[a-z][A-Za-z]*))+\b|\b[a-z]+[A-Z][A-Za-z]*\b")
_TOOL = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, REGISTRY), key=len, reverse=True)) + r")\b"
)
_JARGON = (
    ("an ISO date like", "a date like"),
    ('or "end"', 'or "at the end"'),
    (" must be an object", " is missing its details"),
)


_field = field_words


def _path(match: re.Match[str]) -> str:
    text = match.group(0)
    if "." not in text:
        return _field(text)
    segments = [s for s in text.split(".") if not s.isdigit()]
    last = segments[-1]
    # Only argument paths: "e.g." and "1.2.3" never reach here (no camelCase or known field).
    if last in FIELD_WORDS or any(c.isupper() for c in last) or segments[0] in FIELD_WORDS:
        return _field(last)
    return text


def _tool(match: re.Match[str]) -> str:
    spec = REGISTRY[match.group(1)]
    return spec.label[:1].lower() + spec.label[1:]


def athlete_words(message: str) -> str:
    """``"updates.scheduledDate must be an ISO date like 2026-11-02"`` → "Date must be a date like
    2026-11-02"; a tool's name → its display name, first letter lower-cased."""
    text = re.sub(r"\bwhile running (\w+_\w+)", r"while making the change (\1)", message or "")
    text = re.sub(r"^updates:\s*", "", text)
    text = _TOOL.sub(_tool, text)
    text = _PATH.sub(_path, text)
    for jargon, words in _JARGON:
        text = text.replace(jargon, words)
    # A sentence that now starts with a field's words starts with a capital.
    starts = "|".join(
        re.escape(w) for w in sorted(set(FIELD_WORDS.values()), key=len, reverse=True)
    )
    text = re.sub(
        rf"(^|(?<!\be\.g)[.!?]\s+)({starts})\b",
        lambda m: m.group(1) + m.group(2).capitalize(),
        text,
    )
    return text[:1].upper() + text[1:]
