"""python manage.py bench_templates [--weeks 16] [--athletes 5 20] [--runs 5]: time a template's
pages for a throwaway coach, template and athletes (everything rolled back): the template's
one-page editor, the page proposing a template edit to every athlete (its query count should be
the same for any number of athletes) and one athlete's engine dry run. Prints figures; asserts
nothing."""

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
from programs.editor import service
from programs.editor.tree import EXERCISE_FIELDS, SESSION_FIELDS, WEEK_FIELDS, program_tree
from programs.models import Program, ProgramTemplate
from programs.plan_templates import propagate_views, views
from programs.plan_templates.assign import Wanted, assign, save_as_template

START = datetime.date(2026, 1, 5)


class Rollback(Exception):
    pass


def _fields(obj, names) -> dict:
    """As the page posts them: text, dates as ISO, nothing as ""."""
    values = {}
    for name in names:
        value = getattr(obj, name)
        values[name] = (
            "" if value is None else getattr(value, "isoformat", lambda v=value: str(v))()
        )
    return values


def _tree(program: Program) -> dict:
    """The editor's posted tree with the first exercise of every week's first session at 4 reps."""
    weeks = []
    for week in program_tree(program):
        sessions = []
        for s_index, session in enumerate(week.sessions.all()):
            exercises = []
            for e_index, e in enumerate(session.exercises.all()):
                fields = _fields(e, EXERCISE_FIELDS)
                if s_index == 0 and e_index == 0:
                    fields["reps"] = "4"
                exercises.append({"key": f"exercise-{e.pk}", "id": e.pk, "fields": fields})
            fields = _fields(session, SESSION_FIELDS)
            sessions.append(
                {
                    "key": f"session-{session.pk}",
                    "id": session.pk,
                    "fields": fields,
                    "exercises": exercises,
                }
            )
        fields = _fields(week, WEEK_FIELDS)
        weeks.append(
            {"key": f"week-{week.pk}", "id": week.pk, "fields": fields, "sessions": sessions}
        )
    return {"version": Program.objects.get(pk=program.pk).version, "weeks": weeks}


class Command(BaseCommand):
    help = "Time a template's editor, its propagation page and one athlete's dry run."

    def add_arguments(self, parser):
        parser.add_argument("--weeks", type=int, default=16)
        parser.add_argument("--sessions", type=int, default=5)
        parser.add_argument("--exercises", type=int, default=6)
        parser.add_argument("--athletes", type=int, nargs="+", default=[5, 20])
        parser.add_argument("--runs", type=int, default=5)

    def handle(self, *args, **options):
        try:
            with transaction.atomic():
                self._bench(**options)
                raise Rollback
        except Rollback:
            pass

    def _time(self, call, runs: int) -> tuple[float, float, float, set[int]]:
        call()  # warm caches
        timings, counts = [], set()
        for _ in range(runs):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                call()
                timings.append((time.perf_counter() - start) * 1000)
            counts.add(len(queries))
        return statistics.median(timings), min(timings), max(timings), counts

    def _line(self, what: str, figures) -> None:
        median, low, high, counts = figures
        self.stdout.write(
            f"{what}: median {median:.0f} ms (min {low:.0f}, max {high:.0f}), "
            f"{'/'.join(map(str, sorted(counts)))} queries"
        )

    def _bench(self, *, weeks, sessions, exercises, athletes, runs, **options) -> None:
        users = get_user_model().objects
        coach = users.create(username="bench-template-coach", is_staff=True)
        coach.groups.add(ensure_coach_group())
        source = Program.objects.create(athlete=coach, coach=coach, name="Bench", start_date=START)
        fill_program(program=source, weeks=weeks, sessions=sessions, exercises=exercises)
        template = save_as_template(program=source, coach=coach, name="Bench template")
        model_admin = admin.site._registry[ProgramTemplate]
        shape = f"{weeks} weeks × {sessions} sessions × {exercises} exercises"

        def page(view, path, *extra):
            request = RequestFactory().get(path)
            request.user = coach
            response = view(request, model_admin, str(template.pk), *extra)
            response.render()
            return response

        self._line(
            f"template editor, {shape}",
            self._time(lambda: page(views.editor, "/editor/"), runs),
        )
        done = 0
        edited = False
        for count in sorted(athletes):
            people = []
            for i in range(done, count):
                athlete = users.create(username=f"bench-template-athlete-{i}")
                Program.objects.create(
                    athlete=athlete, coach=coach, name="Earlier", start_date=START
                )
                people.append(athlete)
            assign(template=template, coach=coach, wanted=[Wanted(a.pk, START) for a in people])
            done = count
            if not edited:
                result = service.apply(
                    program=template.program, user=coach, data=_tree(template.program)
                )
                assert result.applied, result.message
                edited = True
            self._line(
                f"propagation page, {count} athletes, {shape}",
                self._time(lambda: page(propagate_views.propagation, "/propagation/"), runs),
            )
        assignment = template.assignments.select_related("program__athlete", "version").first()

        def dry_run():
            request = RequestFactory().post("/dry-run/")
            request.user = coach
            request._dont_enforce_csrf_checks = True
            return propagate_views.dry_run(request, model_admin, str(template.pk), assignment.pk)

        self._line(f"one athlete's dry run ({weeks} changes), {shape}", self._time(dry_run, runs))
