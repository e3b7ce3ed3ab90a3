"""The rows of a preview card, as every page that previews tool calls shows them: the chat's card
(``chat.cards``), the program editor, a template's propagation and the coach's calendar. One item
per call (its label, its before → after details with a kind label, whether it can be applied and
why not, in the athlete's words) and the what-if rows with the change signed for people. Reads the
engine's preview details; names no family."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from coach.registry import get_tool
from coach.wording import athlete_words

KIND_LABELS = {"add": "+ Add", "remove": "− Remove", "reorder": "↕ Move", "modify": "✎ Change"}


def call_item(
    *, name: str, call_id: str, details: Iterable[dict[str, Any]], ok: bool, errors: Iterable[str]
) -> dict[str, Any]:
    """One call's row: ``details`` are the preview's (every call's; this call's are picked)."""
    spec = get_tool(name)
    return {
        "label": spec.label if spec is not None else "Change",
        "details": [
            {**d, "kind_label": KIND_LABELS.get(d.get("type"), "✎ Change")}
            for d in details
            if d.get("toolCallId") == call_id
        ],
        "ok": ok,
        "problem": athlete_words(" ".join(e for e in errors if e)),
    }


def batch_items(calls: Iterable[Any], batch: Any) -> list[dict[str, Any]]:
    """The rows of ``calls`` (``ToolCall``) as ``batch`` (``coach.engine.BatchResult``) ran them."""
    results = {r.tool_call_id: r for r in batch.results}
    details = batch.preview.get("details", [])
    items = []
    for call in calls:
        result = results.get(call.id)
        items.append(
            call_item(
                name=call.name,
                call_id=call.id,
                details=details,
                ok=result is None or result.success,
                errors=[e.message for e in result.errors] if result is not None else [],
            )
        )
    return items


def whatif_rows(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The what-if rows (``coach.whatif``) with the change signed for people: "+2.1", "−3.4",
    "±0.0"."""
    out = []
    for row in rows:
        change = row.get("change", 0)
        sign = "+" if change > 0 else ("−" if change < 0 else "±")
        out.append({**row, "change_text": f"{sign}{abs(change):.1f}"})
    return out
