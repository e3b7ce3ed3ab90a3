"""The sentences a tool declares on its own spec (``ToolSpec.phrases``: ``"call me {name}"``), as
one more ``Language`` for the one matcher (``understand``): each phrase is a template whose
``{slot}`` takes free words as that argument (a whole number is passed as a number). A family
whose tools need lists, questions or references declares a ``tools/language.py`` instead; simple
tools need no more than their phrases, and are understood the moment they are declared."""

from __future__ import annotations

import re
from typing import Any

from django.apps import apps

from coach.registry import REGISTRY

from .grammar import Parsed
from .language import Intent, Language, Slots

_SLOT = re.compile(r"\{(\w+)\}")


def _value(raw: Any) -> Any:
    text = str(raw).strip().strip('"')
    return int(text) if text.isdigit() else text


def _builder(tool: str, slots_of: dict[str, str]):
    def build(slots: Slots) -> Parsed:
        arguments = {
            arg: _value(slots.get(slot)) for slot, arg in slots_of.items() if slot in slots
        }
        return Parsed(tool, arguments, slots.text)

    return build


def phrase_owners() -> dict[str, str]:
    """Each phrase intent's family: the name of the app whose module declares its tool."""
    owners = {}
    for spec in REGISTRY.values():
        if spec.phrases:
            config = apps.get_containing_app_config(spec.execute.__module__)
            owners[f"{spec.name}.phrases"] = str(config.verbose_name) if config else spec.name
    return owners


def phrase_language() -> Language:
    """Every registered tool's phrases, each slot a wildcard of its own (``<tool>__<argument>``,
    so no tool's slot meets a family's list of the same name)."""
    intents, wildcards = [], []
    for spec in REGISTRY.values():
        if not spec.phrases:
            continue
        names = {arg: f"{spec.name}__{arg}" for p in spec.phrases for arg in _SLOT.findall(p)}
        wildcards.extend(names.values())
        sentences = tuple(_SLOT.sub(rf"{{{spec.name}__\1}}", p) for p in spec.phrases)
        intents.append(
            Intent(
                f"{spec.name}.phrases",
                sentences,
                build=_builder(spec.name, {v: k for k, v in names.items()}),
                examples=tuple(p for p in spec.phrases if "{" not in p),
            )
        )
    return Language(intents=tuple(intents), wildcards=tuple(dict.fromkeys(wildcards)))
