"""The review inbox: every batch waiting for the coach, across their athletes, riskiest first, and
the coach's decisions on them, one at a time or several at once.

**Order.** Highest sensitivity first (critical, high, medium, low: the batch's most sensitive
change, from the tool registry), then the longest waiting first: a remove-week that has waited two
days comes before a remove-session asked for a minute ago.

**Deciding.** Every decision is the lifecycle's (``chat.proposals.approve`` / ``decline``), one
transaction per batch: the batch, its ``BatchDecision`` (the note, quoted as data when the model
reads it), the athlete's event line and the model's turn are written there. Edit-then-approve
passes the card's form values to ``approve(edits=...)``, the same editing the athlete has.
In bulk each batch is decided on its own: one that fails (decided elsewhere, stale, not yours)
is reported and the others go on.

**Who.** A batch outside ``user``'s ``READ`` scope doesn't exist for them (``NotFound``: a 404);
one they may read but not ``REVIEW`` (staff readers) is ``PermissionDenied`` (403).
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, QuerySet, Subquery

from access import policy
from chat import proposals
from chat.cards import card_items
from chat.models import BatchDecision, Message, PendingToolBatch
from coach.registry import get_tool
from config.params import id_param

logger = logging.getLogger(__name__)

Status = PendingToolBatch.BatchStatus
RANK = {"critical": 0, "high": 1, "medium": 2, "low": 3}
NOTE_LIMIT = 2000
APPROVE, EDIT_APPROVE, DECLINE = "approve", "edit_approve", "decline"
ACTIONS = (APPROVE, EDIT_APPROVE, DECLINE)
BULK_LIMIT = 50  # reviews decided in one click


class NotFound(LookupError):
    """No such batch waiting for this user (or not theirs to see)."""


@dataclass
class Review:
    batch: PendingToolBatch
    items: list[dict[str, Any]]
    sensitivity: str
    waiting_since: datetime.datetime
    asked: str  # the athlete's message that led to the proposal ("" if none is kept)
    may_decide: bool

    @property
    def athlete(self) -> Any:
        return self.batch.conversation.athlete

    @property
    def editable(self) -> bool:
        """A value of the card can be edited before approving (the athlete's Edit fields)."""
        return any(item["fields"] for item in self.items)


@dataclass
class Outcome:
    batch_id: int
    ok: bool
    text: str
    athlete: str = ""
    errors: list[str] = field(default_factory=list)


def sensitivity_of(batch: PendingToolBatch) -> str:
    found = [spec.sensitivity for c in batch.calls if (spec := get_tool(c.get("name", "")))]
    return min(found, key=lambda s: RANK.get(s, 9), default="low")


def _scoped(user: Any, action: str) -> QuerySet[PendingToolBatch]:
    waiting = PendingToolBatch.objects.filter(status=Status.AWAITING_REVIEW)
    rule = policy.scope(user, PendingToolBatch, lookup="conversation__program", action=action)
    return waiting if rule is None else waiting.filter(rule)


def waiting(user: Any) -> list[Review]:
    """The batches waiting for ``user``'s review (a staff reader: every one, read-only), riskiest
    first (two queries: the batches with the athlete's message and when they were sent, and
    which ``user`` decides)."""
    asked = (
        Message.objects.filter(
            batch=OuterRef("pk"), role=Message.Role.ASSISTANT, reply_to__role=Message.Role.USER
        )
        .order_by("pk")
        .values("reply_to__content")[:1]
    )
    sent = (
        BatchDecision.objects.filter(batch=OuterRef("pk"), kind=BatchDecision.Kind.REVIEW_REQUESTED)
        .order_by("-pk")
        .values("created_at")[:1]
    )
    batches = list(
        _scoped(user, policy.READ if policy.is_staff_reader(user) else policy.REVIEW)
        .select_related("conversation__athlete", "conversation__program")
        .annotate(asked=Subquery(asked), sent_at=Subquery(sent))
        .order_by("pk")[: settings.INBOX_REVIEW_LIMIT]
    )
    decides = (
        set(
            _scoped(user, policy.REVIEW)
            .filter(pk__in=[b.pk for b in batches])
            .values_list("pk", flat=True)
        )
        if batches
        else set()
    )
    reviews = [
        Review(
            batch=b,
            items=card_items(b),
            sensitivity=sensitivity_of(b),
            waiting_since=b.sent_at or b.updated_at,
            asked=b.asked or "",
            may_decide=b.pk in decides,
        )
        for b in batches
    ]
    reviews.sort(key=lambda r: (RANK.get(r.sensitivity, 9), r.waiting_since, r.batch.pk))
    return reviews


def count_waiting(user: Any) -> int:
    return _scoped(user, policy.REVIEW).count()


def _find(user: Any, batch_id: Any) -> PendingToolBatch:
    pk = id_param(str(batch_id))
    if pk is None:
        raise NotFound("No such review.")
    rule = policy.scope(user, PendingToolBatch, lookup="conversation__program", action=policy.READ)
    batches = PendingToolBatch.objects.select_related("conversation__athlete")
    batch = (batches if rule is None else batches.filter(rule)).filter(pk=pk).first()
    if batch is None:
        raise NotFound("No such review.")
    if not policy.may_review(user, batch.conversation):
        raise PermissionDenied("Only the athlete's coach can decide on these changes.")
    return batch


def check_note(action: str, note: str) -> str | None:
    """Why the note can't go with ``action`` (None when it can)."""
    if action not in ACTIONS:
        return "Choose Approve, Approve with my edits, or Decline."
    if len(note) > NOTE_LIMIT:
        return f"The note can be at most {NOTE_LIMIT} characters (it has {len(note)})."
    if action == DECLINE and not note.strip():
        return "Say why you decline: the athlete and their coach (the model) are told your reason."
    return None


_TEXTS = {
    "approved": "Approved: the changes are applied and the athlete is told.",
    "declined": "Declined: nothing was changed and the athlete is told.",
    "already_decided": "Already decided (or expired); nothing was done.",
    "stale": "The program changed since the preview: nothing was applied, the batch goes back to "
    "the athlete re-previewed.",
}


def decide(
    user: Any,
    batch_id: Any,
    *,
    action: str,
    note: str = "",
    edits: dict[str, dict[str, str]] | None = None,
) -> Outcome:
    """One decision through the lifecycle; ``NotFound`` / ``PermissionDenied`` as above, a
    refused note or action is an ``Outcome`` that changed nothing."""
    batch = _find(user, batch_id)
    who = batch.conversation.athlete.get_username()
    if (problem := check_note(action, note)) is not None:
        return Outcome(batch.pk, False, problem + " Nothing was decided.", who)
    if action == DECLINE:
        decision = proposals.decline(batch_id=batch.pk, coach=user, note=note)
    else:
        decision = proposals.approve(
            batch_id=batch.pk,
            coach=user,
            note=note,
            edits=(edits or None) if action == EDIT_APPROVE else None,
        )
    if decision.outcome == "invalid":
        return Outcome(
            batch.pk,
            False,
            f"Your edit can't be applied: {decision.message} Nothing was decided.",
            who,
        )
    if decision.outcome == "failed":
        return Outcome(batch.pk, False, decision.batch.error_message or "Applying failed.", who)
    if decision.outcome == "already_decided" and decision.message:
        return Outcome(batch.pk, False, f"Expired instead: {decision.message}", who)
    text = _TEXTS.get(decision.outcome, f"Outcome: {decision.outcome}.")
    return Outcome(batch.pk, decision.outcome in ("approved", "declined"), text, who)


def decide_many(
    user: Any, batch_ids: Iterable[Any], *, action: str, note: str = ""
) -> list[Outcome]:
    """Each batch decided on its own (no edits in bulk): the outcomes in the order given."""
    outcomes = []
    for raw in batch_ids:
        try:
            outcomes.append(decide(user, raw, action=action, note=note))
        except (NotFound, PermissionDenied):
            outcomes.append(Outcome(_as_int(raw), False, "Not found among your athletes' reviews."))
        except Exception:  # one failure doesn't block the rest; it is logged and reported
            logger.exception("Deciding batch %r failed", raw)
            outcomes.append(
                Outcome(_as_int(raw), False, "Failed unexpectedly; nothing was changed.")
            )
    return outcomes


def _as_int(raw: Any) -> int:
    return id_param(str(raw)) or 0


def edits_from(post: Any) -> dict[str, dict[str, str]]:
    """The card's form values of one batch (``f:<call id>:<path>`` fields) as call id → values."""
    edits: dict[str, dict[str, str]] = {}
    for key in post:
        if key.startswith("f:") and key.count(":") >= 2:
            _, call_id, path = key.split(":", 2)
            edits.setdefault(call_id, {})[path] = post.get(key, "")
    return edits
