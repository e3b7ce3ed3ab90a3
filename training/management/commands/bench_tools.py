"""``manage.py bench_tools [--sizes 4,16,52] [--runs 15] [--history-days 365]``: a benchmark,
not a test.

Builds programs of each size (weeks × 6 sessions × 8 exercises), runs a fixed mixed batch of ten
tool calls ``--runs`` times as a preview and as a real apply (each apply on its own fresh copy,
committed, so every run starts from the same state and pays for its commit), and prints the
median times and the number of queries per batch. The query counts must not grow with the weeks.
Everything it creates is deleted at the end.

The athlete gets ``--history-days`` of daily activities first, so each preview also pays for its
what-if (the projected Form on the plan's key dates before and after, ``coach.whatif``) over a
realistic history; the "what-if ms" column is that part of the preview alone.
"""

from __future__ import annotations

import datetime
import statistics
import time
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, reset_queries
from django.test.utils import CaptureQueriesContext

from coach import whatif
from coach.engine import ToolContext, apply_calls, preview_calls
from coach.toolcalls import ToolCall
from programs.demo_builders import build_program_bulk
from training.models import Activity

SESSIONS = 6
EXERCISES = 8


def bench_batch() -> list[ToolCall]:
    """Ten calls touching every family; valid on any program of at least four weeks."""
    exercise = {"name": "Pull-up", "reps": "5-8", "targetLoad": "bodyweight", "workingSets": 3}
    raw: list[dict[str, Any]] = [
        {
            "name": "modify_exercise",
            "arguments": {
                "weekNumber": 2,
                "sessionNumber": 1,
                "exerciseNumber": 3,
                "updates": {"name": "Goblet Squat", "targetLoad": "50 lbs", "workingSets": 4},
            },
        },
        {
            "name": "add_exercise",
            "arguments": {"weekNumber": 2, "sessionNumber": 1, "position": 1, "exercise": exercise},
        },
        {
            "name": "remove_exercise",
            "arguments": {"weekNumber": 2, "sessionNumber": 1, "exerciseNumber": EXERCISES + 1},
        },
        {
            "name": "reorder_exercises",
            "arguments": {
                "weekNumber": 2,
                "sessionNumber": 2,
                "exerciseNumber": 1,
                "newPosition": 4,
            },
        },
        {
            "name": "modify_session",
            "arguments": {
                "weekNumber": 2,
                "sessionNumber": 1,
                "updates": {"name": "Push Day A", "cardio": {"type": "zone2", "duration": 20}},
            },
        },
        {
            "name": "add_session",
            "arguments": {
                "weekNumber": 3,
                "position": "end",
                "session": {
                    "name": "Zone 2 Cardio",
                    "exercises": [],
                    "cardio": {"type": "zone2", "duration": 30, "modality": "Cycling"},
                },
            },
        },
        {
            "name": "copy_session",
            "arguments": {
                "sourceWeekNumber": 1,
                "sourceSessionNumber": 1,
                "targetWeekNumber": 3,
                "position": 2,
            },
        },
        {
            "name": "modify_week",
            "arguments": {"weekNumber": 3, "updates": {"phase": "Intensification"}},
        },
        {"name": "remove_session", "arguments": {"weekNumber": 4, "sessionNumber": SESSIONS}},
        {
            "name": "add_week",
            "arguments": {
                "position": 2,
                "weeks": [
                    {
                        "phase": "Deload",
                        "startDate": "2026-11-09",
                        "endDate": "2026-11-15",
                        "sessions": [
                            {"name": "Full Body", "exercises": [exercise, exercise]},
                            {"name": "Rest"},
                        ],
                    }
                ],
            },
        },
    ]
    return [ToolCall.from_raw({"id": f"bench_{i}", **call}) for i, call in enumerate(raw, 1)]


class Command(BaseCommand):
    help = "Benchmark preview and apply of a fixed ten-call batch on programs of several sizes."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--sizes", default="4,16,52", help="comma-separated week counts")
        parser.add_argument("--runs", type=int, default=15)
        parser.add_argument(
            "--history-days", type=int, default=365, help="days of activities before today"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        sizes = [int(s) for s in options["sizes"].split(",") if s.strip()]
        runs = max(1, options["runs"])
        calls = bench_batch()
        User = get_user_model()
        user = User.objects.create(username=f"bench-{uuid.uuid4().hex[:12]}")
        _history(user, days=max(0, options["history_days"]))
        rows = []
        try:
            for weeks in sizes:
                rows.append(self._bench(user=user, weeks=weeks, runs=runs, calls=calls))
        finally:
            user.programs.all().delete()
            Activity.all_objects.filter(athlete=user).delete()
            user.delete()
        vendor = connection.vendor
        self.stdout.write(
            f"bench_tools on {vendor}: {len(calls)} calls per batch, {runs} runs, "
            f"weeks × {SESSIONS} sessions × {EXERCISES} exercises, "
            f"{options['history_days']} days of activities"
        )
        header = (
            "weeks",
            "apply ms (median)",
            "preview ms (median)",
            "queries/apply",
            "queries/preview",
            "what-if ms",
            "what-if rows",
        )
        self.stdout.write(" | ".join(header))
        self.stdout.write(" | ".join("-" * len(h) for h in header))
        for row in rows:
            self.stdout.write(
                f"{row['weeks']:>5} | {row['apply_ms']:>17.1f} | {row['preview_ms']:>19.1f} | "
                f"{row['apply_queries']:>13} | {row['preview_queries']:>15} | "
                f"{row['whatif_ms']:>10.1f} | {row['whatif_rows']:>12}"
            )

    def _bench(self, *, user, weeks: int, runs: int, calls: list[ToolCall]) -> dict[str, Any]:
        def build():
            return build_program_bulk(
                athlete=user,
                weeks=weeks,
                sessions=SESSIONS,
                exercises=EXERCISES,
                name=f"Bench {weeks}",
            )

        base = build()
        preview_ms, preview_queries = [], set()
        for _ in range(runs):
            reset_queries()  # the query log is a bounded deque; start each count from empty
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                result = preview_calls(ctx=ToolContext.for_program(base), calls=calls)
                preview_ms.append((time.perf_counter() - started) * 1000)
            if not result.success:
                raise RuntimeError(f"bench batch failed in preview: {result.to_dict()['results']}")
            preview_queries.add(len(captured))
        whatif_ms = []
        for _ in range(runs):
            ctx = ToolContext.for_program(base)
            started = time.perf_counter()
            whatif.form(ctx, whatif.key_dates(ctx))
            whatif_ms.append((time.perf_counter() - started) * 1000 * 2)  # before and after
        whatif_rows = len(result.preview.get("whatif", []))
        apply_ms, apply_queries = [], set()
        for _ in range(runs):
            program = build()
            reset_queries()
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                result = apply_calls(ctx=ToolContext.for_program(program), calls=calls)
                apply_ms.append((time.perf_counter() - started) * 1000)
            if not result.success:
                raise RuntimeError(f"bench batch failed in apply: {result.to_dict()['results']}")
            apply_queries.add(len(captured))
            program.delete()
        base.delete()
        return {
            "weeks": weeks,
            "apply_ms": statistics.median(apply_ms),
            "preview_ms": statistics.median(preview_ms),
            "apply_queries": "/".join(str(q) for q in sorted(apply_queries)),
            "preview_queries": "/".join(str(q) for q in sorted(preview_queries)),
            "whatif_ms": statistics.median(whatif_ms),
            "whatif_rows": whatif_rows,
        }


def _history(user, *, days: int) -> None:
    """One run a day for ``days`` days before today (loads 30 to 90), in one bulk insert."""
    today = datetime.date.today()
    Activity.objects.bulk_create(
        Activity(
            athlete=user,
            sport="RUNNING",
            name="Bench run",
            start=datetime.datetime.combine(
                today - datetime.timedelta(days=n), datetime.time(7), tzinfo=datetime.UTC
            ),
            local_date=today - datetime.timedelta(days=n),
            moving_s=3600,
            training_load=30 + (n * 7) % 61,
            load_method="ESTIMATE",
            dedupe_key=f"bench:{n}",
        )
        for n in range(1, days + 1)
    )
