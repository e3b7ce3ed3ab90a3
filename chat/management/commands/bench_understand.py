"""``manage.py bench_understand [--sentences N] [--rounds N]``: how long the offline coach takes to
understand a message (``coach.llm.offline.understand``) on the demo data: every athlete sentence
of the evaluation files (``evals/``), each understood with a fresh ``World`` over the demo
athlete's program, as the chat makes one per message. Prints the median, p95 and p99 in
milliseconds (the goal: ≤ 20 ms median, ≤ 100 ms p99), of the wall clock and of the process's
own CPU time (``time.process_time``: on a machine busy with other work the wall clock measures the
others too).

The demo data is seeded inside a transaction that is rolled back, so nothing is kept. The first
sentence is understood once before timing (the grammar is compiled once per process)."""

from __future__ import annotations

import statistics
import time
import tomllib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from chat.services import conversation_for_athlete
from coach.llm.base import World
from coach.llm.offline.understand import understand
from coach.plan import DemoSeed, declared
from coach.tools.base import ToolContext

EVALS = Path(settings.BASE_DIR) / "evals"


def eval_sentences(root: Path = EVALS) -> list[str]:
    """Every ``say`` of the evaluation files, in file order, without repeats."""
    found: list[str] = []
    for path in sorted(root.rglob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for scenario in data.get("scenario", []):
            for step in scenario.get("steps", []):
                if isinstance(step.get("say"), str) and "{" not in step["say"]:
                    found.append(step["say"])
    return list(dict.fromkeys(found))


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Median/p95/p99 time to understand a message (the offline coach) on the demo data."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--sentences", type=int, default=0, help="only the first N (0: all)")
        parser.add_argument("--rounds", type=int, default=1, help="times each sentence is read")
        parser.add_argument("--slowest", type=int, default=0, help="list the N slowest sentences")

    def handle(self, *args: Any, sentences: int, rounds: int, slowest: int, **options: Any) -> None:
        self.slowest = slowest
        call_command("migrate", verbosity=0)
        said = eval_sentences()
        if sentences:
            said = said[:sentences]
        if not said:
            raise CommandError(f"No sentences found under {EVALS}.")
        try:
            with transaction.atomic():
                self._bench(said, max(1, rounds))
                raise _Rollback
        except _Rollback:
            pass

    def _bench(self, said: list[str], rounds: int) -> None:
        today = timezone.localdate()
        seed = DemoSeed(today=today, options={})
        for family_demo in declared("DEMO"):
            family_demo(seed)
        athlete = seed.people.get("athlete")
        conversation = conversation_for_athlete(athlete=athlete) if athlete else None
        if conversation is None or conversation.program is None:
            raise CommandError("The demo seed made no athlete with a program.")

        def world() -> World:
            ctx = ToolContext(athlete=athlete, program=conversation.program, user=athlete)
            return World(ctx=ctx, today=today)

        understand(said[0], world())  # the grammar is compiled once per process
        timings: list[float] = []
        cpu_timings: list[float] = []
        by_sentence: list[tuple[float, str]] = []
        understood = 0
        for _ in range(rounds):
            for sentence in said:
                started, cpu = time.perf_counter(), time.process_time()
                result = understand(sentence, world())
                timings.append((time.perf_counter() - started) * 1000)
                cpu_timings.append((time.process_time() - cpu) * 1000)
                by_sentence.append((timings[-1], sentence))
                understood += result is not None
        self.stdout.write(
            f"understand: {len(said)} sentences × {rounds} on the demo data; "
            f"{understood} of {len(timings)} understood (a call, a question or a refusal)"
        )
        self.stdout.write(
            f"median {statistics.median(timings):.1f} ms, p95 {percentile(timings, 95):.1f} ms, "
            f"p99 {percentile(timings, 99):.1f} ms, max {max(timings):.1f} ms"
        )
        self.stdout.write(
            f"cpu: median {statistics.median(cpu_timings):.1f} ms, "
            f"p95 {percentile(cpu_timings, 95):.1f} ms, p99 {percentile(cpu_timings, 99):.1f} ms "
            "(this process's own time: the figure on a machine shared with other work)"
        )
        for ms, sentence in sorted(by_sentence, reverse=True)[: self.slowest]:
            self.stdout.write(f"  {ms:7.1f} ms  {sentence}")
