"""Writes the tool-call audit log (``ToolCallRecord``). Called only by the lifecycle code: the agent
loop records reads and proposals as they happen, ``chat.proposals`` records every later transition,
each in the transaction of the change it records."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from coach.registry import get_tool
from coach.toolcalls import ToolCall

from .models import Conversation, Message, PendingToolBatch, ToolCallRecord
from .models.audit import MANY_CALLS_PER_TURN
from .storable import strip_nul

logger = logging.getLogger(__name__)

Status = ToolCallRecord.Status
# A proposal's record moves on only from these (a later decision never rewrites a final one).
LIVE = (Status.PROPOSED, Status.AWAITING_REVIEW, Status.FAILED, Status.STALE)


def _transition(status: str, by: Any = None) -> dict[str, Any]:
    return {
        "status": status,
        "at": timezone.now().isoformat(),
        "by": getattr(by, "username", None),
    }


def record_calls(
    *,
    conversation: Conversation,
    message: Message,
    calls: list[ToolCall],
    statuses: dict[str, str],
    results: dict[str, dict[str, Any]],
    usage: dict[str, Any],
    batch: PendingToolBatch | None = None,
    guardrails: dict[str, str] | None = None,
) -> None:
    """One record per call of a model response: reads (executed / read_failed) and writes
    (proposed / refused; ``guardrails``: the reason code of each call a guardrail refused)."""
    rows = []
    for call in calls:
        spec = get_tool(call.name)
        status = statuses[call.id]
        rows.append(
            ToolCallRecord(
                conversation=conversation,
                athlete_id=conversation.athlete_id,
                program_id=conversation.program_id,
                batch=batch if status == Status.PROPOSED else None,
                message=message,
                tool=(call.name or "(none)")[:100],
                call_id=call.id[:200],
                kind=spec.kind if spec is not None else ToolCallRecord.Kind.WRITE,
                category=spec.category if spec is not None else "",
                sensitivity=spec.sensitivity if spec is not None else "",
                arguments=strip_nul(call.arguments),
                raw_arguments=strip_nul(call.raw_arguments or "")[:10000],
                status=status,
                transitions=[_transition(status)],
                result=strip_nul(results.get(call.id, {})),
                guardrail=(guardrails or {}).get(call.id, ""),
                provider=usage.get("provider", ""),
                model=usage.get("model", ""),
                prompt_tokens=usage.get("prompt_tokens"),
                completion_tokens=usage.get("completion_tokens"),
                model_latency_ms=usage.get("latency_ms"),
            )
        )
    ToolCallRecord.objects.bulk_create(rows)


def flag_turn(*, message: Message) -> None:
    """Count every call the reply ``message`` made (all its model rounds) and flag the turn when
    there are more than ``MANY_CALLS_PER_TURN`` (seed 003's monitoring rule)."""
    records = ToolCallRecord.objects.filter(message=message)
    count = records.count()
    records.update(turn_call_count=count, many_calls=count > MANY_CALLS_PER_TURN)
    if count > MANY_CALLS_PER_TURN:
        logger.warning(
            "Reply %s: the model made %s tool calls for one message (more than %s)",
            message.pk,
            count,
            MANY_CALLS_PER_TURN,
        )


def transition(
    *,
    batch: PendingToolBatch,
    status: str,
    by: Any = None,
    results: Iterable[dict[str, Any]] = (),
    applied_calls: Iterable[ToolCall] = (),
    apply_ms: int | None = None,
    only: Iterable[str] | None = None,
    from_statuses: Iterable[str] = LIVE,
) -> None:
    """Move the batch's live records (or those of ``only`` call ids) to ``status``."""
    by_id = {r.get("tool_call_id"): r for r in results}
    applied = {c.id: c.arguments for c in applied_calls}
    records = ToolCallRecord.objects.filter(batch=batch, status__in=list(from_statuses))
    if only is not None:
        records = records.filter(call_id__in=list(only))
    for record in records:
        record.status = status
        record.transitions = [*record.transitions, _transition(status, by)]
        if record.call_id in by_id:
            record.result = by_id[record.call_id]
        if record.call_id in applied:
            record.applied_arguments = applied[record.call_id]
        if apply_ms is not None:
            record.apply_latency_ms = apply_ms
        if by is not None and getattr(by, "pk", None):
            record.decided_by = by
        record.save()
