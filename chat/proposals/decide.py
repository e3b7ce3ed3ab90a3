"""Deciding a batch: Apply Changes, Cancel, the coach's review, and expiry.

* ``apply`` is the athlete's click. It runs every call in order in one transaction, all or nothing,
  exactly once (the batch row, then the program row, are locked). When the athlete is in coach
  review mode and the batch holds a high or critical change, the click sends it to the coach
  instead (AWAITING_REVIEW); ``approve`` then applies it the same way, ``decline`` closes it.
* ``cancel`` closes the batch without writing anything.
* ``expire`` closes a batch left undecided for ``PROPOSAL_TTL_DAYS``; ``expire_due`` sweeps them.

Every outcome is a ``BatchDecision`` row and an audit transition, written in the same transaction.
Each program change is recorded as a program revision (``programs.history``) that undo restores.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from coach import engine
from coach.registry import get_tool
from library.feed import sync_feed_events_for
from programs.history import program_change
from programs.services import program_lock

from .. import audit, notes
from ..access import may_review
from ..models import CoachReview, PendingToolBatch
from .core import (
    Decision,
    Kind,
    Record,
    Status,
    calls_of,
    context_for,
    gate,
    is_due,
    lock,
    lock_for_athlete,
    mark_stale,
    program_bound,
    record_decision,
)


def needs_review(batch: PendingToolBatch) -> bool:
    """Coach review mode is on for the athlete and a change is high or critical (seed 004)."""
    review = CoachReview.objects.filter(athlete_id=batch.conversation.athlete_id).first()
    if review is None or not review.enabled:
        return False
    return any((spec := get_tool(c.get("name", ""))) and spec.needs_review for c in batch.calls)


def _for_athletes_click(batch_id: int, user: Any, revision: int) -> Decision:
    """The batch locked for its athlete's click; ``outcome`` is "" when the click may go on, or
    says why not (expired on the way, decided elsewhere, a revision the athlete didn't see)."""
    batch = lock_for_athlete(batch_id, user)
    if is_due(batch):
        return _expire_locked(batch)
    refused = gate(batch, revision)
    return Decision(batch=batch, outcome=refused or "")


def apply(*, batch_id: int, user: Any, revision: int) -> Decision:
    """The Apply Changes click."""
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
    program = program_lock(program_id=batch.conversation.program_id)
    bound = program_bound(batch)
    if bound and program.version != batch.program_version:
        return mark_stale(batch, user)
    calls = calls_of(batch)
    ctx = context_for(batch.conversation, user=user)
    started = time.monotonic()
    with program_change(
        program=program,
        actor=user,
        via="chat",
        summary=notes.batch_summary(batch),
        source=f"batch:{batch.pk}",
    ) as change:
        result = engine.apply_calls(
            ctx=ctx, calls=calls, expected_version=batch.program_version if bound else None
        )
    elapsed = int((time.monotonic() - started) * 1000)
    batch.results = [r.to_dict() for r in result.results]
    if not result.success and any(e.code == "STALE" for r in result.results for e in r.errors):
        return mark_stale(batch, user)
    batch.decided_by = user
    batch.decided_at = timezone.now()
    if result.success:
        batch.status = Status.APPLIED
        batch.error_message = ""
        revision = change.revision
        # A revision settles the version at one step past the one before it.
        batch.program_version = revision.program_version if revision else result.program_version
        batch.save()
        transaction.on_commit(lambda: sync_feed_events_for(athlete=ctx.athlete), robust=True)
        record, event, followup = record_decision(
            batch,
            kind=kind,
            actor=user,
            note=note,
            revision_id=revision.pk if revision else None,
            change_set_id=result.change_set_id,
        )
        audit.transition(
            batch=batch,
            status=Record.APPLIED,
            by=user,
            results=batch.results,
            applied_calls=calls,
            apply_ms=elapsed,
        )
        outcome = "approved" if kind == Kind.APPROVED else "applied"
        return Decision(batch, outcome, record, event, followup)
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


def cancel(*, batch_id: int, user: Any, revision: int) -> Decision:
    """The Cancel click: discard every pending call and tell the model."""
    with transaction.atomic():
        locked = _for_athletes_click(batch_id, user, revision)
        if locked.outcome:
            return locked
        batch = locked.batch
        batch.status = Status.CANCELLED
        batch.decided_by = user
        batch.decided_at = timezone.now()
        batch.save()
        record, event, followup = record_decision(batch, kind=Kind.CANCELLED, actor=user)
        audit.transition(batch=batch, status=Record.CANCELLED, by=user)
        return Decision(batch, "cancelled", record, event, followup)


# --- the coach's review --------------------------------------------------------------------------


def _lock_for_coach(batch_id: int, coach: Any) -> PendingToolBatch:
    batch = lock(batch_id)
    if not may_review(coach, batch.conversation):
        raise PermissionDenied("Only the athlete's coach can review these changes.")
    return batch


def approve(*, batch_id: int, coach: Any, note: str = "") -> Decision:
    """The coach approves a batch waiting for review: it is applied as the athlete saw it."""
    with transaction.atomic():
        batch = _lock_for_coach(batch_id, coach)
        if batch.status != Status.AWAITING_REVIEW:
            return Decision(batch=batch, outcome="already_decided")
        batch.status = Status.PENDING
        return _apply_locked(batch, user=coach, kind=Kind.APPROVED, note=note.strip()[:2000])


def decline(*, batch_id: int, coach: Any, note: str = "") -> Decision:
    """The coach declines a batch waiting for review; nothing changes and both are told."""
    with transaction.atomic():
        batch = _lock_for_coach(batch_id, coach)
        if batch.status != Status.AWAITING_REVIEW:
            return Decision(batch=batch, outcome="already_decided")
        batch.status = Status.DECLINED
        batch.decided_by = coach
        batch.decided_at = timezone.now()
        batch.save()
        record, event, followup = record_decision(
            batch, kind=Kind.DECLINED, actor=coach, note=note.strip()[:2000]
        )
        audit.transition(batch=batch, status=Record.DECLINED, by=coach)
        return Decision(batch, "declined", record, event, followup)


# --- expiry --------------------------------------------------------------------------------------


def _expire_locked(batch: PendingToolBatch) -> Decision:
    batch.status = Status.EXPIRED
    batch.decided_at = timezone.now()
    batch.save()
    record, event, _ = record_decision(batch, kind=Kind.EXPIRED, actor=None)
    audit.transition(batch=batch, status=Record.EXPIRED)
    return Decision(batch=batch, outcome="already_decided", record=record, event=event)


def expire(*, batch_id: int) -> bool:
    """Expire one open batch whose time is up; False when it was decided or isn't due."""
    with transaction.atomic():
        batch = lock(batch_id)
        if not batch.is_open or not is_due(batch):
            return False
        _expire_locked(batch)
        return True


def expire_due() -> int:
    """Expire every open batch past its time (the periodic sweep); returns how many."""
    due = PendingToolBatch.objects.filter(
        status__in=list(PendingToolBatch.OPEN_STATUSES), expires_at__lte=timezone.now()
    ).values_list("pk", flat=True)
    return sum(1 for pk in list(due) if expire(batch_id=pk))
