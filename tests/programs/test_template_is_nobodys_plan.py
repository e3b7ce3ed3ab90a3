"""A template is a program of the coach's own (programs.plan_templates), so every place that
lists an athlete's sessions by athlete must leave it out: a coach who also trains in Spotter
must not find their templates' sessions in their calendar or in their calendar feed."""

from __future__ import annotations

import datetime

import pytest

from library.feed import feed_for, sync_feed_events
from programs.models import Session
from tests.factories import build_program
from tests.programs.admin_support import make_coach
from tests.programs.template_support import MONDAY, template_of
from training.calendar import calendar_days

pytestmark = pytest.mark.django_db


@pytest.fixture
def coach_who_trains():
    coach = make_coach("coach-trains")
    own = build_program(weeks=1, sessions=1, exercises=1, athlete=coach, start_date=MONDAY)
    template = template_of(coach, weeks=1, sessions=2)
    return coach, own, template


def test_the_coachs_calendar_shows_their_own_plan_and_not_their_templates(coach_who_trains):
    coach, own, template = coach_who_trains
    assert Session.objects.filter(week__program=template.program, scheduled_date__isnull=False)
    days = calendar_days(
        athlete=coach, start=MONDAY, end=MONDAY + datetime.timedelta(days=13), today=MONDAY
    )
    shown = {row.id for day in days.values() for row in day.sessions}
    assert shown == set(Session.objects.filter(week__program=own).values_list("pk", flat=True))


def test_the_coachs_calendar_feed_leaves_their_templates_out(coach_who_trains):
    coach, own, _template = coach_who_trains
    events = sync_feed_events(feed=feed_for(athlete=coach))
    own_sessions = set(Session.objects.filter(week__program=own).values_list("pk", flat=True))
    assert {event.session_pk for event in events} == own_sessions
