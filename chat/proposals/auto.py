"""Writing at once (seed 004): a low or high change that needs no confirmation (the wellness logs),
stated by the athlete in their own words and past the guardrails, is applied in the same turn.

It still goes through the spine: a batch is created and applied at once
(``lifecycle.apply_at_once``), in the caller's transaction, one change set of the journal, with an ``auto_applied`` decision (the event line the athlete sees, with Undo) and
audit records that move proposed → applied. A call that fails its validation writes nothing (the
engine rolls the whole batch back) and is refused like any invalid proposal.
"""

from __future__ import annotations

from typing import Any

from coach import engine
from coach.registry import get_tool
from coach.toolcalls import ToolCall

from .. import audit
from ..models import PendingToolBatch
from .core import Kind, Record, record_decision

APPLIED_AT_ONCE = "Written at once (the athlete stated it; they can undo it):"


def may_apply_at_once(calls: list[ToolCall]) -> bool:
    """Every call is a write the registry lets skip the athlete's Apply."""
    specs = [get_tool(c.name) for c in calls]
    return bool(calls) and all(
        s is not None and s.kind == "write" and not s.requires_confirmation for s in specs
    )


def record(*, batch: PendingToolBatch, calls: list[ToolCall], result: engine.BatchResult) -> None:
    """After the proposals were recorded: the decision (its event line shows Undo; it holds the
    journal's change set that Undo reverts) and the audit records' move to applied, by the athlete
    whose words it logged."""
    athlete = batch.conversation.athlete
    record_decision(batch, kind=Kind.AUTO_APPLIED, actor=athlete, edits=[], applied=result)
    audit.transition(
        batch=batch, status=Record.APPLIED, by=athlete, results=batch.results, applied_calls=calls
    )


def answer(result: dict[str, Any]) -> str:
    return f"{APPLIED_AT_ONCE} {result.get('summary', '')}".strip()
