"""python manage.py seed_demo [--reset-program]: the demo users, an 8-week program and the demo
data of every family (the workout library, 12 weeks of training data, the household's recipes,
this week's meal plan and a grocery list, wellness logs and a reminder). Each family declares its
part as ``DEMO`` (``coach.plan``); they run in ``INSTALLED_APPS`` order in one transaction, the
first making the demo people the others seed for, and the command prints what each did."""

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from coach.plan import DemoSeed, declared, demo_seeded


class Command(BaseCommand):
    help = (
        "Create the demo users (athlete, coach, staff) and an 8-week strength program for the "
        "athlete that started last Monday, its workouts logged but the last three (so Realign is "
        "offered). Safe to run again: an existing demo program is kept."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset-program",
            action="store_true",
            help="Delete the demo program (with everything logged in it) and build it again.",
        )

    def handle(self, *args, reset_program: bool = False, **options):
        seed = DemoSeed(today=timezone.localdate(), options={"reset_program": reset_program})
        with transaction.atomic():
            for family_demo in declared("DEMO"):
                family_demo(seed)
            demo_seeded.send(sender=self.__class__, seed=seed)
        for line in seed.lines:
            self.stdout.write(self.style.SUCCESS(line) if line in seed.created else line)
        for line in seed.closing:
            self.stdout.write(line)
