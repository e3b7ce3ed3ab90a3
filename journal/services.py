"""Recording applied changes and the one undo.

Usage (``coach.engine.apply_calls`` does this around a batch's writes)::

    with transaction.atomic():
        with journal.capture(athlete=user, summary="Add 2 recipes to Groceries") as journal_set:
            ...                              # services call created(obj) / updated(obj, before)
    journal_set.change_set_id              # None when nothing was recorded

* ``capture`` must sit inside the transaction that holds the writes: its ``ChangeSet`` row is
  written at entry, each ``Change`` row as it is recorded, so a savepoint rolled back (a failed
  call) takes its own changes with it; at exit an empty change set is deleted and the id is None.
* Nested captures join the outermost one (one batch, one change set); the inner handle is the
  outer's, whose id is final once the outer block has exited. The current capture lives in a
  ``contextvars.ContextVar``, so threads and asyncio tasks each have their own.
* ``created(obj)`` and ``updated(obj, before)`` outside any capture record nothing (a no-op), so
  a data service may call them unconditionally; the admin and seed scripts write unjournaled.
* ``created(obj)``: obj's model has a nullable ``deleted_at``; undo soft-deletes it (refused when
  it is already deleted or gone).
* Any change is refused when a later change set, not undone, recorded a change of the same
  object (undo the later one first); unjournaled edits are caught by the value check below.
* ``updated(obj, before)``: called after ``save()``, ``before`` = {field name: old value} of the
  fields the save changed; undo puts ``before`` back only while the object still holds what this
  change wrote, else ``JournalConflict`` naming the object.
* ``part(obj, athlete=...)``: a family's own record of a change (the program's revision) joins
  the current capture as one part; outside any capture it gets a change set of its own, so a
  change made outside a batch (a coach's admin edit, a restore) is in the journal too. Undo hands
  the part to the undoer its family registered (``register_undoer(model, undoer)``, at the app's
  ``ready()``): ``undoer(obj, actor=..., summary=...)`` puts it back or raises ``JournalError``
  with a message naming the later change in the way.
* ``undo(change_set, actor, summary="")``: every part, newest first, all or nothing in one
  transaction, sets ``undone_at``; raises ``JournalError`` (already undone, or a part's refusal)
  or ``JournalConflict``. What the undo itself records (the program's undo revision) is a new
  change set whose ``undoes`` is the one undone.
* Each committed change set and each committed undo sends ``journal.signals.changed``.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils import timezone

from .models import Change, ChangeSet
from .signals import changed

__all__ = [
    "Capture",
    "JournalConflict",
    "JournalError",
    "capture",
    "created",
    "holding",
    "part",
    "part_ids",
    "parts",
    "register_undoer",
    "undo",
    "updated",
]

SUMMARY_LIMIT = 300


class JournalError(Exception):
    """Undo refused; ``message`` is written for the athlete."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class JournalConflict(JournalError):
    """A later change touched an object this change set wrote; ``label`` names that object."""

    def __init__(self, label: str) -> None:
        super().__init__(f"{label} was changed after these changes, so they can't be undone.")
        self.label = label


@dataclass
class Capture:
    athlete: Any  # the athlete (a user, or its primary key) the change set belongs to
    summary: str
    change_set_id: int | None = None
    _recorded: bool = False


_current: contextvars.ContextVar[Capture | None] = contextvars.ContextVar(
    "journal_capture", default=None
)


def _announce(change_set: ChangeSet, *, undone: bool, actor: Any = None) -> None:
    send = partial(
        changed.send,
        sender=ChangeSet,
        change_set=change_set,
        athlete=change_set.athlete,
        undone=undone,
        actor=actor,
    )
    transaction.on_commit(send, robust=True)


@contextmanager
def capture(
    *, athlete: Any, summary: str = "", undoes: ChangeSet | None = None
) -> Iterator[Capture]:
    outer = _current.get()
    if outer is not None:
        yield outer
        return
    change_set = ChangeSet.objects.create(
        athlete_id=getattr(athlete, "pk", athlete), summary=summary[:SUMMARY_LIMIT], undoes=undoes
    )
    handle = Capture(athlete=athlete, summary=summary, change_set_id=change_set.pk)
    token = _current.set(handle)
    try:
        yield handle
    finally:
        _current.reset(token)
    # Only on a normal exit (an exception rolls the caller's transaction back anyway).
    if not Change.objects.filter(change_set_id=change_set.pk).exists():
        change_set.delete()
        handle.change_set_id = None
    elif undoes is None:  # an undo announces itself once, as an undo
        _announce(change_set, undone=False)


class _ExactEncoder(DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds: Django's cuts them to milliseconds
    (ECMA-262), so a written ``deleted_at`` never read back equal to the stored value and undoing
    a soft delete was always refused as "changed after these changes"."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            text = o.isoformat()
            return text[:-6] + "Z" if text.endswith("+00:00") else text
        return super().default(o)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, cls=_ExactEncoder))


def _field(model: type[models.Model], name: str) -> models.Field:
    return model._meta.get_field(name)


def _values(obj: models.Model, names: list[str]) -> dict[str, Any]:
    return {name: _json(getattr(obj, _field(type(obj), name).attname)) for name in names}


def _record(obj: models.Model, action: str, before: dict | None, after: dict) -> None:
    handle = _current.get()
    if handle is None:
        return
    Change.objects.create(
        change_set_id=handle.change_set_id,
        content_type=ContentType.objects.get_for_model(type(obj)),
        object_id=obj.pk,
        action=action,
        before=before,
        after=after,
    )


def created(obj: models.Model) -> None:
    """Record that ``obj`` was created (after its first save); undo soft-deletes it."""
    _field(type(obj), "deleted_at")  # fails loudly at the call site, not at undo time
    _record(obj, Change.Action.CREATED, None, {"deleted_at": None, "label": str(obj)[:200]})


def updated(obj: models.Model, before: dict[str, Any]) -> None:
    """Record that the save just made changed ``before``'s fields from those values."""
    names = list(before)
    _record(
        obj,
        Change.Action.UPDATED,
        {name: _json(value) for name, value in before.items()},
        _values(obj, names),
    )


# --- parts recorded by a family ------------------------------------------------------------------

Undoer = Callable[..., None]
_UNDOERS: dict[str, Undoer] = {}


def register_undoer(model: type[models.Model], undoer: Undoer) -> None:
    """``undoer(obj, actor=..., summary=...)`` puts back what a part of ``model`` recorded."""
    _UNDOERS[model._meta.label_lower] = undoer


def part(obj: models.Model, *, athlete: Any, summary: str = "") -> int | None:
    """Record ``obj`` (a family's own record of a change, already saved) as one part of the
    current change set, or of a change set of its own outside any capture; returns its id."""
    with capture(athlete=athlete, summary=summary) as handle:
        _record(obj, Change.Action.PART, None, None)
    return handle.change_set_id


def parts(change_set: ChangeSet | int, model: type[models.Model] | None = None) -> list[Any]:
    """The objects recorded as parts of ``change_set`` (only ``model``'s), in recording order."""
    pk = change_set.pk if isinstance(change_set, ChangeSet) else change_set
    rows = Change.objects.filter(change_set_id=pk, action=Change.Action.PART)
    if model is not None:
        rows = rows.filter(content_type=ContentType.objects.get_for_model(model))
    out = []
    for row in rows.select_related("content_type").order_by("pk"):
        found = row.content_type.model_class()._base_manager.filter(pk=row.object_id).first()
        if found is not None:
            out.append(found)
    return out


def holding(model: type[models.Model], object_ids: Any) -> models.QuerySet[ChangeSet]:
    """The change sets holding any of ``object_ids`` of ``model`` as a part (a history view:
    ``object_ids`` may be a subquery)."""
    return ChangeSet.objects.filter(
        changes__action=Change.Action.PART,
        changes__content_type=ContentType.objects.get_for_model(model),
        changes__object_id__in=object_ids,
    ).distinct()


def part_ids(change_sets: Any, model: type[models.Model]) -> dict[int, list[int]]:
    """``{change set id: [ids of model's objects recorded as its parts]}`` for ``change_sets``."""
    out: dict[int, list[int]] = {}
    rows = Change.objects.filter(
        change_set__in=change_sets,
        action=Change.Action.PART,
        content_type=ContentType.objects.get_for_model(model),
    ).values_list("change_set_id", "object_id")
    for change_set_id, object_id in rows.order_by("pk"):
        out.setdefault(change_set_id, []).append(object_id)
    return out


def _undo_part(change: Change, actor: Any, summary: str) -> None:
    model = change.content_type.model_class()
    undoer = _UNDOERS.get(model._meta.label_lower)
    obj = model._base_manager.filter(pk=change.object_id).first()
    if obj is None:
        raise JournalConflict(_label(model, None, change.object_id))
    if undoer is None:
        raise JournalError(f"{_label(model, obj, change.object_id)} can't be undone.")
    undoer(obj, actor=actor, summary=summary)


def _label(model: type[models.Model], obj: models.Model | None, object_id: int) -> str:
    noun = str(model._meta.verbose_name).capitalize()
    return f'{noun} "{obj}"' if obj is not None else f"{noun} {object_id}"


_MILLISECONDS = re.compile(r"\.\d{3}(Z|[+-]\d\d:\d\d)?$")


def _same(field: models.Field, current: Any, written: Any) -> bool:
    try:
        value = field.to_python(written)
    except Exception:  # a value the field can't read back never matches
        return False
    if (
        isinstance(current, datetime.datetime)
        and isinstance(written, str)
        and _MILLISECONDS.search(written)
    ):
        # Recorded before times kept their microseconds (``_ExactEncoder``): milliseconds match.
        current = current.replace(microsecond=current.microsecond // 1000 * 1000)
    return value == current


def _undo_one(change: Change, now: Any) -> None:
    model = change.content_type.model_class()
    obj = model._base_manager.select_for_update().filter(pk=change.object_id).first()
    if obj is None:
        raise JournalConflict(_label(model, None, change.object_id))
    later = (
        Change.objects.filter(
            content_type_id=change.content_type_id,
            object_id=change.object_id,
            pk__gt=change.pk,
            change_set__undone_at__isnull=True,
        )
        .exclude(change_set_id=change.change_set_id)
        .exists()
    )
    if later:  # a later batch (still applied) changed it: undoing this one would undo that too
        raise JournalConflict(_label(model, obj, change.object_id))
    if change.action == Change.Action.CREATED:
        if obj.deleted_at is not None:
            raise JournalConflict(_label(model, obj, change.object_id))
        obj.deleted_at = now
        obj.save(update_fields=["deleted_at"])
        return
    fields = {name: _field(model, name) for name in change.after}
    for name, field in fields.items():
        if not _same(field, getattr(obj, field.attname), change.after[name]):
            raise JournalConflict(_label(model, obj, change.object_id))
    for name, field in fields.items():
        setattr(obj, field.attname, field.to_python(change.before[name]))
    obj.save(update_fields=[field.name for field in fields.values()])


def undo(change_set: ChangeSet | int, actor: Any = None, summary: str = "") -> ChangeSet:
    """Put back everything ``change_set`` recorded, newest first, all or nothing: the one undo of
    every applied change. ``actor`` is who asked (the caller has checked they may); the parts'
    undoers record the undo as theirs (the program's undo revision, by ``actor``, with
    ``summary``), in a new change set that ``undoes`` this one."""
    pk = change_set.pk if isinstance(change_set, ChangeSet) else change_set
    with transaction.atomic():
        locked = ChangeSet.objects.select_for_update().get(pk=pk)
        if locked.undone_at is not None:
            raise JournalError("These changes were already undone.")
        now = timezone.now()
        title = summary or f"Undo of: {locked.summary}"
        with capture(athlete=locked.athlete_id, summary=title, undoes=locked):
            for change in locked.changes.select_related("content_type").order_by("-pk"):
                if change.action == Change.Action.PART:
                    _undo_part(change, actor, summary)
                else:
                    _undo_one(change, now)
        locked.undone_at = now
        locked.save(update_fields=["undone_at"])
        _announce(locked, undone=True, actor=actor)
    return locked
