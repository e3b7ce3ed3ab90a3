"""The proposal lifecycle, the only code that writes a ``PendingToolBatch``:

    propose (validate, preview, queue)  →  edit / remove an item (re-preview)
      →  Apply or Cancel  (→ the coach's review: approve / decline)  →  tell the model  →  undo
    and on the way: stale (the program changed), failed (all or nothing), expired (TTL).

``propose`` is called by the agent loop; ``apply``, ``cancel``, ``edit_call``, ``remove_call``
and ``undo`` by the chat's views; ``approve``, ``decline`` and ``undo`` by the admin;
``expire_due`` by the periodic task. Each decision is a ``BatchDecision`` row and an audit-log
transition written in the same transaction; the text the model and the athlete read is rendered
from those rows by ``chat.notes``.
"""

from .core import Decision, expiry_note, find_open, is_due
from .decide import apply, approve, cancel, decline, expire, expire_due, needs_review
from .edit import EditResult, edit_call, editable_fields, remove_call
from .propose import AWAITING_CONFIRMATION, Proposal, propose
from .undo import applied_revision, undo

__all__ = [
    "AWAITING_CONFIRMATION",
    "Decision",
    "EditResult",
    "Proposal",
    "applied_revision",
    "apply",
    "approve",
    "cancel",
    "decline",
    "edit_call",
    "editable_fields",
    "expire",
    "expire_due",
    "expire_superseded",
    "expiry_note",
    "find_open",
    "is_due",
    "needs_review",
    "open_batch",
    "propose",
    "remove_call",
    "undo",
]


def open_batch(*, conversation):
    """The batch waiting for a decision, if any; one past its time expires on the way."""
    batch = find_open(conversation=conversation)
    if batch is not None and is_due(batch):
        expire(batch_id=batch.pk)
        return None
    return batch


def expire_superseded(*, conversation):
    """Opening a read-only conversation (about an earlier program) expires the batch left open
    in it, with the reason (``expiry_note``); clicks on its card do the same."""
    batch = find_open(conversation=conversation)
    if batch is not None:
        expire(batch_id=batch.pk)
