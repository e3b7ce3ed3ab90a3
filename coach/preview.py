"""The ModificationPreview of seed 000 (summary, details, warnings) built from a run of the
executor, and the conflict detection of Phase 7 (the same target modified or removed twice).

The details come from the executor itself (each tool returns what it changed, before/after and
field by field), so a preview is exactly what an apply of the same calls on the same state does.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .vocabulary import plural

_NOUNS = {"modify": "modification", "add": "addition", "remove": "removal", "reorder": "move"}


def conflict_warnings(targets: list[str]) -> list[str]:
    """One warning per target touched by more than one call (``""`` means "conflicts with
    nothing", as for additions). A target is named by its tool as a person says it
    (``ToolSpec.target``), so it is shown as it is."""
    counts = Counter(t for t in targets if t)
    warnings = []
    for key in dict.fromkeys(t for t in targets if t):
        if counts[key] > 1:
            many = "Two" if counts[key] == 2 else str(counts[key])
            warnings.append(f"{many} changes touch {key}; they will be applied in order.")
    return warnings


def summarize(details: list[dict[str, Any]], *, failed: int, total: int) -> str:
    counts = Counter(d["type"] for d in details)
    if details:
        parts = ", ".join(plural(counts[t], _NOUNS[t]) for t in _NOUNS if counts[t])
        text = f"{plural(len(details), 'change')}: {parts}."
    else:
        text = "No changes."
    if failed:
        text += (
            f" {failed} of {plural(total, 'call')} can't be applied, so nothing will change"
            " until it is fixed."
        )
    return text


def build_preview(
    *, details: list[dict[str, Any]], warnings: list[str], failed: int, total: int
) -> dict[str, Any]:
    return {
        "summary": summarize(details, failed=failed, total=total),
        "details": details,
        "warnings": warnings,
    }
