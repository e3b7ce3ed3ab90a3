"""The proposal lifecycle's shared parts, none of which changes a batch's state (that is
``lifecycle``'s alone): reading the open batch and what applied it, the policy questions (bound to
the program version? needs the coach's review?), locking, the click's gate, and recording a
decision with its event line and the coach's acknowledgment.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Literal

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from coach import engine
from coach.registry import get_tool
from coach.toolcalls import ToolCall
from journal.models import ChangeSet

from .. import audit, notes, recovery
from ..access import is_read_only, may_act_as_athlete, may_review
from ..models import BatchDecision, CoachReview, Conversation, Message, PendingToolBatch

Status = PendingToolBatch.BatchStatus
Kind = BatchDecision.Kind
Record = audit.ToolCallRecord.Status

Outcome = Literal[
    "applied",
    "cancelled",
    "failed",
    "stale",
    "already_decided",
    "revision_mismatch",
    "review_requested",
    "approved",
    "declined",
    "edited",
    "invalid",
    "undone",
    "undo_refused",
]


@dataclass
class Decision:
    batch: PendingToolBatch
    outcome: Outcome
    record: BatchDecision | None = None
    event: Message | None = None
    followup: Message | None = None
    errors: list[engine.ToolError] = field(default_factory=list)
    message: str = ""


def context_for(conversation: Conversation, *, user: Any = None) -> engine.ToolContext:
    return engine.ToolContext(athlete=conversation.athlete, program=conversation.program, user=user)


def calls_of(batch: PendingToolBatch) -> list[ToolCall]:
    return [ToolCall.from_raw(raw) for raw in batch.calls]


def needs_review(batch: PendingToolBatch) -> bool:
    """Coach review mode is on for the athlete and a change is high or critical (seed 004)."""
    review = CoachReview.objects.filter(athlete_id=batch.conversation.athlete_id).first()
    if review is None or not review.enabled:
        return False
    return any((spec := get_tool(c.get("name", ""))) and spec.needs_review for c in batch.calls)


STALE_MESSAGE = (
    "Your program changed since these changes were previewed, so nothing was applied. "
    "Check the updated preview, then click Apply Changes again."
)
NOT_UNDOABLE = "These changes can't be undone: they were never applied."
# The athlete can't change an earlier program from its old conversation; their coach still can,
# from the admin.
READ_ONLY_UNDO = (
    "This conversation is about an earlier program, so its changes can't be undone from here. "
    "Ask your coach if you need them undone."
)


def batch_of_change_set(change_set_id: int) -> int | None:
    """The batch whose apply the journal recorded as ``change_set_id``, if a batch's did."""
    return (
        BatchDecision.objects.filter(
            change_set_id=change_set_id,
            kind__in=[Kind.APPLIED, Kind.APPROVED, Kind.AUTO_APPLIED],
        )
        .values_list("batch_id", flat=True)
        .first()
    )


def applied_change_set(batch: PendingToolBatch) -> ChangeSet | None:
    """The journal's change set that applied ``batch`` (confirmed, approved or written at once):
    what Undo undoes. Decisions written before the one journal held the program revision apart;
    migration ``chat`` 0008 put each such revision into its batch's change set."""
    decision = (
        BatchDecision.objects.filter(
            batch=batch, kind__in=[Kind.APPLIED, Kind.APPROVED, Kind.AUTO_APPLIED]
        )
        .order_by("-pk")
        .first()
    )
    if decision is None or decision.change_set_id is None:
        return None
    return ChangeSet.objects.filter(pk=decision.change_set_id).first()


def ttl() -> datetime.timedelta:
    return datetime.timedelta(days=float(getattr(settings, "PROPOSAL_TTL_DAYS", 7)))


# --- reading -------------------------------------------------------------------------------------


def find_open(*, conversation: Conversation) -> PendingToolBatch | None:
    return (
        PendingToolBatch.objects.filter(
            conversation=conversation, status__in=list(PendingToolBatch.OPEN_STATUSES)
        )
        .order_by("-pk")
        .first()
    )


def is_due(batch: PendingToolBatch, now: datetime.datetime | None = None) -> bool:
    return batch.expires_at is not None and batch.expires_at <= (now or timezone.now())


def superseded_note(conversation: Conversation) -> str:
    return (
        f"Your coach gave you a new program, so these changes to {conversation.program.name} "
        "were not applied; nothing was changed."
    )


def expiry_note(batch: PendingToolBatch) -> str | None:
    """Why an open batch expires now: None when it doesn't; "" when its time is up; the reason
    when its conversation became read-only (the athlete was given a new program, see
    ``chat.access``), so changes to the earlier program are never applied from an old card."""
    if is_read_only(batch.conversation):
        return superseded_note(batch.conversation)
    return "" if is_due(batch) else None


# --- recording a decision ------------------------------------------------------------------------


def proposed_calls(batch: PendingToolBatch) -> list[dict[str, Any]]:
    """The calls as the model proposed them (before any edit), from the audit records."""
    by_id = {
        r.call_id: r
        for r in audit.ToolCallRecord.objects.filter(batch=batch).only(
            "call_id", "tool", "arguments"
        )
    }
    out = []
    for call in batch.calls:
        record = by_id.get(call.get("id"))
        arguments = record.arguments if record is not None else call.get("arguments")
        out.append({"id": call.get("id"), "name": call.get("name"), "arguments": arguments})
    return out


def record_decision(
    batch: PendingToolBatch,
    *,
    kind: str,
    actor: Any,
    edits: list[dict[str, Any]] | None = None,
    note: str = "",
    change_set_id: int | None = None,
    applied: engine.BatchResult | None = None,
) -> tuple[BatchDecision, Message | None, Message | None]:
    """Write the decision row and, for the decisions the conversation hears of, the event message
    (and the placeholder of the coach's acknowledgment, queued on commit). ``applied``: the
    engine's result of the apply the decision records, as plain data: its journal change set
    (else ``change_set_id``, an undo's) and its calls counted in words for the athlete's line."""
    if applied is not None:
        change_set_id = applied.change_set_id
    if edits is None:
        edits = list(
            BatchDecision.objects.filter(
                batch=batch, kind__in=[Kind.EDITED, Kind.REMOVED]
            ).values_list("edits", flat=True)
        )
        edits = [e for group in edits for e in group]
    record = BatchDecision.objects.create(
        batch=batch,
        kind=kind,
        actor=actor if getattr(actor, "pk", None) else None,
        batch_revision=batch.revision,
        calls=list(batch.calls),
        proposed=proposed_calls(batch),
        results=list(batch.results),
        edits=edits,
        note=note,
        change_set_id=change_set_id,
    )
    if kind not in notes.ANNOUNCED:
        return record, None, None
    event = Message.objects.create(
        conversation=batch.conversation,
        role=Message.Role.EVENT,
        content=notes.athlete_line(record, counted=applied.counted if applied else ""),
        batch=batch,
        decision=record,
        status=Message.Status.COMPLETE,
    )
    Conversation.objects.filter(pk=batch.conversation_id).update(updated_at=timezone.now())
    followup = None
    if kind in notes.ACKNOWLEDGED:
        followup = queue_reply(conversation=batch.conversation, reply_to=event)
    return record, event, followup


def queue_reply(*, conversation: Conversation, reply_to: Message) -> Message:
    """A "coach is thinking" placeholder answering ``reply_to``; the agent is queued on commit.

    A broker that is down doesn't lose anything: the messages are committed first, the placeholder
    is left PENDING with ``queued_at`` empty (the page says the coach is unreachable) and
    ``chat.recovery``'s sweep queues it when the broker is back (``recovery.send_run``)."""
    placeholder = Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        status=Message.Status.PENDING,
        reply_to=reply_to,
        queued_at=timezone.now(),
    )
    recovery.queue_run(placeholder)
    return placeholder


# --- locking -------------------------------------------------------------------------------------


def lock(batch_id: int) -> PendingToolBatch:
    return (
        PendingToolBatch.objects.select_for_update(of=("self",))
        .select_related("conversation__program", "conversation__athlete")
        .get(pk=batch_id)
    )


def lock_for_athlete(batch_id: int, user: Any) -> PendingToolBatch:
    batch = lock(batch_id)
    if not may_act_as_athlete(user, batch.conversation):
        raise PermissionDenied("Only the athlete can decide on these changes.")
    return batch


def lock_for_coach(batch_id: int, coach: Any) -> PendingToolBatch:
    batch = lock(batch_id)
    if not may_review(coach, batch.conversation):
        raise PermissionDenied("Only the athlete's coach can review these changes.")
    return batch


def lock_for_undo(batch_id: int, user: Any) -> PendingToolBatch:
    batch = lock(batch_id)
    conversation = batch.conversation
    if not (may_act_as_athlete(user, conversation) or may_review(user, conversation)):
        raise PermissionDenied("Only the athlete or their coach can undo these changes.")
    return batch


def gate(batch: PendingToolBatch, revision: int | None) -> Outcome | None:
    if not batch.is_open or batch.status == Status.AWAITING_REVIEW:
        return "already_decided"
    if revision is not None and revision != batch.revision:
        return "revision_mismatch"
    return None
