"""Undo: an applied batch is reverted as a new recorded change.

A batch may hold program changes, other changes (nutrition: recipes, meals, grocery lists), or
both. The program part is the batch's program revision, undone by ``programs.history``: the program
returns to exactly its state before the batch, as a new revision that bumps the version. The rest
is the batch's journal change set (``journal.services``): created objects are soft-deleted,
updated fields get their old values back. Both happen in one transaction, all or nothing. If a
later change touched the same objects, undo is refused and the message names that change or
object; unrelated later changes don't block it. The athlete undoes from the chat, the coach from
the admin; either way the decision is recorded, the audit records move to ``undone`` and the model
is told.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction

from journal.models import ChangeSet
from journal.services import JournalError
from journal.services import undo as journal_undo
from library.feed import sync_feed_events_for
from programs.history import HistoryError, revision_undo
from programs.models import ProgramRevision
from programs.services import program_lock

from .. import audit
from ..access import is_read_only, may_act_as_athlete, may_review
from ..models import BatchDecision, PendingToolBatch
from .core import Decision, Kind, Record, Status, lock, record_decision

NOT_UNDOABLE = "These changes can't be undone: they were never applied."
READ_ONLY_UNDO = (
    "This conversation is about an earlier program, so its changes can't be undone from here. "
    "Ask your coach if you need them undone."
)


def _applied_decision(batch: PendingToolBatch) -> BatchDecision | None:
    return (
        BatchDecision.objects.filter(
            batch=batch, kind__in=[Kind.APPLIED, Kind.APPROVED, Kind.AUTO_APPLIED]
        )
        .order_by("-pk")
        .first()
    )


def applied_revision(batch: PendingToolBatch) -> ProgramRevision | None:
    decision = _applied_decision(batch)
    if decision is None or decision.program_revision_id is None:
        return None
    return ProgramRevision.objects.filter(pk=decision.program_revision_id).first()


def applied_change_set(batch: PendingToolBatch) -> ChangeSet | None:
    decision = _applied_decision(batch)
    if decision is None or decision.change_set_id is None:
        return None
    return ChangeSet.objects.filter(pk=decision.change_set_id).first()


def undo(*, batch_id: int, user: Any) -> Decision:
    """Undo an applied batch, as its athlete (chat) or its coach (admin)."""
    with transaction.atomic():
        batch = lock(batch_id)
        conversation = batch.conversation
        if not (may_act_as_athlete(user, conversation) or may_review(user, conversation)):
            raise PermissionDenied("Only the athlete or their coach can undo these changes.")
        if batch.status == Status.UNDONE:
            return Decision(batch=batch, outcome="already_decided")
        if is_read_only(conversation) and not may_review(user, conversation):
            # The athlete can't change an earlier program from its old conversation; their coach
            # still can, from the admin.
            return Decision(batch=batch, outcome="undo_refused", message=READ_ONLY_UNDO)
        applied = batch.status == Status.APPLIED
        revision = applied_revision(batch) if applied else None
        change_set = applied_change_set(batch) if applied else None
        if revision is None and change_set is None:
            return Decision(batch=batch, outcome="undo_refused", message=NOT_UNDOABLE)
        try:
            with transaction.atomic():  # both parts, or neither
                undone = None
                if revision is not None:
                    program_lock(program_id=conversation.program_id)
                    undone = revision_undo(
                        revision=revision,
                        actor=user,
                        summary=f"Undo of the chat's batch {batch.pk}",
                    )
                if change_set is not None:
                    journal_undo(change_set, user)
        except (HistoryError, JournalError) as exc:  # a later change overlaps, already undone
            return Decision(batch=batch, outcome="undo_refused", message=str(exc))
        batch.status = Status.UNDONE
        batch.save(update_fields=["status", "updated_at"])
        if revision is not None:
            transaction.on_commit(
                lambda: sync_feed_events_for(athlete=conversation.athlete), robust=True
            )
        record, event, followup = record_decision(
            batch,
            kind=Kind.UNDONE,
            actor=user,
            edits=[],
            revision_id=undone.pk if undone is not None else None,
            change_set_id=change_set.pk if change_set is not None else None,
        )
        audit.transition(batch=batch, status=Record.UNDONE, by=user, from_statuses=[Record.APPLIED])
        return Decision(batch, "undone", record, event, followup)
