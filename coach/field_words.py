"""The tools' argument names as a person says them (``workingSets`` → "number of sets"): for the
athlete-facing words of errors (``coach.wording``) and of results (``Outcome.spoken``). Each family
declares the words of its own arguments (``FIELD_WORDS`` in its ``tools`` module); a name no family
declares is split at its capitals ("newPosition" → "new position"). Imports nothing of the engine,
so a tool module may use it."""

from __future__ import annotations

import re

# Filled in place by ``coach.registry.discover()`` from each family's ``FIELD_WORDS`` declaration
# (beside its ``TOOLS``): its arguments' names as a person says them.
FIELD_WORDS: dict[str, str] = {}
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def field_words(name: str) -> str:
    """An argument's name as a person says it: ``workingSets`` → "number of sets"."""
    return FIELD_WORDS.get(name) or _CAMEL.sub(" ", name).lower()
