"""What the engine and the chat need of the families, found by discovery: the plan a conversation
is about (``plan()``), the plan's adjustments (``adjustments()``), the preview's what-if
(``whatif()``), and every family's demo data, notices and eval fixtures (``declared("DEMO")``,
``"NOTICES"``, ``"EVAL"``).

As ``get_user_model()`` gives the user model named by ``AUTH_USER_MODEL``, ``plan_model()`` gives
the model named by ``settings.SPOTTER_PLAN_MODEL`` (the FK of ``chat.Conversation.program`` reads
the same setting; its migrations keep the model they were made with, so swapping the plan model
is a new app's migration, as for a custom user model). Everything else the chat needs of a plan is
declared by the family that provides it, in its ``tools`` module (the module the registry
already discovers, ``coach.discovery``):

* ``PLAN``: an object (a module will do) with ``newest(athlete)`` (the athlete's plans, newest
  first, as a queryset), ``current(athlete)`` (the newest or None), ``lock(plan)`` (``SELECT … FOR
  UPDATE`` of its row, returned with its ``version`` current; None when it is gone),
  ``version(plan)`` (its version now, read without a lock: previews), ``recording(plan, *, actor,
  via, summary, source)`` (a context manager that locks the row on entry and records what its
  block changes as the family's own record, one part of the journal's change set; its handle's
  ``version`` is the locked row's, and on exit the settled one when ``revision`` is not None),
  ``version_key(plan)`` (a string that changes whenever the plan does), ``week_panel(plan, *, today, week_number)`` (the context of the chat's week
  panel), ``summary(*, program, today, detail)`` and ``SUMMARY_DETAILS`` (the prompt's compact
  summary, richest level first), ``session(plan, pk)`` (a session of that plan with its week, or
  None); for the benchmarks ``bulk(*, athlete, weeks, sessions, exercises, …)`` (a synthetic plan),
  ``export(plan)`` (as JSON) and ``week_text(plan, *, position, today)``.
* ``ADJUSTMENTS``: ``today(athlete)``, ``missed_summary``, ``missed_sessions``, ``realign_calls``,
  ``lighter_calls``, ``move_calls`` (the calendar's drag), ``MIN_DAYS``, ``MAX_DAYS``
  (``chat.plan_actions``); their errors are
  ``PlanAdjustError`` below, so the chat can catch them without naming the family.
* ``WHATIF``: ``key_dates(ctx)``, ``form(ctx, dates)`` and optionally ``projection(ctx, dates)``
  (fitness, fatigue and form; ``coach.whatif``).
* ``DEMO``: a callable ``(seed: DemoSeed) -> None`` per family, run in ``INSTALLED_APPS`` order by
  ``seed_demo`` (the family that makes the demo people goes first and sets ``seed.people``).
* ``NOTICES``: objects with ``due(now)``, ``claim(due)``, ``athlete(due)``, ``label(due)``,
  ``text(due)`` and ``model_text(due)``, posted in the athlete's chat by ``chat.reminders``.
* ``NAV``: the family's pages in the site's menu, ``(label, URL name)`` pairs
  (``chat.context_processors``); ``PANEL``: the same pairs, linked under the week in the chat's
  panel.
* ``SLOTS``: ``{slot: template}``, the templates a family
  adds to a shared page (the chat's message box is ``"composer"``), rendered by ``{% slot %}``
  (``coach.templatetags.slots``).
* ``EVAL``: a family's part of the coach's evaluation scenarios (``chat.evals``): the ``KEYS`` of
  ``[fixture]`` it reads, ``build(world, spec)``, ``snapshot(world)`` (what a message step must
  not change), ``PLACEHOLDERS`` (kind → ``resolve(ctx, expr)``), ``EXPECTS`` (expectation key →
  ``value_at(world, path, *, lookup, missing)``) and, for the plan's family, ``edit(world, step)``
  (a coach's edit while the card is open).

``PLAN``, ``ADJUSTMENTS`` and ``WHATIF`` are declared by at most one family each; two are an
``ImproperlyConfigured`` error, none is ``LookupError`` for ``plan()`` and ``adjustments()``
(``whatif()`` is then None: a preview without a projection).

The engine (``coach.engine``) locks, reads and records a batch's plan through ``held()``: the
``PLAN`` declaration resolved once, when ``coach.registry`` discovers the families (and again on
each ``registry.discover()``), so the Apply path doesn't search the installed apps; None when no
family declares it (a batch then has no plan to lock).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal

from .discovery import declarations


class PlanAdjustError(ValueError):
    """Nothing to realign or lighten, or a length out of bounds; the message is for a person."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass
class DemoSeed:
    """What ``seed_demo`` passes each family's ``DEMO``: the day, the command's options, the
    people the first family made (``athlete``, ``coach``, …), the subject it built, and the lines
    the command prints (``lines`` in order, then ``closing``; the ``created`` ones among ``lines``
    stand out, as news)."""

    today: datetime.date
    options: dict[str, Any] = field(default_factory=dict)
    people: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    closing: list[str] = field(default_factory=list)
    created: set[str] = field(default_factory=set)


# Sent by ``seed_demo`` inside its transaction once every family's ``DEMO`` has run, with the
# ``seed``: an app that is no family (the coach's roster) adds its demo on it, as a receiver.
demo_seeded = Signal()


def declared(name: str) -> list[Any]:
    """The value of ``name`` in every family's tools module that has it, in INSTALLED_APPS order
    (a tuple or list value is spread)."""
    found: list[Any] = []
    for module in declarations():
        value = getattr(module, name, None)
        if value is None:
            continue
        found.extend(value if isinstance(value, tuple | list) else [value])
    return found


def _one(name: str) -> Any | None:
    found = declared(name)
    if len(found) > 1:
        raise ImproperlyConfigured(f"Two families declare {name}; one provides it.")
    return found[0] if found else None


def plan() -> Any:
    """The ``PLAN`` declaration of the family that provides the plan."""
    found = _one("PLAN")
    if found is None:
        raise LookupError("No installed family declares PLAN.")
    return found


# The PLAN declaration as ``resolve`` found it (``held``); empty until the registry's discovery.
_HELD: list[Any] = []


def resolve() -> None:
    """Find the ``PLAN`` declaration again (``coach.registry.discover`` calls this)."""
    _HELD[:] = [_one("PLAN")]


def held() -> Any | None:
    """The ``PLAN`` declaration as last resolved (None when no family declares it)."""
    if not _HELD:
        resolve()
    return _HELD[0]


def adjustments() -> Any:
    """The ``ADJUSTMENTS`` declaration (realign, lighter days)."""
    found = _one("ADJUSTMENTS")
    if found is None:
        raise LookupError("No installed family declares ADJUSTMENTS.")
    return found


def whatif() -> Any | None:
    """The ``WHATIF`` declaration, or None when no family projects a preview."""
    return _one("WHATIF")


def slots(name: str) -> list[str]:
    """The templates the families add to the slot ``name``, in ``INSTALLED_APPS`` order."""
    return [found[name] for found in declared("SLOTS") if name in found]


def plan_model() -> type:
    """The model ``settings.SPOTTER_PLAN_MODEL`` names ("app_label.Model")."""
    try:
        return apps.get_model(settings.SPOTTER_PLAN_MODEL, require_ready=False)
    except (ValueError, LookupError) as exc:
        raise ImproperlyConfigured(
            f"SPOTTER_PLAN_MODEL refers to {settings.SPOTTER_PLAN_MODEL!r}, not an installed model."
        ) from exc
