"""python manage.py bench_fitness [--years 3] [--runs 20]: time ``fitness_series`` over daily
data (one activity a day) for a throwaway athlete; everything is rolled back."""

import datetime
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from training.models import Activity
from training.selectors import fitness_series
from training.services import athlete_today, profile_for


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the fitness series over years of daily data (goal: ≤ 50 ms for three years)."

    def add_arguments(self, parser):
        parser.add_argument("--years", type=int, default=3)
        parser.add_argument("--runs", type=int, default=20)

    def handle(self, *args, years, runs, **options):
        try:
            with transaction.atomic():
                self._bench(years, runs)
                raise Rollback
        except Rollback:
            pass

    def _bench(self, years: int, runs: int) -> None:
        athlete = get_user_model().objects.create(username="bench-fitness-athlete")
        today = athlete_today(profile=profile_for(athlete=athlete))
        days = years * 365
        first = today - datetime.timedelta(days=days - 1)
        Activity.objects.bulk_create(
            (
                Activity(
                    athlete=athlete,
                    sport="RUNNING",
                    local_date=day,
                    start=datetime.datetime.combine(day, datetime.time(7), tzinfo=datetime.UTC),
                    moving_s=3600,
                    training_load=40 + (i % 7) * 10,
                    load_method="ESTIMATE",
                    dedupe_key=f"bench:{i}",
                )
                for i, day in enumerate(first + datetime.timedelta(days=n) for n in range(days))
            ),
            batch_size=500,
        )
        timings = []
        for _ in range(runs):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                series = fitness_series(athlete=athlete, start=first, end=today)
                timings.append((time.perf_counter() - started) * 1000)
        self.stdout.write(
            f"fitness_series over {len(series)} days ({days} activities): "
            f"median {statistics.median(timings):.1f} ms, max {max(timings):.1f} ms, "
            f"{len(queries)} queries ({connection.vendor})"
        )
