"""The proposal lifecycle: every state change of a ``PendingToolBatch`` happens in this module.

::

    (none) ──queue──▶ PENDING ◀──edit / remove an item (re-preview)──┐
       │                 │ ─────────────────────────────────────────┘
       │                 ├──cancel / remove the last item──▶ CANCELLED
       │                 ├──time up / program replaced─────▶ EXPIRED
       │                 ├──program changed since preview──▶ STALE ──(re-preview: edit, apply)
       │                 ├──a call fails on apply──────────▶ FAILED  ──(edit, remove, apply, cancel)
       │                 ├──apply, high change in review───▶ AWAITING_REVIEW ─┬─approve─▶ APPLIED
       │                 │                                                    └─decline─▶ DECLINED
       │                 └──apply──────────────────────────▶ APPLIED ──undo (or undone
       │                                                                  elsewhere)──▶ UNDONE
       └──apply_at_once (a write needing no Apply) ────────▶ APPLIED ──undo──▶ UNDONE

PENDING, STALE and FAILED are open (``PendingToolBatch.OPEN_STATUSES``): the card shows them and
the athlete's clicks act on them. Each transition locks the batch row (conversation, batch,
program: one order), writes the batch, a ``BatchDecision`` (``core.record_decision``: the data
the model's note and the athlete's event line are rendered from) and the audit log's transition,
in one transaction. An applied batch is one change set of the journal (``coach.engine``'s
``apply_calls``: the services' writes and the program's revision as its parts); ``undo`` is the
journal's one undo of it, all or nothing. Nothing here names a family: the engine and the
journal hold what is family-specific."""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction
from django.utils import timezone

from coach import engine
from coach.toolcalls import ToolCall
from journal import services as journal

from .. import audit, notes
from ..access import is_read_only, may_review
from ..models import Conversation, PendingToolBatch
from .core import (
    NOT_UNDOABLE,
    READ_ONLY_UNDO,
    STALE_MESSAGE,
    Decision,
    Kind,
    Record,
    Status,
    applied_change_set,
    batch_of_change_set,
    calls_of,
    context_for,
    expiry_note,
    gate,
    lock,
    lock_for_athlete,
    lock_for_coach,
    lock_for_undo,
    needs_review,
    record_decision,
    ttl,
)
from .edit import EditResult, checked_edit

# --- previewing: (none) → PENDING, and back to PENDING after an edit ----------------------------


def store_preview(
    batch: PendingToolBatch, result: engine.BatchResult, *, changed_program: bool = False
) -> None:
    """Put a preview on the batch (calls already set) and bump its revision. A preview that fails
    leaves the batch FAILED, or STALE when the program changed under it."""
    batch.preview = result.preview
    batch.results = [r.to_dict() for r in result.results]
    batch.program_version = result.program_version
    batch.revision = (batch.revision or 0) + 1 if batch.pk else 1
    if result.success:
        batch.status = Status.STALE if changed_program else Status.PENDING
        batch.error_message = ""
    else:
        batch.status = Status.STALE if changed_program else Status.FAILED
        batch.error_message = notes.describe_failure(batch.calls, batch.results)
    batch.save()


def queue(
    *,
    conversation: Conversation,
    batch: PendingToolBatch | None,
    calls: list[ToolCall],
    preview: engine.BatchResult,
) -> PendingToolBatch:
    """Valid proposals join the open batch (or start one): ``calls`` are all of its calls now,
    ``preview`` their dry run in order."""
    if batch is None:
        batch = PendingToolBatch(conversation=conversation, expires_at=timezone.now() + ttl())
    batch.calls = [c.to_dict() for c in calls]
    store_preview(batch, preview)
    return batch


def apply_at_once(
    *, conversation: Conversation, calls: list[ToolCall]
) -> tuple[PendingToolBatch | None, engine.BatchResult]:
    """(none) → APPLIED for writes that need no Apply (``auto``): applied now, all or nothing, in
    the caller's transaction; None when a call failed (nothing was written). The caller records
    the decision once the audit records exist (``auto.record``)."""
    athlete = conversation.athlete
    result = engine.apply_calls(ctx=context_for(conversation, user=athlete), calls=calls)
    if not result.success:
        return None, result
    batch = PendingToolBatch.objects.create(
        conversation=conversation,
        status=Status.APPLIED,
        calls=[c.to_dict() for c in calls],
        preview=result.preview,
        results=[r.to_dict() for r in result.results],
        program_version=result.program_version,
        decided_by=athlete,
        decided_at=timezone.now(),
    )
    return batch, result


def mark_stale(batch: PendingToolBatch, user: Any) -> Decision:
    """→ STALE: the program changed since the preview; re-preview, apply nothing."""
    result = engine.preview_calls(
        ctx=context_for(batch.conversation, user=user), calls=calls_of(batch)
    )
    store_preview(batch, result, changed_program=True)
    batch.error_message = " ".join(filter(None, [STALE_MESSAGE, batch.error_message]))
    batch.save(update_fields=["error_message", "updated_at"])
    record, _, _ = record_decision(batch, kind=Kind.STALE, actor=user)
    audit.transition(batch=batch, status=Record.STALE, by=user, results=batch.results)
    return Decision(batch=batch, outcome="stale", record=record)


# --- the athlete's edits before Apply -----------------------------------------------------------


def _for_athletes_edit(batch_id: int, user: Any, revision: int) -> tuple[PendingToolBatch, str]:
    """The batch locked for its athlete's edit, and why not ("" if it may; past its time: expires)."""
    batch = lock_for_athlete(batch_id, user)
    if batch.is_open and expiry_note(batch) is not None:
        transaction.on_commit(lambda: expire(batch_id=batch_id))
        return batch, "already_decided"
    return batch, gate(batch, revision) or ""


def edit_call(
    *, batch_id: int, user: Any, revision: int, call_id: str, values: dict[str, str]
) -> EditResult:
    """Replace the values of one call with ``values`` (dotted path → text from the form)."""
    with transaction.atomic():
        batch, refused = _for_athletes_edit(batch_id, user, revision)
        return EditResult(batch, refused) if refused else _edit_locked(batch, user, call_id, values)


def _edit_locked(batch: PendingToolBatch, user: Any, call_id: str, values: dict) -> EditResult:
    """One call edited, re-validated, re-previewed (the athlete's, or the coach's before approving)."""
    calls, result, edits, refused = checked_edit(batch, user, call_id, values)
    if refused is not None:
        return refused
    batch.calls = [c.to_dict() for c in calls]
    store_preview(batch, result)
    record_decision(batch, kind=Kind.EDITED, actor=user, edits=edits)
    return EditResult(batch, "edited")


def remove_call(*, batch_id: int, user: Any, revision: int, call_id: str) -> Decision:
    """Drop one item and re-preview the rest; removing the last one cancels the batch."""
    with transaction.atomic():
        batch, refused = _for_athletes_edit(batch_id, user, revision)
        if refused:
            return Decision(batch=batch, outcome=refused)
        calls = calls_of(batch)
        kept = [c for c in calls if c.id != call_id]
        removed = [c for c in calls if c.id == call_id]
        if not removed:
            return Decision(batch=batch, outcome="revision_mismatch")
        edits = [{"call_id": call_id, "name": removed[0].name, "removed": True}]
        audit.transition(batch=batch, status=Record.REMOVED, by=user, only=[call_id])
        if not kept:
            return _close(batch, Status.CANCELLED, Kind.CANCELLED, Record.CANCELLED, user)
        batch.calls = [c.to_dict() for c in kept]
        result = engine.preview_calls(ctx=context_for(batch.conversation, user=user), calls=kept)
        store_preview(batch, result)
        record, _, _ = record_decision(batch, kind=Kind.REMOVED, actor=user, edits=edits)
        return Decision(batch=batch, outcome="edited", record=record)


# --- Apply, Cancel, the coach's review ----------------------------------------------------------


def _for_athletes_click(batch_id: int, user: Any, revision: int) -> Decision:
    """The batch locked for its athlete's click; ``outcome`` is "" when the click may go on, or
    says why not (expired on the way, decided elsewhere, a revision the athlete didn't see)."""
    batch = lock_for_athlete(batch_id, user)
    if batch.is_open and (note := expiry_note(batch)) is not None:
        return _expire_locked(batch, note=note)
    return Decision(batch=batch, outcome=gate(batch, revision) or "")


def _close(
    batch: PendingToolBatch, status: str, kind: str, audited: str, user: Any, note: str = ""
) -> Decision:
    """→ CANCELLED or DECLINED: nothing is written but the decision; both are told."""
    batch.status = status
    batch.decided_by = user
    batch.decided_at = timezone.now()
    batch.save()
    record, event, followup = record_decision(batch, kind=kind, actor=user, note=note)
    audit.transition(batch=batch, status=audited, by=user)
    return Decision(batch, str(status), record, event, followup)


def apply(*, batch_id: int, user: Any, revision: int) -> Decision:
    """The Apply Changes click: → APPLIED (or FAILED, STALE), or → AWAITING_REVIEW when the
    athlete is in coach review mode and a change is high or critical."""
    with transaction.atomic():
        locked = _for_athletes_click(batch_id, user, revision)
        if locked.outcome:
            return locked
        batch = locked.batch
        if needs_review(batch):
            batch.status = Status.AWAITING_REVIEW
            batch.needs_review = True
            batch.save(update_fields=["status", "needs_review", "updated_at"])
            record, event, followup = record_decision(batch, kind=Kind.REVIEW_REQUESTED, actor=user)
            audit.transition(batch=batch, status=Record.AWAITING_REVIEW, by=user)
            return Decision(batch, "review_requested", record, event, followup)
        return _apply_locked(batch, user=user, kind=Kind.APPLIED)


def _apply_locked(batch: PendingToolBatch, *, user: Any, kind: str, note: str = "") -> Decision:
    """Run every call in order, all or nothing, as one journal change set: one call into the
    engine, which locks the program and refuses a version other than the previewed one (→ STALE),
    and hands back plain data."""
    conversation = batch.conversation
    started = time.monotonic()
    result = engine.apply_batch(
        athlete=conversation.athlete,
        program=conversation.program,
        user=user,
        calls=batch.calls,
        version=batch.program_version,
        via="chat",
        source=f"batch:{batch.pk}",
    )
    elapsed = int((time.monotonic() - started) * 1000)
    batch.results = result.result_data
    if result.stale:
        return mark_stale(batch, user)
    batch.decided_by = user
    batch.decided_at = timezone.now()
    if not result.success:
        batch.status = Status.FAILED
        batch.error_message = (
            notes.describe_failure(batch.calls, batch.results) + " Nothing was changed."
        ).strip()
        batch.save()
        record, event, _ = record_decision(
            batch, kind=Kind.FAILED, actor=user, note=batch.error_message
        )
        audit.transition(
            batch=batch, status=Record.FAILED, by=user, results=batch.results, apply_ms=elapsed
        )
        return Decision(batch=batch, outcome="failed", record=record, event=event)
    batch.status = Status.APPLIED
    batch.error_message = ""
    batch.program_version = result.program_version  # the revision settled it (one step)
    batch.save()
    record, event, followup = record_decision(
        batch, kind=kind, actor=user, note=note, applied=result
    )
    audit.transition(
        batch=batch,
        status=Record.APPLIED,
        by=user,
        results=batch.results,
        applied_calls=result.calls,
        apply_ms=elapsed,
    )
    outcome = "approved" if kind == Kind.APPROVED else "applied"
    return Decision(batch, outcome, record, event, followup)


def cancel(*, batch_id: int, user: Any, revision: int) -> Decision:
    """The Cancel click: → CANCELLED, every pending call discarded, and the model told."""
    with transaction.atomic():
        locked = _for_athletes_click(batch_id, user, revision)
        if locked.outcome:
            return locked
        return _close(locked.batch, Status.CANCELLED, Kind.CANCELLED, Record.CANCELLED, user)


def approve(*, batch_id: int, coach: Any, note: str = "", edits: dict | None = None) -> Decision:
    """AWAITING_REVIEW → APPLIED as the athlete saw it (read-only conversation: → EXPIRED).
    ``edits`` (call id → form values): the coach's edit-then-approve, the card's editing; an
    invalid edit changes nothing (``invalid``, the problems in ``message``)."""
    with transaction.atomic():
        batch = lock_for_coach(batch_id, coach)
        if batch.status != Status.AWAITING_REVIEW:
            return Decision(batch=batch, outcome="already_decided")
        if (expiring := expiry_note(batch)) is not None:
            return _expire_locked(batch, note=expiring)
        for call_id, values in (edits or {}).items():
            if (done := _edit_locked(batch, coach, call_id, values)).outcome == "invalid":
                transaction.set_rollback(True)
                return Decision(batch=batch, outcome="invalid", message=done.text)
        batch.status = Status.PENDING
        return _apply_locked(batch, user=coach, kind=Kind.APPROVED, note=note.strip()[:2000])


def decline(*, batch_id: int, coach: Any, note: str = "") -> Decision:
    """AWAITING_REVIEW → DECLINED; nothing changes and both are told."""
    with transaction.atomic():
        batch = lock_for_coach(batch_id, coach)
        if batch.status != Status.AWAITING_REVIEW:
            return Decision(batch=batch, outcome="already_decided")
        return _close(
            batch, Status.DECLINED, Kind.DECLINED, Record.DECLINED, coach, note.strip()[:2000]
        )


# --- expiry --------------------------------------------------------------------------------------


def _expire_locked(batch: PendingToolBatch, *, note: str = "") -> Decision:
    """→ EXPIRED; ``note`` says why when it isn't its time (``core.expiry_note``)."""
    batch.status = Status.EXPIRED
    batch.decided_at = timezone.now()
    batch.save()
    record, event, _ = record_decision(batch, kind=Kind.EXPIRED, actor=None, note=note)
    audit.transition(batch=batch, status=Record.EXPIRED)
    return Decision(batch, "already_decided", record, event, message=note)


def expire(*, batch_id: int) -> bool:
    """Expire one open batch whose time is up, or whose conversation became read-only; False
    when it was decided or neither."""
    with transaction.atomic():
        batch = lock(batch_id)
        if not batch.is_open or (note := expiry_note(batch)) is None:
            return False
        _expire_locked(batch, note=note)
        return True


def expire_due() -> int:
    """Expire every open batch past its time (the periodic sweep); returns how many."""
    due = PendingToolBatch.objects.filter(
        status__in=list(PendingToolBatch.OPEN_STATUSES), expires_at__lte=timezone.now()
    ).values_list("pk", flat=True)
    return sum(1 for pk in list(due) if expire(batch_id=pk))


# --- undo ----------------------------------------------------------------------------------------


def undo(*, batch_id: int, user: Any) -> Decision:
    """APPLIED → UNDONE, by its athlete (chat) or its coach (admin): the journal's one undo of
    the batch's change set, every part newest first, all or nothing. Refused (the batch stays
    applied) when a later change overlaps, with the journal's message naming it."""
    with transaction.atomic():
        batch = lock_for_undo(batch_id, user)
        if batch.status == Status.UNDONE:
            return Decision(batch=batch, outcome="already_decided")
        if is_read_only(batch.conversation) and not may_review(user, batch.conversation):
            return Decision(batch=batch, outcome="undo_refused", message=READ_ONLY_UNDO)
        change_set = applied_change_set(batch) if batch.status == Status.APPLIED else None
        if change_set is None:
            return Decision(batch=batch, outcome="undo_refused", message=NOT_UNDOABLE)
        try:
            journal.undo(change_set, user, summary=f"Undo of the chat's batch {batch.pk}")
        except journal.JournalError as refused:  # a later change overlaps, already undone
            return Decision(batch=batch, outcome="undo_refused", message=str(refused))
        return _undone(batch, user, change_set.pk)


def undone_elsewhere(*, change_set_id: int, actor: Any) -> bool:
    """APPLIED → UNDONE after its change set was undone outside the chat (the program's History
    page), told as the chat's Undo; False if no applied batch holds it (the chat's Undo marked it)."""
    with transaction.atomic():
        batch_id = batch_of_change_set(change_set_id)
        batch = lock(batch_id) if batch_id is not None else None
        if batch is None or batch.status != Status.APPLIED:
            return False
        return bool(_undone(batch, actor, change_set_id))


def _undone(batch: PendingToolBatch, user: Any, change_set_id: int) -> Decision:
    batch.status = Status.UNDONE
    batch.save(update_fields=["status", "updated_at"])
    record, event, followup = record_decision(
        batch, kind=Kind.UNDONE, actor=user, edits=[], change_set_id=change_set_id
    )
    audit.transition(batch=batch, status=Record.UNDONE, by=user, from_statuses=[Record.APPLIED])
    return Decision(batch, "undone", record, event, followup)
