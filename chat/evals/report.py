"""k runs of every scenario, and the report: pass/fail, pass^k, exact tool-call match, tokens and
latency (the JSON schema is in docs/evaluating.md).

**pass^k** (τ-bench): the chance that *all* of k independent tries of a scenario pass, estimated
from n runs with c passes as C(c, k) / C(n, k). With n = k it is 1 when every run passed and 0
otherwise; ``pass_hat`` gives it for every j from 1 (the plain pass rate, c / n) to n. The summary
averages each over the scenarios that ran. A scenario **passes** when all its runs pass.
"""

from __future__ import annotations

import datetime
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from coach.llm.base import Provider

from .runner import RunResult, run_once
from .scenarios import Scenario

SCHEMA = "spotter-eval-coach/1"


def pass_hat(passes: int, runs: int, k: int) -> float:
    """C(passes, k) / C(runs, k): the estimated chance that k tries all pass."""
    if not 1 <= k <= runs:
        raise ValueError(f"k is 1 to the number of runs ({runs}), not {k}.")
    return math.comb(passes, k) / math.comb(runs, k)


@dataclass
class Outcome:
    scenario: Scenario
    runs: list[RunResult]
    skipped: str = ""

    @property
    def passes(self) -> int:
        return sum(r.passed for r in self.runs)

    @property
    def status(self) -> str:
        if self.skipped:
            return "skipped"
        return "pass" if self.passes == len(self.runs) else "fail"


def evaluate(
    scenarios: list[Scenario],
    *,
    provider: Provider,
    k: int,
    phrasing: str,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    outcomes = []
    for scenario in scenarios:
        why = scenario.phrasing_ok(phrasing)
        if why:
            outcome = Outcome(scenario, [], skipped=why)
        else:
            runs = [run_once(scenario, provider=provider, phrasing=phrasing) for _ in range(k)]
            outcome = Outcome(scenario, runs)
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes


def _spread(values: list[int]) -> dict[str, int]:
    if not values:
        return {"total": 0, "mean": 0, "p50": 0, "p95": 0, "max": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "total": sum(ordered),
        "mean": round(statistics.fmean(ordered)),
        "p50": round(statistics.median(ordered)),
        "p95": p95,
        "max": ordered[-1],
    }


def _run_json(run: RunResult) -> dict[str, Any]:
    replies = run.replies
    return {
        "passed": run.passed,
        "exact_tool_calls": run.exact,
        "error": run.error,
        "wall_ms": run.wall_ms,
        "prompt_tokens": sum(r.prompt_tokens for r in replies),
        "completion_tokens": sum(r.completion_tokens for r in replies),
        "model_calls": sum(r.model_calls for r in replies),
        "model_latency_ms": sum(r.model_latency_ms for r in replies),
        "turn_ms": sum(r.turn_ms for r in replies),
        "steps": [
            {
                "step": step.label,
                "text": step.text,
                "calls": step.calls,
                "outcomes": step.outcomes,
                "replies": [
                    {
                        "status": r.status,
                        "text": r.content,
                        "error_code": r.error_code,
                        "prompt_tokens": r.prompt_tokens,
                        "completion_tokens": r.completion_tokens,
                        "model_latency_ms": r.model_latency_ms,
                        "turn_ms": r.turn_ms,
                    }
                    for r in step.replies
                ],
                "checks": [
                    {"name": c.name, "passed": c.passed, "detail": c.detail} for c in step.checks
                ],
                "exact_tool_calls": step.exact,
            }
            for step in run.steps
        ],
    }


def _scenario_json(outcome: Outcome) -> dict[str, Any]:
    scenario, runs = outcome.scenario, outcome.runs
    data: dict[str, Any] = {
        "id": scenario.id,
        "title": scenario.title,
        "source": scenario.source,
        "file": scenario.file,
        "needs_model": scenario.needs_model,
        "status": outcome.status,
        "skip_reason": outcome.skipped,
        "runs": len(runs),
        "passes": outcome.passes,
        "pass_hat": {
            str(j): pass_hat(outcome.passes, len(runs), j) for j in range(1, len(runs) + 1)
        },
        "exact_runs": sum(r.exact for r in runs),
        "run_details": [_run_json(r) for r in runs],
    }
    for key in ("prompt_tokens", "completion_tokens", "model_latency_ms", "turn_ms"):
        data[key] = sum(d[key] for d in data["run_details"])
    return data


def build_report(
    outcomes: list[Outcome],
    *,
    provider: Provider,
    k: int,
    phrasing: str,
    paths: list[str],
    started: datetime.datetime,
    finished: datetime.datetime,
) -> dict[str, Any]:
    scenarios = [_scenario_json(o) for o in outcomes]
    ran = [s for s in scenarios if s["status"] != "skipped"]
    runs = [r for s in ran for r in s["run_details"]]
    replies = [reply for r in runs for step in r["steps"] for reply in step["replies"]]
    return {
        "schema": SCHEMA,
        "started_at": started.isoformat(),
        "finished_at": finished.isoformat(),
        "provider": provider.name,
        "model": provider.model,
        "phrasing": phrasing,
        "k": k,
        "scenario_paths": paths,
        "summary": {
            "scenarios": len(scenarios),
            "ran": len(ran),
            "skipped": len(scenarios) - len(ran),
            "passed": sum(s["status"] == "pass" for s in ran),
            "failed": sum(s["status"] == "fail" for s in ran),
            "runs": len(runs),
            "pass_at_1": _mean([s["pass_hat"]["1"] for s in ran]),
            "pass_hat_k": _mean([s["pass_hat"][str(k)] for s in ran]),
            "exact_tool_calls": _mean([float(r["exact_tool_calls"]) for r in runs]),
            "prompt_tokens": sum(r["prompt_tokens"] for r in runs),
            "completion_tokens": sum(r["completion_tokens"] for r in runs),
            "model_calls": sum(r["model_calls"] for r in runs),
            "model_latency_ms": _spread([x["model_latency_ms"] for x in replies]),
            "turn_ms": _spread([x["turn_ms"] for x in replies]),
        },
        "scenarios": scenarios,
    }


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None
