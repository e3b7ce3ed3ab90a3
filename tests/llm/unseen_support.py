"""Counting the unseen sentences (``evals/unseen/``): how many passed, and apart from that, how
many were WRONG CHANGES (a step that proposed or applied a write and failed its checks: the worst
outcome, issue 20). Works on ``chat.evals`` step results and on the JSON report alike::

    python -m tests.llm.unseen_support var/evals/eval_coach-….json
"""

from __future__ import annotations

import json
import sys
from typing import Any

WRITTEN = ("proposed", "applied")


def _get(obj: Any, name: str) -> Any:
    return obj[name] if isinstance(obj, dict) else getattr(obj, name)


def is_wrong_change(step: Any) -> bool:
    """A step that proposed (or applied at once) a write and failed one of its checks."""
    writes = [c for c in _get(step, "calls") if c["kind"] == "write" and c["status"] in WRITTEN]
    failed = [c for c in _get(step, "checks") if not _get(c, "passed")]
    return bool(writes and failed)


def summary(report: dict[str, Any]) -> tuple[int, int, list[str]]:
    """(scenarios passed, scenarios run, the wrong changes as "id: sentence") of a report."""
    ran = [s for s in report["scenarios"] if s["status"] != "skipped"]
    wrong = [
        f"{s['id']}: {step['text']}"
        for s in ran
        for run in s["run_details"]
        for step in run["steps"]
        if is_wrong_change(step)
    ]
    return sum(s["status"] == "pass" for s in ran), len(ran), wrong


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            passed, ran, wrong = summary(json.load(f))
        print(f"{path}: {passed}/{ran} passed, {len(wrong)} wrong changes")
        for line in wrong:
            print(f"  WRONG {line}")
