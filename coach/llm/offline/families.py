"""The offline coach's commands that the families declare: each family app may have a
``tools/offline.py`` whose ``COMMANDS`` (a ``Commands``) says how one typed command becomes one of
its tool calls and how its commands read in the help. The offline coach finds them in
INSTALLED_APPS order, as the registry finds the tools, and names no family."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module

from django.apps import apps
from django.utils.module_loading import module_has_submodule

from coach.llm.base import Turn

from .grammar import Parsed, ReplyAnswer


@dataclass(frozen=True)
class Commands:
    """A family's offline commands. ``parse`` gets the command as typed and returns its call,
    ``None`` when it isn't one of the family's (or raises ``CommandError`` to say what to type);
    ``first``: tried before the other families' commands (whose wider patterns would take them);
    ``heading``: its own part of the help ("" lists its commands right under the opening line);
    ``verbs``: the words its commands start with, so that "… and VERB …" starts a new command;
    ``examples``: commands offered as suggested replies under the help;
    ``answer``: the suggested replies it understands (given the reply and the conversation's
    turns, the ``ReplyAnswer``, or None when the reply isn't one of its)."""

    parse: Callable[[str], Parsed | None]
    help: Sequence[tuple[str, str]]
    heading: str = ""
    first: bool = False
    verbs: Sequence[str] = ()
    examples: Sequence[str] = ()
    answer: Callable[[str, Sequence[Turn]], ReplyAnswer | None] | None = None


@functools.cache
def declared() -> tuple[Commands, ...]:
    """Every installed app's ``tools.offline.COMMANDS``, in INSTALLED_APPS order (looked up on
    first use, when every app is loaded; ``declared.cache_clear()`` looks again)."""
    found = []
    for config in apps.get_app_configs():
        if not module_has_submodule(config.module, "tools"):
            continue
        tools = import_module(f"{config.name}.tools")
        if not module_has_submodule(tools, "offline"):
            continue
        commands = getattr(import_module(f"{config.name}.tools.offline"), "COMMANDS", None)
        if commands is not None:
            found.append(commands)
    return tuple(found)
