"""The training family's part of the coach's evaluation scenarios (``EVAL`` in
``training.tools``, found by ``coach.plan``; ``chat.evals`` plays them): the ``[fixture]`` key
``training = true`` adds the demo's 12 weeks of activities and sleep up to yesterday, and a
message step must add no activity."""

from __future__ import annotations

from typing import Any

from .demo import seed_training_demo
from .models import Activity

KEYS = frozenset({"training"})
PLACEHOLDERS: dict[str, Any] = {}
EXPECTS: dict[str, Any] = {}


def build(world: Any, spec: dict[str, Any]) -> None:
    if spec.get("training"):
        seed_training_demo(athlete=world.athlete, today=world.today)


def snapshot(world: Any) -> int:
    return Activity.all_objects.filter(athlete=world.athlete).count()
