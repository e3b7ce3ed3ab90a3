"""Make the database match a target snapshot of one program (for undo and restore).

The difference between the current and the target snapshot is written in this order, so that the
unique (parent, position) and (exercise, set_number) constraints never trip and parents exist
before their children:

1. rows the target lacks are deleted, children first;
2. rows whose position (or set number, or parent) changes are moved out of the way, by the same
   large offset the position services use;
3. rows the target adds are created with their original primary keys, parents first;
4. changed fields of the remaining rows are written, which also brings moved rows to their place.

Values come from snapshots (ISO strings for dates, strings for decimals); each field's
``to_python`` turns them back into what the model holds.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Case, F, Value, When

from ..services import POSITION_OFFSET
from .snapshot import MODELS, NOT_DIFFED, PARENTS, Snapshot

#: The field unique among siblings, per model.
ORDER_FIELD = {"week": "position", "session": "position", "exercise": "position",
               "setresult": "set_number"}  # fmt: skip


def _python(model: type[models.Model], row: dict[str, Any]) -> dict[str, Any]:
    fields = {f.attname: f for f in model._meta.concrete_fields}
    return {name: fields[name].to_python(value) for name, value in row.items() if name in fields}


def write_state(*, current: Snapshot, target: Snapshot) -> None:
    """Write to the database whatever makes ``current`` (the database now) equal ``target``."""
    keys = list(MODELS)
    for key in reversed(keys):
        model = MODELS[key][0]
        gone = [pk for pk in current.get(key, {}) if pk not in target.get(key, {})]
        if gone:
            model.objects.filter(pk__in=gone).delete()
    for key, order in ORDER_FIELD.items():
        model = MODELS[key][0]
        parent = PARENTS[key][1]
        moving = [
            pk
            for pk, row in target.get(key, {}).items()
            if pk in current.get(key, {})
            and any(row.get(f) != current[key][pk].get(f) for f in (order, parent))
        ]
        if moving:
            model.objects.filter(pk__in=moving).update(**{order: F(order) + POSITION_OFFSET})
    for key in keys:
        model = MODELS[key][0]
        new = [
            model(pk=pk, **_python(model, row))
            for pk, row in target.get(key, {}).items()
            if pk not in current.get(key, {})
        ]
        if new:
            model.objects.bulk_create(new)
            _keep_auto_times(model, new, target[key])
    for key in keys:
        model = MODELS[key][0]
        skipped = NOT_DIFFED.get(key, frozenset())
        for pk, row in target.get(key, {}).items():
            old = current.get(key, {}).get(pk)
            if old is None:
                continue
            changed = {f: v for f, v in row.items() if f not in skipped and old.get(f) != v}
            if changed:
                model.objects.filter(pk=pk).update(**_python(model, changed))


def _keep_auto_times(model: type[models.Model], rows: list[models.Model], target: dict) -> None:
    """``auto_now_add`` fields are overwritten on insert; put the recorded times back."""
    auto = [f for f in model._meta.concrete_fields if getattr(f, "auto_now_add", False) is True]
    for field in auto:
        whens = [
            When(pk=obj.pk, then=Value(field.to_python(target[obj.pk][field.attname])))
            for obj in rows
            if target[obj.pk].get(field.attname) is not None
        ]
        if whens:
            model.objects.filter(pk__in=[obj.pk for obj in rows]).update(
                **{field.attname: Case(*whens, output_field=field)}
            )
