"""Recording revisions (``program_change``) and going back (``revision_undo``,
``revision_restore``).

A revision is written by diffing a snapshot taken before a block of changes with one taken after
it, inside the caller's transaction with the program row locked. Undo and restore compute a target
snapshot by reverting recorded diffs, write it (``writing.write_state``) inside a
``program_change`` of their own, and so are revisions too: undoing an undo redoes.

Every revision is one part of a journal change set (``journal.services.part``): of the batch's
when it is written inside the journal's capture (a chat batch, through ``coach.engine``), else of
a change set of its own (an admin edit, an import, a restore, the seed). The one undo is the
journal's: it hands the revision to ``undo_part``, which the app registers with the journal at
``ProgramsConfig.ready()``; the program's history page lists the change sets holding its revisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from journal import services as journal

from ..models import Program, ProgramRevision, RevisionVia
from ..services import program_lock
from .lines import where
from .snapshot import PARENTS, Snapshot, copy_state, diff, revert, snapshot
from .writing import ORDER_FIELD, write_state


class HistoryError(Exception):
    """Undo or restore refused; ``str(error)`` is written for a person."""


class UndoConflict(HistoryError):
    """A later change touched what the undo would restore; ``blocking`` is that later revision
    (None when the obstacle is a change recorded outside history)."""

    def __init__(self, message: str, *, blocking: ProgramRevision | None) -> None:
        super().__init__(message)
        self.blocking = blocking


class AlreadyUndone(HistoryError):
    pass


class NothingToChange(HistoryError):
    """The program is already in the state asked for."""


# --- recording ----------------------------------------------------------------------------------


@dataclass
class ProgramChange:
    """The handle ``program_change`` yields; ``revision`` is set on exit (None if nothing changed)."""

    program: Program
    actor: Any
    via: str
    summary: str
    source: str = ""
    undoes: ProgramRevision | None = None
    before: Snapshot = field(default_factory=dict)
    revision: ProgramRevision | None = None
    version: int = 0  # the locked row's on entry; the settled one once a revision is written

    def start(self) -> ProgramChange:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("program_change must run inside transaction.atomic().")
        self.version = program_lock(program_id=self.program.pk).version
        self.before = snapshot(program_id=self.program.pk)
        return self

    def finish(self) -> ProgramRevision | None:
        after = snapshot(program_id=self.program.pk)
        changes = diff(self.before, after)
        if not changes:
            return None
        for change in changes:
            state = after if change["op"] == "create" else self.before
            change["where"] = where(state, change["model"], change["pk"])
            if change["op"] == "update" and change["model"] in PARENTS:
                attname = PARENTS[change["model"]][1]
                change["parent"] = self.before[change["model"]][change["pk"]][attname]
        pk = self.program.pk
        # One revision is one version step: the services bumped the version once per call inside
        # the block (undo, restore and the seed write without them), and no other transaction saw
        # those steps (the row is locked), so the revision settles it at the version before + 1.
        version = self.before["program"][pk]["version"] + 1
        Program.objects.filter(pk=pk).update(version=version, updated_at=timezone.now())
        self.program.version = self.version = version
        last = ProgramRevision.objects.filter(program_id=pk).aggregate(n=Max("number"))["n"]
        self.revision = ProgramRevision.objects.create(
            program_id=pk,
            number=(last or 0) + 1,
            actor=_user_or_none(self.actor),
            via=self.via,
            summary=self.summary,
            source=self.source,
            changes=changes,
            program_version=version,
            undoes=self.undoes,
        )
        journal.part(self.revision, athlete=self.program.athlete_id, summary=self.summary)
        return self.revision

    def __enter__(self) -> ProgramChange:
        return self.start()

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.finish()


def program_change(
    *, program: Program, actor: Any, via: str, summary: str, source: str = ""
) -> ProgramChange:
    """``with transaction.atomic(), program_change(...) as change:`` records what the block
    changes as one revision (``change.revision``; None when nothing changed). The program row is
    locked for the rest of the transaction. Where one ``with`` can't span the work (the admin
    saves a form and its inlines in two hooks), call ``start()`` and ``finish()``."""
    return ProgramChange(program=program, actor=actor, via=via, summary=summary, source=source)


def _user_or_none(actor: Any) -> Any:
    return actor if getattr(actor, "is_authenticated", False) else None


# --- what a change touches ----------------------------------------------------------------------


@dataclass
class _Touch:
    fields: set[tuple[str, int, str]]
    whole: set[tuple[str, int]]  # rows created or deleted
    parents: set[tuple[str, int]]  # parents of rows created or deleted
    orders: set[tuple[str, int]]  # (child model, parent pk) whose order changed

    def objects(self) -> set[tuple[str, int]]:
        return {(m, pk) for m, pk, _ in self.fields} | self.whole | self.parents

    def overlaps(self, other: _Touch) -> bool:
        return bool(
            self.fields & other.fields
            or self.orders & other.orders
            or self.whole & other.objects()
            or other.whole & self.objects()
        )


def _touch(changes: list[dict[str, Any]]) -> _Touch:
    touch = _Touch(set(), set(), set(), set())
    for change in changes:
        key, pk, op = change["model"], change["pk"], change["op"]
        row = change["after"] if op == "create" else change["before"]
        if op == "update":
            touch.fields |= {(key, pk, name) for name in change["after"]}
            if key in ORDER_FIELD and ORDER_FIELD[key] in change["after"]:
                touch.orders.add((key, change.get("parent")))
            continue
        touch.whole.add((key, pk))
        if key in PARENTS:
            touch.parents.add((PARENTS[key][0], row[PARENTS[key][1]]))
        if key in ORDER_FIELD:
            touch.orders.add((key, row[PARENTS[key][1]]))
    return touch


def _blocking(revision: ProgramRevision) -> tuple[ProgramRevision, str] | None:
    """The first later revision that touched what ``revision`` changed, and where."""
    mine = _touch(revision.changes)
    later = list(
        ProgramRevision.objects.filter(program_id=revision.program_id, number__gt=revision.number)
        .select_related("actor")
        .order_by("number")
    )
    undone_by = {other.undoes_id: other.pk for other in later if other.undoes_id is not None}

    def cancelled(pk: int) -> bool:
        """Undone by a later revision that still stands (was not undone in turn)."""
        undo = undone_by.get(pk)
        return undo is not None and undo not in undone_by

    for other in later:
        if cancelled(other.pk) or (other.undoes_id in undone_by and cancelled(other.undoes_id)):
            continue  # a later change and the undo that cancelled it
        for change in other.changes:
            if mine.overlaps(_touch([change])):
                return other, change.get("where") or change["model"]
    return None


def describe(revision: ProgramRevision) -> str:
    """ "change #7 (admin, coach, 2026-11-22 10:40)" """
    who = revision.actor.get_username() if revision.actor else "system"
    when = timezone.localtime(revision.created_at).strftime("%Y-%m-%d %H:%M")
    return f"change #{revision.number} ({revision.via}, {who}, {when})"


# --- undo and restore ---------------------------------------------------------------------------


def _orphan(state: Snapshot) -> tuple[str, int] | None:
    for key, (parent_key, attname) in PARENTS.items():
        for pk, row in state.get(key, {}).items():
            if row[attname] not in state.get(parent_key, {}):
                return key, pk
    return None


def revision_undo(*, revision: ProgramRevision, actor: Any, summary: str = "") -> ProgramRevision:
    """Put back everything ``revision`` changed, as a new revision (``via=undo``). Refuses with
    ``AlreadyUndone``, ``UndoConflict`` (a later change touched the same rows or fields) or
    ``NothingToChange``. Runs in its own transaction (or the caller's)."""
    with transaction.atomic():
        revision = ProgramRevision.objects.select_related("program").get(pk=revision.pk)
        program = revision.program
        handle = program_change(
            program=program,
            actor=actor,
            via=RevisionVia.UNDO,
            summary=summary or f"Undid change #{revision.number}: {revision.summary}".strip(),
        )
        handle.undoes = revision
        handle.start()
        if ProgramRevision.objects.filter(undoes=revision).exists():
            raise AlreadyUndone(f"Change #{revision.number} has already been undone.")
        found = _blocking(revision)
        if found is not None:
            blocking, place = found
            raise UndoConflict(
                f"Can't undo: {describe(blocking)} changed {place} since.", blocking=blocking
            )
        target = copy_state(handle.before)
        revert(target, revision.changes)
        orphan = _orphan(target)
        if orphan is not None:
            place = where(handle.before, *orphan)
            raise UndoConflict(
                f"Can't undo: {place} was added since, inside what change #{revision.number} "
                "added.",
                blocking=None,
            )
        write_state(current=handle.before, target=target)
        undo = handle.finish()
        if undo is None:
            raise NothingToChange(
                f"The program already is as it was before change #{revision.number}."
            )
        return undo


def revision_restore(*, revision: ProgramRevision, actor: Any) -> ProgramRevision:
    """Bring the whole program back to its state right after ``revision`` by reverting every
    later revision, newest first, as a new revision (``via=restore``). Removed weeks, sessions
    and exercises come back with their logged sets. ``NothingToChange`` if it already is."""
    with transaction.atomic():
        revision = ProgramRevision.objects.select_related("program").get(pk=revision.pk)
        handle = program_change(
            program=revision.program,
            actor=actor,
            via=RevisionVia.RESTORE,
            summary=f"Restored the program as it was after change #{revision.number}.",
        ).start()
        target = copy_state(handle.before)
        later = ProgramRevision.objects.filter(
            program_id=revision.program_id, number__gt=revision.number
        ).order_by("-number")
        for other in later:
            revert(target, other.changes)
        write_state(current=handle.before, target=target)
        restored = handle.finish()
        if restored is None:
            raise NothingToChange(
                f"The program already is as it was after change #{revision.number}."
            )
        return restored


def undo_part(revision: ProgramRevision, *, actor: Any, summary: str = "") -> None:
    """The journal's undoer of a revision recorded as a part of a change set: ``revision_undo``,
    its refusals (a later change overlaps, already undone) as the journal's, same messages."""
    try:
        revision_undo(revision=revision, actor=actor, summary=summary)
    except HistoryError as refused:
        raise journal.JournalError(str(refused)) from refused


def revision_is_undone(revision: ProgramRevision) -> bool:
    return ProgramRevision.objects.filter(undoes=revision).exists()
