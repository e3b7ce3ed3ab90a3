"""The world a scenario starts from, built afresh for every run (inside the run's transaction).

A fresh athlete (and their coach) each time, so nothing from another run, or from the database
the command runs on, leaks in. The ``[fixture]`` table's keys belong to the families: each family
that takes part declares ``EVAL`` (``coach.plan``; for Spotter ``programs.evals``: the program,
``start``, ``weeks``, ``days``, ``name``; ``training.evals``: ``training``; ``library.evals``:
``library``) with the ``KEYS`` it reads and a ``build(world, spec)`` run in ``INSTALLED_APPS``
order. The plan's family sets ``world.program``, which the conversation is about.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from coach.plan import declared

from ..models import Conversation
from .templates import resolve_date


class FixtureError(ValueError):
    pass


@dataclass
class World:
    athlete: Any
    coach: Any
    today: datetime.date
    program: Any = None
    conversation: Conversation | None = None

    def date(self, expr: str) -> datetime.date:
        return resolve_date(expr, self.today)


def families() -> list[Any]:
    """Every family's ``EVAL`` declaration, in INSTALLED_APPS order."""
    return declared("EVAL")


def fixture_keys() -> frozenset[str]:
    return frozenset().union(*(family.KEYS for family in families()))


def build(spec: dict[str, Any], *, today: datetime.date | None = None) -> World:
    keys = fixture_keys()
    unknown = set(spec) - keys
    if unknown:
        raise FixtureError(f"Unknown fixture keys {sorted(unknown)}; use {sorted(keys)}.")
    today = today or timezone.localdate()
    tag = uuid.uuid4().hex[:10]
    users = get_user_model().objects
    athlete = users.create_user(username=f"eval-athlete-{tag}", first_name="Alex")
    coach = users.create_user(username=f"eval-coach-{tag}", first_name="Casey", is_staff=True)
    world = World(athlete=athlete, coach=coach, today=today)
    for family in families():
        try:
            family.build(world, spec)
        except ValueError as exc:
            raise FixtureError(str(exc)) from exc
    if world.program is None:
        raise FixtureError("No family built the plan the conversation is about.")
    world.conversation = Conversation.objects.create(athlete=athlete, program=world.program)
    return world


def snapshot(world: World) -> tuple[Any, ...]:
    """What "nothing was written" compares: each family's own state (the program and its
    sessions, the athlete's library workouts, their activities)."""
    return tuple(family.snapshot(world) for family in families())


def edit(world: World, step: Any) -> None:
    """A ``coach`` step, by the family that declares ``edit`` (the plan's)."""
    for family in families():
        if getattr(family, "edit", None) is not None:
            family.edit(world, step)
            return
    raise FixtureError("No family edits the plan for a coach step.")
