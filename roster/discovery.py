"""How the roster reaches the families without naming one: each installed app may declare what
the coach's workspace needs of its data in a ``coaching`` module, found here as the access policy
finds ``access`` modules and the engine ``tools`` modules (``docs/coaching.md``).

A ``coaching`` module may declare any of:

* ``facts(athlete_ids, today) -> {athlete_id: {name: value}}``: the roster's columns, for every
  athlete at once in a fixed number of queries (the roster's query count must not grow with its
  athletes). The names the roster reads: ``program``, ``program_id``, ``week`` (current week's
  label), ``this_week`` and ``last4`` (``(done, planned)`` pairs), ``last_workout`` (a date),
  ``form`` (14 days of form, oldest first), ``readiness`` (7 days of 1–5 scores or None) and
  ``last_active`` (a date; the newest of all families' counts).
* ``findings(athlete_ids, today, limits) -> [roster.findings.Finding]``: what needs the coach.
* ``sections(athlete, today) -> [Section]``: parts of the coach's page about one athlete.
* ``compliance_colour(percent) -> "green" | "yellow" | "red"``: the bands of the family that owns
  compliance (one family declares it).
* ``DEMO_PARTS``: callables ``(seed) -> None`` the roster's demo runs (``roster.demo``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import Any

from django.apps import apps
from django.utils.module_loading import module_has_submodule

DECLARATIONS = "coaching"


@dataclass(frozen=True)
class Section:
    """One part of the coach's page about an athlete: a heading, a template and its context."""

    title: str
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    order: int = 50


@cache
def modules() -> tuple[ModuleType, ...]:
    """Every installed app's ``coaching`` module, in INSTALLED_APPS order."""
    found = []
    for config in apps.get_app_configs():
        if config.name != __package__ and module_has_submodule(config.module, DECLARATIONS):
            found.append(import_module(f"{config.name}.{DECLARATIONS}"))
    return tuple(found)


def declared(name: str) -> list[Callable[..., Any]]:
    """``name`` of every ``coaching`` module that declares it (a list or tuple is spread)."""
    found: list[Callable[..., Any]] = []
    for module in modules():
        value = getattr(module, name, None)
        if value is not None:
            found.extend(value if isinstance(value, tuple | list) else [value])
    return found


def one(name: str) -> Callable[..., Any] | None:
    found = declared(name)
    if len(found) > 1:
        raise LookupError(f"Two apps declare coaching.{name}; one provides it.")
    return found[0] if found else None
