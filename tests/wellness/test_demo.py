"""``seed_demo`` gives the demo athlete a week of readiness and supplement logs, once."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from wellness.models import MedicationLog, ReadinessLog, Reminder

pytestmark = pytest.mark.django_db


def test_the_demo_athlete_has_a_week_of_readiness_and_supplements():
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert "Wellness: 7 new readiness logs, 14 new supplement logs" in out.getvalue()
    today = timezone.localdate()
    days = sorted(
        ReadinessLog.objects.filter(athlete__username="athlete").values_list("logged_on", flat=True)
    )
    assert len(days) == 7 and days[-1] == today and (days[-1] - days[0]).days == 6
    supplements = MedicationLog.objects.filter(athlete__username="athlete", kind="supplement")
    assert {s.name for s in supplements} == {"creatine", "vitamin D"} and supplements.count() == 14
    assert Reminder.objects.filter(athlete__username="athlete").count() == 1
    call_command("seed_demo", stdout=StringIO())
    assert ReadinessLog.objects.count() == 7 and MedicationLog.objects.count() == 14
