"""Proposing: the write calls of one model response join the conversation's open batch, or are
all refused.

Each new call is checked (schema layer), then previewed after the calls already queued, since it
will run after them. If every new call is valid they join the open batch (or start one), the
preview is rebuilt and the revision goes up. If any is invalid, none of this response's calls is
queued and the open batch is untouched (seed 000, Phase 5). A call that would change nothing
("rename to its own name") is refused as a no-op instead of being queued.

Before any of that, seed 004's guardrails (``coach.guardrails``) run on the response's writes: a
refused call (low confidence, not stated by the athlete) refuses the whole response, with its
reason code in the audit log; a crisis mood drops every other call. When every remaining call may
skip the athlete's Apply (the wellness logs), it is written at once (``lifecycle.apply_at_once``,
a batch applied in the same transaction, with Undo; ``auto``); otherwise the valid calls are
queued (``lifecycle.queue``) and nothing is applied here. This module decides; the batch's state
changes in ``lifecycle``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from coach import engine, guardrails
from coach.render import quote
from coach.toolcalls import ToolCall

from .. import audit
from ..access import is_read_only
from ..models import Conversation, Message, PendingToolBatch
from . import auto, lifecycle
from .core import context_for

AWAITING_CONFIRMATION = "Awaiting the athlete's confirmation; not applied yet."
IN_REVIEW = engine.ToolError(
    code="CONFLICT",
    message="Earlier changes are waiting for your coach's review; new changes can be proposed "
    "once your coach decides.",
)
READ_ONLY = engine.ToolError(
    code="CONFLICT",
    message="The athlete was given a new program; this conversation is about an earlier one and "
    "can't change it. Nothing was queued.",
)
NOT_QUEUED = (
    "Not queued: another change in the same response was refused, so none of them were queued. "
    "Nothing was applied."
)


@dataclass
class Proposal:
    """What became of one response's write calls."""

    batch: PendingToolBatch | None
    calls: list[ToolCall]  # the response's calls, with ids made unique
    id_map: dict[str, str]  # the model's call id → the stored one
    answers: dict[str, tuple[str, bool]] = field(default_factory=dict)  # id → (text, is_error)
    errors: dict[str, list[engine.ToolError]] = field(default_factory=dict)
    crisis: bool = False  # a crisis mood was logged: the reply is the fixed crisis message

    @property
    def refused(self) -> bool:
        return bool(self.errors)


def unique_ids(calls: list[ToolCall], taken: set[str]) -> list[ToolCall]:
    """Give each call an id not used by the open batch or by an earlier call of this response
    (some providers number their calls call_1, call_2... in every response)."""
    out = []
    used = set(taken)
    for call in calls:
        call_id = call.id or "call"
        if call_id in used:
            n = 2
            while f"{call_id}_{n}" in used:
                n += 1
            call_id = f"{call_id}_{n}"
        used.add(call_id)
        out.append(call if call_id == call.id else dataclasses.replace(call, id=call_id))
    return out


def _no_op(result: engine.CallResult, details: list[dict[str, Any]]) -> engine.ToolError | None:
    """A valid call whose preview changes nothing is refused: it would be a card with no change."""
    mine = [d for d in details if d.get("toolCallId") == result.tool_call_id]
    # A "modify" detail with no changed field is the tool saying "unchanged".
    if not result.success or any(d.get("type") != "modify" or d.get("fields") for d in mine):
        return None
    return engine.ToolError(
        code="VALIDATION_ERROR",
        message="That is already how it is, so there is nothing to change.",
    )


def check_writes(
    *, conversation: Conversation, existing: list[ToolCall], writes: list[ToolCall]
) -> tuple[dict[str, list[engine.ToolError]], engine.BatchResult | None]:
    """The errors of the new calls, keyed by call id (empty when every one of them is valid), and
    the preview of the queued calls followed by the new ones. When the queued calls themselves no
    longer fit the program (the batch is failed or stale), the new calls are judged on their own,
    so a broken queue doesn't block unrelated proposals."""
    errors: dict[str, list[engine.ToolError]] = {}
    for call in writes:
        _, call_errors = engine.check_call(call)
        if call_errors:
            errors[call.id] = call_errors
    if errors:
        return errors, None
    ctx = context_for(conversation, user=conversation.athlete)
    result = engine.preview_calls(ctx=ctx, calls=existing + writes)
    details = result.preview.get("details", [])
    queued_ok = all(r.success for r in result.results[: len(existing)])
    new_results = result.results[len(existing) :]
    if not queued_ok:
        alone = engine.preview_calls(ctx=ctx, calls=writes)
        new_results, details = alone.results, alone.preview.get("details", [])
    for call, call_result in zip(writes, new_results, strict=False):
        if not call_result.success:
            errors[call.id] = call_result.errors or [
                engine.ToolError(code="VALIDATION_ERROR", message=call_result.summary or "Invalid.")
            ]
        elif (no_op := _no_op(call_result, details)) is not None:
            errors[call.id] = [no_op]
    return errors, result


def _error_text(errors: list[engine.ToolError]) -> str:
    return "Error (not queued, nothing was applied): " + json.dumps(
        [e.to_dict() for e in errors], ensure_ascii=False
    )


def _call_summary(batch: PendingToolBatch, call_id: str) -> str:
    for result in batch.results:
        if result.get("tool_call_id") == call_id:
            return result.get("summary", "")
    return ""


def propose(
    *,
    conversation: Conversation,
    message: Message,
    calls: list[ToolCall],
    writes: set[str],
    usage: dict[str, Any],
) -> Proposal:
    """Queue or refuse the write calls of ``message``'s response (``writes``: their ids, as the
    model sent them; ``calls`` are all of the response's calls, reads included).

    Runs inside the caller's transaction, after it locked the conversation row. Returns the
    answers of the write calls; the caller stores them as tool messages."""
    batch = (
        PendingToolBatch.objects.select_for_update()
        .filter(conversation=conversation, status__in=list(PendingToolBatch.OPEN_STATUSES))
        .first()
    )
    existing = [ToolCall.from_raw(raw) for raw in batch.calls] if batch else []
    renamed = unique_ids(calls, {c.id for c in existing})
    id_map = {old.id: new.id for old, new in zip(calls, renamed, strict=True)}
    new_writes = [c for old, c in zip(calls, renamed, strict=True) if old.id in writes]
    proposal = Proposal(batch=None, calls=renamed, id_map=id_map)
    guard = guardrails.check_response(new_writes, statement=athlete_statement(message))
    reasons = {call_id: refusal.reason.value for call_id, refusal in guard.items()}
    # Crisis: the other calls are dropped and the mood is logged alone.
    dropped = {i: [r.error] for i, r in guard.items() if r.reason == guardrails.Reason.CRISIS_ONLY}
    blocking = {i: [r.error] for i, r in guard.items() if i not in dropped}
    going = [c for c in new_writes if c.id not in dropped]
    proposal.crisis = any(guardrails.is_crisis(c) and not engine.check_call(c)[1] for c in going)
    at_once = None
    if is_read_only(conversation):
        errors, combined = {c.id: [READ_ONLY] for c in going}, None
    elif blocking:
        errors, combined = blocking, None
    elif auto.may_apply_at_once(going):
        at_once, combined = lifecycle.apply_at_once(conversation=conversation, calls=going)
        errors = {r.tool_call_id: r.errors for r in combined.results if not r.success}
    elif batch is not None and batch.status == PendingToolBatch.BatchStatus.AWAITING_REVIEW:
        # The coach decides that batch as the athlete sent it, and one card is open at a time.
        errors, combined = {c.id: [IN_REVIEW] for c in going}, None
    else:
        errors, combined = check_writes(conversation=conversation, existing=existing, writes=going)
    statuses: dict[str, str] = {}
    results: dict[str, dict[str, Any]] = {}
    for call_id, call_errors in dropped.items():
        proposal.answers[call_id] = (_error_text(call_errors), True)
        statuses[call_id] = audit.ToolCallRecord.Status.REFUSED
        results[call_id] = {"errors": [e.to_dict() for e in call_errors]}
    if errors:
        proposal.errors = errors
        for call in going:
            text = _error_text(errors[call.id]) if call.id in errors else NOT_QUEUED
            proposal.answers[call.id] = (text, True)
            statuses[call.id] = audit.ToolCallRecord.Status.REFUSED
            results[call.id] = {"errors": [e.to_dict() for e in errors.get(call.id, [])]}
    elif at_once is not None:
        proposal.batch = at_once
        for call, call_result in zip(going, at_once.results, strict=True):
            proposal.answers[call.id] = (auto.answer(call_result), False)
            statuses[call.id] = audit.ToolCallRecord.Status.PROPOSED
            results[call.id] = {"summary": call_result.get("summary", "")}
    else:
        batch = lifecycle.queue(
            conversation=conversation, batch=batch, calls=existing + going, preview=combined
        )
        proposal.batch = batch
        for call in going:
            summary = quote(_call_summary(batch, call.id), limit=600)
            proposal.answers[call.id] = (f"{AWAITING_CONFIRMATION} Preview: {summary}", False)
            statuses[call.id] = audit.ToolCallRecord.Status.PROPOSED
            results[call.id] = {"summary": _call_summary(batch, call.id)}
    audit.record_calls(
        conversation=conversation,
        message=message,
        calls=new_writes,
        statuses=statuses,
        results=results,
        usage=usage,
        batch=proposal.batch,
        guardrails=reasons,
    )
    if at_once is not None and not errors:
        auto.record(batch=at_once, calls=going, result=combined)
    return proposal


def athlete_statement(message: Message) -> str | None:
    """The athlete's latest message, which ``message`` (the coach's reply) answers; None when the
    reply answers a decision (the athlete said nothing)."""
    asked = message.reply_to
    if asked is None or asked.role != Message.Role.USER:
        return None
    return asked.content
