"""``manage.py seed_library_demo [--coach NAME] [--athlete NAME]``: the demo workout library for
the demo coach and athlete (run ``seed_demo`` first). Safe to run again."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from library.demo import seed_library_demo


class Command(BaseCommand):
    help = "Create the demo workout library (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--coach", default="coach", help="username of the coach (default coach)"
        )
        parser.add_argument(
            "--athlete", default="athlete", help="username of the athlete (default athlete)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        try:
            coach = users.get(username=options["coach"])
            athlete = users.get(username=options["athlete"])
        except users.model.DoesNotExist:
            raise CommandError(
                f"No user {options['coach']!r} or {options['athlete']!r}; run seed_demo first."
            ) from None
        result = seed_library_demo(coach=coach, athlete=athlete)
        self.stdout.write(
            f"Workout library: {result.created} created, {result.total} in the demo set."
        )
