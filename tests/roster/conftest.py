"""The people of the roster's tests: a coach with two athletes (one flagged), another coach with
one, a staff reader; the flags computed."""

import pytest
from django.utils import timezone

from roster import services
from roster.models import Flag, FlagKind
from tests.chat.admin_helpers import make_coach, make_staff
from tests.roster.builders import athlete_with_plan


@pytest.fixture
def today():
    return timezone.localdate()


@pytest.fixture
def coach(db):
    return make_coach("coach-casey")


@pytest.fixture
def other_coach(db):
    return make_coach("coach-olly")


@pytest.fixture
def staff(db):
    return make_staff()


@pytest.fixture
def team(coach, other_coach, today):
    """``(flagged, fine, someone else's)``: the coach's athletes and the other coach's one, with
    the flags computed (the flagged one and the other coach's have missed three sessions)."""
    flagged = athlete_with_plan(coach, today=today, username="ann", missed=3)
    fine = athlete_with_plan(coach, today=today, username="ben")
    theirs = athlete_with_plan(other_coach, today=today, username="zoe", missed=3)
    services.compute_flags(today=today)
    return flagged, fine, theirs


@pytest.fixture
def their_flag(team):
    return Flag.objects.get(athlete=team[2], kind=FlagKind.MISSED)


@pytest.fixture
def my_flag(team):
    return Flag.objects.get(athlete=team[0], kind=FlagKind.MISSED)
