"""Program history: every change of a program is a ``ProgramRevision`` that can be undone or
restored.

Why our own revision records rather than django-simple-history or django-reversion: those hook
``Model.save()`` and ``delete()`` (signals). Spotter's position services renumber siblings with
``QuerySet.update()`` and insert trees with ``bulk_create``, which send no signals, so those
libraries would miss most renumberings and every bulk insert, and undo would restore wrong
positions. Here a revision is the diff of two snapshots of the whole program tree, read with
``values()`` in a constant number of queries before and after the change, so it sees every write
whatever made it, stores only what changed, and knows the positions as they were.

* ``snapshot(program_id=...)``: the tree as plain values (six queries).
* ``program_change(program=..., actor=..., via=..., summary=..., source=...)``: records the block
  it wraps as one revision (inside ``transaction.atomic()``).
* ``revision_undo(revision=..., actor=..., summary=...)``: put back what one revision changed,
  refused when a later revision touched the same (object, field) pairs or the order of the same
  siblings (``UndoConflict``) or when it was undone already (``AlreadyUndone``).
* ``revision_restore(revision=..., actor=...)``: the whole program as right after a revision.
* ``revision_lines(revision)``: the readable diff.
* Each revision is a part of a journal change set; ``journal.undo`` of that change set is the one
  undo (chat and admin alike), through ``undo_part`` (``register_with_journal``, called by
  ``ProgramsConfig.ready()``); ``change_set_of(revision)`` finds it.
"""

from journal import services as journal

from ..models import ProgramRevision
from .lines import revision_lines
from .recording import (
    AlreadyUndone,
    HistoryError,
    NothingToChange,
    ProgramChange,
    UndoConflict,
    describe,
    program_change,
    revision_is_undone,
    revision_restore,
    revision_undo,
    undo_part,
)
from .snapshot import diff, snapshot

__all__ = [
    "AlreadyUndone",
    "HistoryError",
    "NothingToChange",
    "ProgramChange",
    "UndoConflict",
    "change_set_of",
    "describe",
    "diff",
    "program_change",
    "register_with_journal",
    "revision_is_undone",
    "revision_lines",
    "revision_restore",
    "revision_undo",
    "snapshot",
    "undo_part",
]


def register_with_journal() -> None:
    """The journal undoes a revision part through ``undo_part`` (at ``ProgramsConfig.ready()``)."""
    journal.register_undoer(ProgramRevision, undo_part)


def change_set_of(revision: ProgramRevision):
    """The journal's change set holding ``revision`` (None for a revision older than the journal
    and not migrated, which cannot happen after ``programs`` migration 0005)."""
    return journal.holding(ProgramRevision, [revision.pk]).first()
