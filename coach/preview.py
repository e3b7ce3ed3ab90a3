"""The ModificationPreview of seed 000 (summary, details, warnings) built from a run of the
executor, and the conflict detection of Phase 7 (the same target modified or removed twice).

The details come from the executor itself (each tool returns what it changed, before/after and
field by field), so a preview is exactly what an apply of the same calls on the same state does.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .vocabulary import plural

_TARGET = re.compile(r"^w(\d+)(?:-s(\d+))?(?:-e(\d+))?$")

_NOUNS = {"modify": "modification", "add": "addition", "remove": "removal", "reorder": "move"}


def target_label(key: str) -> str:
    """``"w2-s1-e3"`` → ``"Week 2, Session 1, Exercise 3"``."""
    match = _TARGET.match(key)
    if not match:
        return key
    week, session, exercise = match.groups()
    parts = [f"Week {week}"]
    if session:
        parts.append(f"Session {session}")
    if exercise:
        parts.append(f"Exercise {exercise}")
    return ", ".join(parts)


def conflict_warnings(targets: list[str]) -> list[str]:
    """One warning per target touched by more than one call (``""`` means "conflicts with
    nothing", as for additions)."""
    counts = Counter(t for t in targets if t)
    warnings = []
    for key in dict.fromkeys(t for t in targets if t):
        if counts[key] > 1:
            many = "Two" if counts[key] == 2 else str(counts[key])
            warnings.append(
                f"{many} changes touch {target_label(key)}; they will be applied in order."
            )
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
