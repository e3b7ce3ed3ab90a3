"""Demo wellness data: a week of readiness and supplement logs (creatine and vitamin D) up to
``today`` and a daily creatine reminder, for the demo athlete. Idempotent: a day that already has
its readiness or supplement log is left alone. Fixed values, no randomness."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction

from .models import MedicationLog, ReadinessLog, Reminder

DAYS = 7
# (sleep quality, soreness, stress) from six days ago to today
READINESS = [(4, 2, 2), (3, 3, 3), (4, 4, 2), (2, 3, 4), (4, 2, 3), (5, 2, 2), (4, 3, 2)]
SUPPLEMENTS = [("creatine", "5 g", "morning"), ("vitamin D", "1000 IU", "morning")]


@dataclass(frozen=True)
class DemoResult:
    readiness: int
    supplements: int


@transaction.atomic
def seed_wellness_demo(*, athlete, today: datetime.date) -> DemoResult:
    readiness = supplements = 0
    for offset, (sleep, soreness, stress) in enumerate(READINESS):
        day = today - datetime.timedelta(days=DAYS - 1 - offset)
        if not ReadinessLog.all_objects.filter(athlete=athlete, logged_on=day).exists():
            ReadinessLog.objects.create(
                athlete=athlete,
                logged_on=day,
                sleep_quality=sleep,
                soreness=soreness,
                stress=stress,
            )
            readiness += 1
        for name, dose, part in SUPPLEMENTS:
            if not MedicationLog.all_objects.filter(
                athlete=athlete, taken_on=day, name=name
            ).exists():
                MedicationLog.objects.create(
                    athlete=athlete,
                    name=name,
                    kind="supplement",
                    dose=dose,
                    taken_on=day,
                    part_of_day=part,
                )
                supplements += 1
    if not Reminder.all_objects.filter(athlete=athlete).exists():
        Reminder.objects.create(
            athlete=athlete, title="Take creatine", time=datetime.time(8, 0), days=list(range(1, 8))
        )
    return DemoResult(readiness=readiness, supplements=supplements)
