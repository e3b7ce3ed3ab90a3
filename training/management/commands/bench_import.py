"""python manage.py bench_import [--rows 1000] [--fit 100]: time importing one Spotter CSV of
``rows`` activities and ``fit`` FIT files (written by ``training.fit_writer`` with fit-tool, a dev
dependency) for a throwaway athlete; everything is rolled back."""

import datetime
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from training import fit_writer
from training.imports import import_files


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time imports: one CSV of many activities, and many FIT files."

    def add_arguments(self, parser):
        parser.add_argument("--rows", type=int, default=1000)
        parser.add_argument("--fit", type=int, default=100)

    def handle(self, *args, rows, fit, **options):
        if not fit_writer.AVAILABLE:
            raise CommandError("bench_import needs the dev dependencies (fit-tool).")
        try:
            with transaction.atomic():
                self._bench(rows, fit)
                raise Rollback
        except Rollback:
            pass

    def _run(self, label, athlete, files):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            report = import_files(athlete=athlete, files=files)
            elapsed = time.perf_counter() - started
        self.stdout.write(
            f"{label}: {elapsed * 1000:.0f} ms, {len(queries)} queries ({connection.vendor}); "
            f"{report.summary}"
        )

    def _bench(self, rows, fit):
        athlete = get_user_model().objects.create(username="bench-import-athlete")
        start = datetime.date(2023, 1, 1)
        lines = ["date,sport,name,duration_s,distance_m,avg_hr,max_hr,elevation_m,load"] + [
            f"{start + datetime.timedelta(days=i)},RUNNING,Run {i},3000,8000,145,160,30,"
            for i in range(rows)
        ]
        self._run(
            f"one CSV of {rows} activities",
            athlete,
            [("big.csv", ("\n".join(lines) + "\n").encode())],
        )
        moment = datetime.datetime(2026, 1, 1, 7, tzinfo=datetime.UTC)
        files = [
            (
                f"ride{i}.fit",
                fit_writer.fit_activity(start=moment + datetime.timedelta(days=i), minutes=60),
            )
            for i in range(fit)
        ]
        self._run(f"{fit} FIT files of 1 h (720 records each)", athlete, files)
