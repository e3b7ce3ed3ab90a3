"""Editing a batch before Apply (seed 004's Modify): change one item's values, or remove an item.

An edit replaces one call's arguments with the athlete's values, re-validates them (schema, then
state), re-previews the whole batch and bumps its revision, so Apply binds to exactly what the card
shows. An invalid value changes nothing: the errors come back keyed by field, for the form. Each
accepted edit is a ``BatchDecision`` (``edited`` / ``removed``) with the before and after values;
the model reads them when the batch is decided.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.db import transaction

from coach import engine
from coach.toolcalls import ToolCall
from coach.wording import athlete_words

from .. import audit
from ..models import PendingToolBatch
from .core import (
    Decision,
    Kind,
    Record,
    calls_of,
    context_for,
    expiry_note,
    gate,
    lock_for_athlete,
    record_decision,
    store_preview,
)
from .decide import expire

# Arguments that say which object a call is about: shown on the card, never edited there (nor the
# model's own confidence, a guardrail input).
REF_FIELDS = frozenset(
    {
        "weekNumber",
        "sessionNumber",
        "exerciseNumber",
        "sourceWeekNumber",
        "sourceSessionNumber",
        "confidence",
    }
)


def editable_fields(arguments: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """The leaf values of a call's arguments the athlete may edit, as ``(dotted path, value)``:
    text, numbers and booleans (nested objects are walked; lists and references are not)."""
    out: list[tuple[str, Any]] = []
    for key, value in arguments.items():
        path = f"{prefix}{key}"
        if not prefix and key in REF_FIELDS:
            continue
        if isinstance(value, dict):
            out.extend(editable_fields(value, prefix=f"{path}."))
        elif value is None or isinstance(value, str | int | float | bool):
            out.append((path, value))
    return out


def _coerce(raw: str, old: Any) -> Any:
    """A form value in the type of the value it replaces; a value that doesn't convert stays text,
    so the schema layer names the problem."""
    text = raw.strip()
    if isinstance(old, bool):
        return text.lower() in ("1", "true", "yes", "on")
    if isinstance(old, int):
        try:
            return int(text)
        except ValueError:
            return text
    if isinstance(old, float):
        try:
            return float(text)
        except ValueError:
            return text
    if old is None and text == "":
        return None
    return text


def _set(arguments: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = {**arguments}
    node = out
    parts = path.split(".")
    for part in parts[:-1]:
        node[part] = {**node.get(part, {})}
        node = node[part]
    node[parts[-1]] = value
    return out


@dataclasses.dataclass
class EditResult:
    batch: PendingToolBatch
    outcome: str  # "edited", "invalid", "already_decided", "revision_mismatch", "unchanged"
    errors: dict[str, str] = dataclasses.field(default_factory=dict)  # field path → message


def edit_call(
    *, batch_id: int, user: Any, revision: int, call_id: str, values: dict[str, str]
) -> EditResult:
    """Replace the values of one call with ``values`` (dotted path → text from the form)."""
    with transaction.atomic():
        batch = lock_for_athlete(batch_id, user)
        if batch.is_open and expiry_note(batch) is not None:
            transaction.on_commit(lambda: expire(batch_id=batch_id))
            return EditResult(batch, "already_decided")
        if (refused := gate(batch, revision)) is not None:
            return EditResult(batch, refused)
        calls = calls_of(batch)
        index = next((i for i, c in enumerate(calls) if c.id == call_id), None)
        if index is None:
            return EditResult(batch, "invalid", {"": "That change is no longer in the batch."})
        call = calls[index]
        arguments, edits = dict(call.arguments), []
        for path, old in editable_fields(call.arguments):
            if path not in values:
                continue
            new = _coerce(values[path], old)
            if new != old:
                arguments = _set(arguments, path, new)
                edits.append(
                    {
                        "call_id": call.id,
                        "name": call.name,
                        "field": path,
                        "before": old,
                        "after": new,
                    }
                )
        if not edits:
            return EditResult(batch, "unchanged")
        edited = dataclasses.replace(call, arguments=arguments)
        _, errors = engine.check_call(edited)
        new_calls = [*calls[:index], edited, *calls[index + 1 :]]
        if not errors:
            result = engine.preview_calls(
                ctx=context_for(batch.conversation, user=user), calls=new_calls
            )
            errors = result.results[index].errors
        if errors:
            # Shown on the card beside the field: in the athlete's words (see coach.wording).
            messages = {(e.field or ""): athlete_words(e.message) for e in errors}
            return EditResult(batch, "invalid", messages)
        batch.calls = [c.to_dict() for c in new_calls]
        store_preview(batch, result)
        record_decision(batch, kind=Kind.EDITED, actor=user, edits=edits)
        return EditResult(batch, "edited")


def remove_call(*, batch_id: int, user: Any, revision: int, call_id: str) -> Decision:
    """Drop one item from the batch and re-preview the rest; removing the last one cancels it."""
    with transaction.atomic():
        batch = lock_for_athlete(batch_id, user)
        if batch.is_open and expiry_note(batch) is not None:
            transaction.on_commit(lambda: expire(batch_id=batch_id))
            return Decision(batch=batch, outcome="already_decided")
        if (refused := gate(batch, revision)) is not None:
            return Decision(batch=batch, outcome=refused)
        calls: list[ToolCall] = calls_of(batch)
        kept = [c for c in calls if c.id != call_id]
        removed = [c for c in calls if c.id == call_id]
        if not removed:
            return Decision(batch=batch, outcome="revision_mismatch")
        edits = [{"call_id": call_id, "name": removed[0].name, "removed": True}]
        audit.transition(batch=batch, status=Record.REMOVED, by=user, only=[call_id])
        if not kept:
            batch.status = PendingToolBatch.BatchStatus.CANCELLED
            batch.save()
            record, event, followup = record_decision(batch, kind=Kind.CANCELLED, actor=user)
            audit.transition(batch=batch, status=Record.CANCELLED, by=user)
            return Decision(batch, "cancelled", record, event, followup)
        batch.calls = [c.to_dict() for c in kept]
        result = engine.preview_calls(ctx=context_for(batch.conversation, user=user), calls=kept)
        store_preview(batch, result)
        record, _, _ = record_decision(batch, kind=Kind.REMOVED, actor=user, edits=edits)
        return Decision(batch=batch, outcome="edited", record=record)
