"""Editing a batch before Apply (seed 004's Modify): what an item's form may change, and checking
an edit. The transitions (``edit_call``, ``remove_call``) are in ``lifecycle``.

An edit replaces one call's arguments with the athlete's values, re-validates them (schema, then
state), re-previews the whole batch and bumps its revision, so Apply binds to exactly what the card
shows. An invalid value changes nothing: the errors come back keyed by field, for the form. Each
accepted edit is a ``BatchDecision`` (``edited`` / ``removed``) with the before and after values;
the model reads them when the batch is decided.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from coach import engine
from coach.toolcalls import ToolCall
from coach.wording import athlete_words

from ..models import PendingToolBatch
from .core import calls_of, context_for

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

    @property
    def text(self) -> str:
        """The problems in one line, for a page without the card's form (the coach's inbox)."""
        return " ".join(f"{k}: {v}" if k else v for k, v in self.errors.items())


def edited(call: ToolCall, values: dict[str, str]) -> tuple[ToolCall, list[dict[str, Any]]]:
    """``call`` with the form's ``values`` (dotted path → text) put in, and the edits as data
    (``{call_id, name, field, before, after}``); no edits when nothing changed."""
    arguments, edits = dict(call.arguments), []
    for path, old in editable_fields(call.arguments):
        if path not in values:
            continue
        new = _coerce(values[path], old)
        if new != old:
            arguments = _set(arguments, path, new)
            edits.append(
                {"call_id": call.id, "name": call.name, "field": path, "before": old, "after": new}
            )
    return dataclasses.replace(call, arguments=arguments), edits


def check_edit(
    ctx: engine.ToolContext, calls: list[ToolCall], index: int
) -> tuple[engine.BatchResult | None, dict[str, str]]:
    """Re-validate the edited call (schema, then state) and re-preview the whole batch: the
    preview, or the problems keyed by field in the athlete's words (``coach.wording``)."""
    _, errors = engine.check_call(calls[index])
    result = None
    if not errors:
        result = engine.preview_calls(ctx=ctx, calls=calls)
        errors = result.results[index].errors
    return result, {(e.field or ""): athlete_words(e.message) for e in errors}


def checked_edit(
    batch: PendingToolBatch, user: Any, call_id: str, values: dict[str, str]
) -> tuple[list[ToolCall], engine.BatchResult | None, list[dict[str, Any]], EditResult | None]:
    """The batch's calls with one call edited, their preview and the edits as data, or why not
    (an ``EditResult``: invalid, unchanged). Writes nothing (``lifecycle`` stores it). A coach's
    edits (before approving) say ``"by": "coach"``, so the model and the athlete are told who."""
    calls = calls_of(batch)
    index = next((i for i, c in enumerate(calls) if c.id == call_id), None)
    if index is None:
        refused = {"": "That change is no longer in the batch."}
        return calls, None, [], EditResult(batch, "invalid", refused)
    calls[index], edits = edited(calls[index], values)
    if not edits:
        return calls, None, [], EditResult(batch, "unchanged")
    result, errors = check_edit(context_for(batch.conversation, user=user), calls, index)
    if errors:
        return calls, None, [], EditResult(batch, "invalid", errors)
    if user.pk != batch.conversation.athlete_id:
        edits = [{**e, "by": "coach"} for e in edits]
    return calls, result, edits, None
