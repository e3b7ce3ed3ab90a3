"""python manage.py eval_coach [--provider …] [-k N] [--scenarios PATH] [--only ID] [--phrasing …]
[--report PATH]: run the coaching scenarios against the configured provider (``chat.evals``).

Each run builds its fixture for a fresh athlete in a transaction that is rolled back, so the
command may run against any database (migrated) and leaves nothing in it. Exits with an error when
a scenario fails; the JSON report is written either way.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings
from django.utils import timezone

from chat.evals.report import Outcome, build_report, evaluate
from chat.evals.scenarios import PHRASINGS, ScenarioError, load_path
from coach.llm import get_provider

DEFAULT_SCENARIOS = Path(settings.BASE_DIR) / "evals" / "scenarios"


class Command(BaseCommand):
    help = "Run the coaching scenarios k times each; report pass^k, tool calls, tokens, latency."

    def add_arguments(self, parser):
        parser.add_argument(
            "--provider",
            choices=("offline", "openai", "anthropic"),
            help="Instead of LLM_PROVIDER (the other LLM_* settings still apply).",
        )
        parser.add_argument("--model", help="Instead of LLM_MODEL.")
        parser.add_argument("-k", "--runs", type=int, default=1, help="Runs per scenario (1).")
        parser.add_argument(
            "--scenarios",
            action="append",
            help=f"A scenario file or directory; may be repeated (default {DEFAULT_SCENARIOS}).",
        )
        parser.add_argument(
            "--only", action="append", help="Run the scenarios whose id starts with this."
        )
        parser.add_argument(
            "--phrasing",
            choices=("auto", *PHRASINGS),
            default="auto",
            help="The athlete's words: command form (the offline coach's) or natural language; "
            "auto is command for the offline coach, natural for a model.",
        )
        parser.add_argument("--report", help="Where to write the JSON report.")

    def handle(self, *args, **options):
        k = options["runs"]
        if not 1 <= k <= 100:
            raise CommandError(f"-k is 1 to 100, not {k}.")
        overrides = {}
        if options["provider"]:
            overrides["LLM_PROVIDER"] = options["provider"]
        if options["model"]:
            overrides["LLM_MODEL"] = options["model"]
        # For this command only: the settings of the process are left as they were.
        with override_settings(**overrides):
            self._run(options, k)

    def _run(self, options, k: int) -> None:
        paths = options["scenarios"] or [str(DEFAULT_SCENARIOS)]
        try:
            scenarios = [s for path in paths for s in load_path(path)]
        except ScenarioError as exc:
            raise CommandError(str(exc)) from exc
        if options["only"]:
            scenarios = [s for s in scenarios if s.id.startswith(tuple(options["only"]))]
            if not scenarios:
                raise CommandError(f"No scenario id starts with {', '.join(options['only'])}.")
        provider = get_provider()
        phrasing = options["phrasing"]
        if phrasing == "auto":
            phrasing = "command" if getattr(provider, "offline", False) else "natural"
        self.stdout.write(
            f"{len(scenarios)} scenarios × {k} on {provider.name} ({provider.model}), "
            f"{phrasing} phrasing"
        )
        started = timezone.now()
        outcomes = evaluate(
            scenarios, provider=provider, k=k, phrasing=phrasing, progress=self._progress
        )
        report = build_report(
            outcomes,
            provider=provider,
            k=k,
            phrasing=phrasing,
            paths=paths,
            started=started,
            finished=timezone.now(),
        )
        target = Path(options["report"] or _default_report(started))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
        summary = report["summary"]
        self.stdout.write(
            f"passed {summary['passed']}/{summary['ran']} (skipped {summary['skipped']}); "
            f"pass^1 {_pct(summary['pass_at_1'])}, pass^{k} {_pct(summary['pass_hat_k'])}, "
            f"exact tool calls {_pct(summary['exact_tool_calls'])}; "
            f"tokens {summary['prompt_tokens']} in / {summary['completion_tokens']} out; "
            f"model latency p50 {summary['model_latency_ms']['p50']} ms, "
            f"turn p95 {summary['turn_ms']['p95']} ms"
        )
        self.stdout.write(f"report: {target}")
        if summary["failed"]:
            raise CommandError(f"{summary['failed']} scenario(s) failed; see {target}.")

    def _progress(self, outcome: Outcome) -> None:
        scenario = outcome.scenario
        if outcome.skipped:
            self.stdout.write(f"  SKIP {scenario.id} {scenario.title}: {outcome.skipped}")
            return
        runs = len(outcome.runs)
        line = (
            f"  {outcome.status.upper():4} {scenario.id} {scenario.title} ({outcome.passes}/{runs})"
        )
        self.stdout.write(line)
        for run in outcome.runs:
            if run.error:
                self.stdout.write(f"       error: {run.error}")
            for step in run.steps:
                for check in step.checks:
                    if not check.passed:
                        self.stdout.write(f"       {step.label}: {check.name}: {check.detail}")


def _default_report(started: datetime.datetime) -> Path:
    stamp = started.strftime("%Y%m%d-%H%M%S")
    return Path(settings.VAR_DIR) / "evals" / f"eval_coach-{stamp}.json"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"
