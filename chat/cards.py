"""The preview card's read model: one item per queued call, with what it changes (the engine's
preview details), whether it can be applied and why not, and the fields the athlete may edit.

Failed items stay on the card with their reason (a failed Apply never hides the item that failed).
"""

from __future__ import annotations

from typing import Any

from coach.preview_card import call_item, whatif_rows
from coach.toolcalls import is_safe_id

from .models import PendingToolBatch
from .proposals import editable_fields


def _field_label(path: str) -> str:
    last = path.rsplit(".", 1)[-1]
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in last).strip()
    return words[:1].upper() + words[1:]


def card_items(batch: PendingToolBatch | None) -> list[dict[str, Any]]:
    if batch is None:
        return []
    details = (batch.preview or {}).get("details", [])
    results = {r.get("tool_call_id"): r for r in batch.results or []}
    items = []
    for call in batch.calls:
        call_id = call.get("id")
        result = results.get(call_id, {})
        items.append(
            {
                "call_id": call_id,
                # Edit and Remove link to the call by its id; a batch stored before the app named
                # calls by ids of its own may hold a provider's id no URL can carry: that card
                # still shows, with Apply and Cancel.
                "linkable": is_safe_id(call_id),
                **call_item(
                    name=call.get("name", ""),
                    call_id=call_id,
                    details=details,
                    ok=bool(result.get("success", True)),
                    errors=[e.get("message", "") for e in result.get("errors", [])],
                ),
                "fields": [
                    {"path": path, "label": _field_label(path), "value": value}
                    for path, value in editable_fields(call.get("arguments") or {})
                ],
            }
        )
    return items


def card_whatif(batch: PendingToolBatch | None) -> list[dict[str, Any]]:
    """The what-if rows of the card: projected Form on the plan's key dates, before → after
    (``coach.whatif``), with the change signed for people ("+2.1", "−3.4")."""
    if batch is None:
        return []
    return whatif_rows((batch.preview or {}).get("whatif") or [])
