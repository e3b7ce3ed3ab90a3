"""The families' rules for the dry run: what a change must not do silently, said as a warning on
the preview (the chat's card, the program editor's, the coach's calendar), never a refusal.

A family declares them as ``RULES`` in its ``tools`` module (``coach.plan.declared``), each an
object with ``before(ctx)`` (what the rule needs of the state before the run: read before it) and
``warnings(ctx, before) -> list[str]`` (read inside the run, before it is rolled back: the
warnings, in words, for what the change newly does). ``coach.engine.preview_calls`` runs them
around its run, as it reads the what-if (``coach.whatif``); an apply runs none (the athlete or the
coach has read the warnings on the preview). The engine names no rule and no family: for Spotter,
the training family's days the athlete can't train on (``training.availability``).
"""

from __future__ import annotations

from typing import Any

from .plan import declared
from .tools.base import ToolContext

Before = list[tuple[Any, Any]]


def before(ctx: ToolContext) -> Before:
    """Each declared rule with what it read before the run."""
    return [(rule, rule.before(ctx)) for rule in declared("RULES")]


def warnings(ctx: ToolContext, states: Before) -> list[str]:
    """The rules' warnings on the state the run left (call it inside the run's transaction)."""
    return [text for rule, state in states for text in rule.warnings(ctx, state)]
