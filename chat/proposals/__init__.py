"""The proposal lifecycle, the only code that writes a ``PendingToolBatch``.

Its states and transitions are one module, ``lifecycle``, which reads as the state diagram in its
docstring: queue → edit / remove an item → apply or cancel (or expire; the coach's review:
approve / decline) → undo, and on the way stale (the program changed) and failed (all or
nothing). Beside it, what is not a transition: ``core`` (reading, locking, policy questions,
recording a decision), ``propose`` (deciding what becomes of a response's write calls), ``edit``
(what a card's form may change), ``auto`` (the writes that need no Apply).

``propose`` is called by the agent loop; ``apply``, ``cancel``, ``edit_call``, ``remove_call``
and ``undo`` by the chat's views; ``approve``, ``decline`` and ``undo`` by the admin;
``expire_due`` by the periodic task; ``undone_elsewhere`` by the journal's ``changed`` signal
(``journal_changed``, connected in ``chat.apps``). Each decision is a ``BatchDecision`` row and an audit-log
transition written in the same transaction; the text the model and the athlete read is rendered
from those rows by ``chat.notes``. An applied batch is one journal change set
(``applied_change_set``), undone by the journal's one undo; undone outside the chat (the program's
History page), the batch follows (``undone_elsewhere``, on the journal's ``changed`` signal).
"""

from .core import Decision, applied_change_set, expiry_note, find_open, is_due, needs_review
from .edit import EditResult, editable_fields
from .lifecycle import (
    apply,
    approve,
    cancel,
    decline,
    edit_call,
    expire,
    expire_due,
    remove_call,
    undo,
    undone_elsewhere,
)
from .propose import AWAITING_CONFIRMATION, Proposal, propose

__all__ = [
    "AWAITING_CONFIRMATION",
    "Decision",
    "EditResult",
    "Proposal",
    "applied_change_set",
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
    "journal_changed",
    "needs_review",
    "open_batch",
    "propose",
    "remove_call",
    "undo",
    "undone_elsewhere",
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
    in it, with the reason (``core.expiry_note``); clicks on its card do the same."""
    batch = find_open(conversation=conversation)
    if batch is not None:
        expire(batch_id=batch.pk)


def journal_changed(sender, *, change_set, undone: bool, actor=None, **kwargs) -> None:
    """The journal's ``changed`` receiver (connected in ``chat.apps``): a change set undone
    elsewhere marks the batch it applied as undone (``lifecycle.undone_elsewhere``)."""
    if undone:
        undone_elsewhere(change_set_id=change_set.pk, actor=actor)
