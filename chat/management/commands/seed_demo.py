"""python manage.py seed_demo [--reset-program]: the demo users, an 8-week program and the demo
data of every app (the workout library, 12 weeks of training data, the household's recipes, this
week's meal plan and a grocery list). It lives in the top app because it seeds all of them."""

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from library.demo import seed_library_demo
from nutrition.demo import seed_nutrition_demo
from programs.demo import DEMO_LOGINS, seed_demo
from training.demo import seed_training_demo
from wellness.demo import seed_wellness_demo


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
        with transaction.atomic():
            result = seed_demo(reset_program=reset_program)
            program = result.program
            library = seed_library_demo(coach=program.coach, athlete=program.athlete)
            training = seed_training_demo(athlete=program.athlete, today=timezone.localdate())
            food = seed_nutrition_demo(athlete=program.athlete, today=timezone.localdate())
            wellness = seed_wellness_demo(athlete=program.athlete, today=timezone.localdate())
        weeks = program.weeks.count()
        if result.program_created:
            self.stdout.write(
                self.style.SUCCESS(
                    f'Created "{program.name}" for {program.athlete.username}: {weeks} weeks from '
                    f"Monday {program.start_date.isoformat()}, coached by {program.coach}."
                )
            )
        else:
            self.stdout.write(
                f'Kept the existing "{program.name}" (version {program.version}, {weeks} weeks, '
                f"from {program.start_date.isoformat()}). Use --reset-program to rebuild it."
            )
        self.stdout.write(
            f"Workout library: {library.total} demo workouts ({library.created} new)."
        )
        self.stdout.write(
            f"Training data: {training.activities} new activities, {training.sleep} new nights "
            "of sleep (12 weeks up to yesterday)."
        )
        self.stdout.write(
            f"Nutrition: {food.recipes} new recipes, {food.meals} meals planned this week, "
            f"{food.list_items} items on a new grocery list (known ingredients: "
            f"{food.ingredients} added)."
        )
        self.stdout.write(
            f"Wellness: {wellness.readiness} new readiness logs, {wellness.supplements} new "
            "supplement logs (the last 7 days), a daily creatine reminder."
        )
        self.stdout.write("Log in at /accounts/login/ as:")
        width = max(len(f"{login.username} / {login.password}") for login in DEMO_LOGINS)
        for login in DEMO_LOGINS:
            credentials = f"{login.username} / {login.password}"
            self.stdout.write(f"  {credentials:<{width}}  ({login.where})")
