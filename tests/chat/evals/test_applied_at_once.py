"""A write that needs no Apply (a wellness log the athlete stated) is applied in the turn that
proposed it: the eval counts it as proposed ("proposed or applied at once",
evals/paraphrases/README.md), and a refused one still counts as nothing proposed."""

from __future__ import annotations

from pathlib import Path

import pytest

from chat.evals.report import evaluate
from chat.evals.results import StepResult
from chat.evals.scenarios import load_path
from coach.llm.offline import OfflineProvider

pytestmark = pytest.mark.django_db

LOGGED = """
[fixture]
weeks = 1
days = [{ name = "Lower Body", day = "Monday", exercises = ["Back Squat"] }]

[[scenario]]
id = "t-logged"
title = "A stated dose is logged at once"
[[scenario.steps]]
say = "I took my creatine this morning"
command = "I took my creatine this morning"
expect = { calls = [{ tool = "log_medication", args = { medication_name = "creatine", kind = "supplement" } }], pending = false }
"""


def _run(tmp_path: Path, text: str):
    path = tmp_path / "scenarios.toml"
    path.write_text(text, encoding="utf-8")
    [outcome] = evaluate(load_path(path), provider=OfflineProvider(), k=1, phrasing="command")
    return outcome


def test_a_log_applied_at_once_counts_as_the_expected_call(tmp_path):
    outcome = _run(tmp_path, LOGGED)

    [run] = outcome.runs
    [step] = run.steps
    assert [c["status"] for c in step.calls] == ["applied"]
    assert step.queued == []
    assert [c["name"] for c in step.proposed] == ["log_medication"]
    assert outcome.status == "pass" and run.exact is True


def test_a_log_applied_at_once_is_not_an_answer_without_a_proposal(tmp_path):
    outcome = _run(tmp_path, LOGGED.replace("pending = false", "answered = true"))

    failed = {c.name: c.detail for c in outcome.runs[0].steps[0].checks if not c.passed}
    assert failed == {"answered without a proposal": "proposed ['log_medication']"}


def test_refused_and_read_calls_are_not_proposed():
    step = StepResult(
        label="x",
        calls=[
            {"name": "log_medication", "kind": "write", "status": "refused", "arguments": {}},
            {"name": "get_wellness_logs", "kind": "read", "status": "executed", "arguments": {}},
            {"name": "create_reminder", "kind": "write", "status": "proposed", "arguments": {}},
            {"name": "log_mood", "kind": "write", "status": "applied", "arguments": {}},
        ],
    )

    assert [c["name"] for c in step.queued] == ["create_reminder"]
    assert [c["name"] for c in step.proposed] == ["create_reminder", "log_mood"]
