"""The roster's query count does not grow with its athletes: the same at 5 and at 200, each
athlete with a program, logged sessions, activities, readiness logs, a flag, a waiting proposal
and a message. (Its render time is measured by ``bench_roster.py`` beside this file.)"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from roster import services
from tests.chat.admin_helpers import make_coach
from tests.roster.builders import athlete_message, athlete_with_plan, waiting_batch

pytestmark = pytest.mark.django_db


def coach_with(athletes: int, *, start: int = 0, coach=None):
    coach = coach or make_coach("coach-many")
    today = timezone.localdate()
    for n in range(start, start + athletes):
        athlete = athlete_with_plan(coach, today=today, username=f"a{n:03}", missed=n % 4)
        if n % 3 == 0:
            waiting_batch(athlete, hours_ago=30)
        if n % 5 == 0:
            athlete_message(athlete, "my calf is sore")
    services.compute_flags(today=today)
    return coach


def roster_queries(client, coach) -> tuple[int, int]:
    client.force_login(coach)
    client.get(reverse("roster:roster"))  # warm: the session, content types
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("roster:roster"))
    assert response.status_code == 200
    return len(queries), len(response.context["rows"])


def test_the_roster_makes_as_many_queries_for_200_athletes_as_for_5(client):
    coach = coach_with(5)
    few, rows = roster_queries(client, coach)
    assert rows == 5
    coach_with(195, start=5, coach=coach)
    many, rows = roster_queries(client, coach)
    assert rows == 200
    assert many == few, f"{few} queries for 5 athletes, {many} for 200"
