"""Saving the admin's inline formsets of weeks, sessions, exercises and cardio through
``programs.services``.

Positions are unique among siblings, so rows are inserted, removed and reordered with the position
services (the unique (parent, position) constraint never trips, even when a coach swaps two rows);
fields are saved with ``object_update``. ``plan_order`` turns what the coach typed into a
permutation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import models

from .. import services
from ..models import Exercise, Session, Week

# --- ordering a formset's rows ------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedRow:
    """One sibling as the admin submitted it: ``old`` is its position when the page was loaded
    (None for a new row), ``requested`` what the coach typed (None: keep it, or the end if new)."""

    key: Any
    old: int | None
    requested: int | None


def plan_order(rows: Sequence[PlacedRow]) -> list[Any]:
    """The keys of ``rows`` in their new order, positions 1..n.

    Rows the coach moved (a requested position different from the old one, or a new row with a
    position) take their requested slot, clamped to 1..n; ties and collisions go by (requested,
    old position) to the nearest free slot. New rows with no position go to the end in form order.
    The rows that did not move fill the remaining slots in their old order, so "move 1 to 3"
    gives 2, 3, 1 and swapping 1 and 3 gives 3, 2, 1."""
    at_end = [row for row in rows if row.old is None and row.requested is None]
    moved = [
        row
        for row in rows
        if row not in at_end and row.requested is not None and row.requested != row.old
    ]
    staying = [row for row in rows if row not in at_end and row not in moved]
    last = len(rows) - len(at_end)  # slots 1..last are for moved and staying rows
    slots: list[Any] = [None] * last
    moved.sort(key=lambda r: (r.requested, r.old if r.old is not None else math.inf))
    for row in moved:
        wanted = min(max(row.requested, 1), last) - 1
        free_after = [i for i in range(wanted, last) if slots[i] is None]
        index = free_after[0] if free_after else max(i for i in range(wanted) if slots[i] is None)
        slots[index] = row.key
    staying_iter = iter(sorted(staying, key=lambda r: r.old if r.old is not None else math.inf))
    for index in range(last):
        if slots[index] is None:
            slots[index] = next(staying_iter).key
    return slots + [row.key for row in at_end]


@dataclass(frozen=True)
class _Kind:
    """How to insert, remove, move and reorder one kind of positioned child."""

    parent_field: str
    insert: Callable[..., models.Model]
    remove: Callable[[models.Model], None]
    move: Callable[[models.Model, int], None]
    reorder: Callable[[models.Model, Iterable[int]], None]

    def siblings(self, model: type[models.Model], parent: models.Model) -> models.QuerySet:
        return model.objects.filter(**{self.parent_field: parent})


KINDS: dict[type[models.Model], _Kind] = {
    Week: _Kind(
        parent_field="program",
        insert=lambda parent, position, fields: services.week_insert(
            program=parent, position=position, **fields
        ),
        remove=lambda obj: services.week_remove(week=obj),
        move=lambda obj, position: services.week_move(week=obj, new_position=position),
        reorder=lambda parent, pks: services.weeks_reorder(program=parent, ordered_pks=pks),
    ),
    Session: _Kind(
        parent_field="week",
        insert=lambda parent, position, fields: services.session_insert(
            week=parent, position=position, **fields
        ),
        remove=lambda obj: services.session_remove(session=obj),
        move=lambda obj, position: services.session_move(session=obj, new_position=position),
        reorder=lambda parent, pks: services.sessions_reorder(week=parent, ordered_pks=pks),
    ),
    Exercise: _Kind(
        parent_field="session",
        insert=lambda parent, position, fields: services.exercise_insert(
            session=parent, position=position, **fields
        ),
        remove=lambda obj: services.exercise_remove(exercise=obj),
        move=lambda obj, position: services.exercise_move(exercise=obj, new_position=position),
        reorder=lambda parent, pks: services.exercises_reorder(session=parent, ordered_pks=pks),
    ),
}


def _plain_field_names(model: type[models.Model], *, skip: Iterable[str] = ()) -> set[str]:
    skipped = {"position", "version", *skip}
    return {
        f.name
        for f in model._meta.concrete_fields
        if not f.primary_key and f.editable and f.name not in skipped
    }


def plain_values(obj: models.Model, *, skip: Iterable[str] = ()) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in _plain_field_names(type(obj), skip=skip)}


def update_changed(obj: models.Model, changed: Iterable[str], *, skip: Iterable[str] = ()) -> None:
    names = _plain_field_names(type(obj), skip=skip)
    fields = {name: getattr(obj, name) for name in changed if name in names}
    if fields:
        services.object_update(obj=obj, fields=fields)


def adopt(target: models.Model, saved: models.Model) -> None:
    """Make the form's instance the saved row (for the admin's change message and redirect)."""
    target.pk = saved.pk
    if hasattr(saved, "position"):
        target.position = saved.position
    target._state.adding = False
    target._state.db = saved._state.db


def save_positioned_formset(*, formset: Any, parent: models.Model) -> None:
    """Save an inline formset of weeks, sessions or exercises through the position services."""
    model = formset.model
    kind = KINDS[model]
    formset.save(commit=False)  # fills new/changed/deleted_objects; writes nothing
    for obj in formset.deleted_objects:
        fresh = model.objects.filter(pk=obj.pk).first()
        if fresh is not None:
            kind.remove(fresh)
    for obj, changed in formset.changed_objects:
        update_changed(obj, changed, skip=[kind.parent_field])

    rows: list[PlacedRow] = []
    submitted_pks: set[int] = set()
    for form in formset.forms:
        if not hasattr(form, "cleaned_data") or form in formset.deleted_forms:
            continue
        requested = form.cleaned_data.get("position")
        if form.instance.pk is not None:
            old = form.initial.get("position", form.instance.position)
            submitted_pks.add(form.instance.pk)
            rows.append(PlacedRow(key=form.instance.pk, old=old, requested=requested))
        elif form.has_changed():
            fresh = kind.insert(
                parent,
                kind.siblings(model, parent).count() + 1,
                plain_values(form.instance, skip=[kind.parent_field]),
            )
            adopt(form.instance, fresh)
            rows.append(PlacedRow(key=fresh.pk, old=None, requested=requested))
    current = list(kind.siblings(model, parent).order_by("position").values_list("pk", "position"))
    # Rows another writer removed since the page was loaded are gone; rows they added keep their
    # place among the others.
    current_pks = {pk for pk, _ in current}
    rows = [row for row in rows if row.key in current_pks]
    rows.extend(
        PlacedRow(key=pk, old=position, requested=None)
        for pk, position in current
        if pk not in submitted_pks and pk not in {row.key for row in rows}
    )
    ordered = plan_order(rows)
    if ordered != [pk for pk, _ in current]:
        kind.reorder(parent, ordered)
        positions = {pk: index for index, pk in enumerate(ordered, start=1)}
        for form in formset.forms:
            if form.instance.pk in positions:
                form.instance.position = positions[form.instance.pk]


def save_cardio_formset(*, formset: Any, session: Session) -> None:
    """Save the (at most one) cardio block inline through ``services.cardio_set``."""
    formset.save(commit=False)
    for _obj in formset.deleted_objects:
        services.cardio_set(session=session, fields=None)
    for obj, changed in formset.changed_objects:
        update_changed(obj, changed, skip=["session"])
    for obj in formset.new_objects:
        adopt(obj, services.cardio_set(session=session, fields=plain_values(obj, skip=["session"])))
