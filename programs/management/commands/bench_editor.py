"""python manage.py bench_editor [--weeks 16] [--sessions 5] [--exercises 6] [--runs 10]: time the
program editor's page (``programs.editor.views.editor``, rendered whole, as the coach's browser
gets it) for a throwaway coach and program; everything is rolled back. Issue 22's target: a
16-week program in ≤ 400 ms, with as many queries as a 4-week one."""

import datetime
import statistics
import time

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from programs.admin import ensure_coach_group
from programs.demo_builders import fill_program
from programs.editor import views
from programs.models import Program

TARGET_MS = 400


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the one-page program editor (goal: ≤ 400 ms for 16 weeks)."

    def add_arguments(self, parser):
        parser.add_argument("--weeks", type=int, default=16)
        parser.add_argument("--sessions", type=int, default=5)
        parser.add_argument("--exercises", type=int, default=6)
        parser.add_argument("--runs", type=int, default=10)

    def handle(self, *args, weeks, sessions, exercises, runs, **options):
        try:
            with transaction.atomic():
                self._bench(weeks, sessions, exercises, runs)
                raise Rollback
        except Rollback:
            pass

    def _page(self, program: Program, coach) -> tuple[float, int, int]:
        request = RequestFactory().get(f"/admin/programs/program/{program.pk}/editor/")
        request.user = coach
        model_admin = admin.site._registry[Program]
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = views.editor(request, model_admin, str(program.pk))
            response.render()
            elapsed = (time.perf_counter() - start) * 1000
        return elapsed, len(queries), len(response.content)

    def _bench(self, weeks: int, sessions: int, exercises: int, runs: int) -> None:
        users = get_user_model().objects
        coach = users.create(username="bench-editor-coach", is_staff=True)
        coach.groups.add(ensure_coach_group())
        athlete = users.create(username="bench-editor-athlete")
        program = Program.objects.create(
            athlete=athlete, coach=coach, name="Bench", start_date=datetime.date(2026, 1, 5)
        )
        fill_program(program=program, weeks=weeks, sessions=sessions, exercises=exercises)
        self._page(program, coach)  # warm the template and permission caches
        timings, counts, size = [], set(), 0
        for _ in range(runs):
            elapsed, count, size = self._page(program, coach)
            timings.append(elapsed)
            counts.add(count)
        median = statistics.median(timings)
        verdict = "within" if median <= TARGET_MS else "OVER"
        self.stdout.write(
            f"editor, {weeks} weeks × {sessions} sessions × {exercises} exercises: median "
            f"{median:.0f} ms (min {min(timings):.0f}, max {max(timings):.0f}) over {runs} runs, "
            f"{'/'.join(map(str, sorted(counts)))} queries, {size // 1024} KiB; {verdict} the "
            f"{TARGET_MS} ms target"
        )
