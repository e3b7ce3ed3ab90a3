import datetime

import pytest
from django.db.models import Count

from tests.factories import UserFactory
from training.demo import seed_training_demo
from training.models import Activity, SleepRecord
from training.selectors import fitness_on

pytestmark = pytest.mark.django_db
TODAY = datetime.date(2026, 11, 22)


def test_demo_has_twelve_weeks_of_runs_rides_strength_and_sleep():
    athlete = UserFactory()
    result = seed_training_demo(athlete=athlete, today=TODAY)
    sports = dict(Activity.objects.values_list("sport").annotate(n=Count("pk")))
    assert set(sports) == {"RUNNING", "CYCLING", "STRENGTH"}
    assert 70 <= result.activities <= 84 and result.sleep == 84
    dates = Activity.objects.values_list("local_date", flat=True)
    assert min(dates) >= TODAY - datetime.timedelta(weeks=12) and max(dates) < TODAY
    ride = Activity.objects.filter(sport="CYCLING").first()
    assert ride.load_method == "POWER" and len(ride.streams["t"]) <= 2000
    assert SleepRecord.objects.filter(athlete=athlete, night=TODAY).exists()


def test_demo_is_idempotent():
    athlete = UserFactory()
    seed_training_demo(athlete=athlete, today=TODAY)
    counts = Activity.objects.count(), SleepRecord.objects.count()
    again = seed_training_demo(athlete=athlete, today=TODAY)
    assert (again.activities, again.sleep) == (0, 0)
    assert (Activity.objects.count(), SleepRecord.objects.count()) == counts


def test_demo_builds_real_fitness():
    athlete = UserFactory()
    seed_training_demo(athlete=athlete, today=TODAY)
    scores = fitness_on(athlete=athlete, date=TODAY - datetime.timedelta(days=1))
    assert 30 < scores["ctl"] < 90 and scores["atl"] > 0
