"""python manage.py fitness_scores USERNAME [--on YYYY-MM-DD]"""

import datetime
import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from training.selectors import fitness_series
from training.services import athlete_today, profile_for


class Command(BaseCommand):
    help = "Print Fitness (CTL), Fatigue (ATL), Form (TSB) and the day's load, one decimal."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--on", dest="on", help="YYYY-MM-DD (default: the athlete's today)")

    def handle(self, *args, username, on=None, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user named {username!r}.")
        try:
            day = datetime.date.fromisoformat(on) if on else None
        except ValueError as exc:
            raise CommandError(f"--on {on!r} is not a date like 2026-11-22.") from exc
        day = day or athlete_today(profile=profile_for(athlete=user))
        point = fitness_series(athlete=user, start=day, end=day)[-1]
        self.stdout.write(
            json.dumps(
                {
                    "date": point.date.isoformat(),
                    "ctl": round(point.ctl, 1),
                    "atl": round(point.atl, 1),
                    "tsb": round(point.tsb, 1),
                    "load": round(point.load, 1),
                }
            )
        )
