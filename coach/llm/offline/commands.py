"""The offline coach's command parser: one plain-language command in, one tool call out, and the
help text that lists the commands. It names no family and no tool: every command is a family's
(``families``: each app's ``tools/offline.py``), tried in INSTALLED_APPS order (those marked
``first`` before the others). Everyday sentences, the tools' ``phrases`` included, are
``understand``'s."""

from __future__ import annotations

import re

from coach.registry import REGISTRY

from .families import declared
from .grammar import Parsed, with_replies


def parse_command(command: str) -> Parsed | None:
    """One command → one tool call, ``None`` if it isn't a command. Raises ``CommandError`` for a
    recognised but unusable command (its message says what to type)."""
    families = declared()
    for family in (*(f for f in families if f.first), *(f for f in families if not f.first)):
        if parsed := family.parse(command):
            return parsed
    return None


def split_commands(message: str) -> list[str]:
    """Split a message on ``;``, new lines, and ``and``/``then`` followed by a command verb (the
    verbs the families' commands start with)."""
    verbs = "|".join(dict.fromkeys(verb for family in declared() for verb in family.verbs))
    ahead = rf"\s*,?\s+(?:and|then|and then)\s+(?=(?:{verbs})\b)" if verbs else r"(?!)"
    parts = re.split(rf"\s*;\s*|\s*\n\s*|{ahead}", message.strip(), flags=re.IGNORECASE)
    return [p.strip().rstrip(".!").strip() for p in parts if p and p.strip().rstrip(".!").strip()]


def at_once() -> set[str]:
    """The writes the registry lets through without the athlete's Apply (stated logs)."""
    return {
        spec.name
        for spec in REGISTRY.values()
        if spec.kind == "write" and not spec.requires_confirmation
    }


def help_text(*, opening: str = "") -> str:
    lines = [opening] if opening else []
    lines.append(
        "I'm the offline coach: no AI model is configured, so I understand these commands "
        "(numbers are week.session.exercise, e.g. 1.2.3 is week 1, session 2, exercise 3):"
    )
    families = declared()
    for family in families:
        if not family.heading:
            lines.extend(
                f"- {label + ': ' if label else ''}{example}" for label, example in family.help
            )
    for family in families:
        if family.heading:
            lines.append(family.heading)
            lines.extend(f"- {label}: {example}" for label, example in family.help)
    lines.append(
        'Join several with ";" or "and". Every change waits for you to press Apply Changes'
        + (
            ", except the logs you state yourself, which are logged at once with Undo."
            if at_once()
            else "."
        )
    )
    examples = [example for family in families for example in family.examples]
    return with_replies("\n".join(lines), ["help", *examples])
