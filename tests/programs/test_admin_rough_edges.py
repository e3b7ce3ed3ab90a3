"""Rough edges of the coach admin (issue 8): the parent lists name the program and week, week
dates out of order get a warning, and a violated constraint reads as a sentence."""

import datetime

import pytest
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.urls import reverse

from programs.admin_forms import humane_constraint_errors
from programs.models import Week
from programs.selectors import week_date_problems
from tests.factories import build_program
from tests.programs.admin_support import change_url, page_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_program(coach):
    """Overrides conftest's: 2 × 2 × 1, so the session list has four entries."""
    return build_program(weeks=2, sessions=2, exercises=1, coach=coach, name="Ann's block")


@pytest.fixture
def other_program(other_coach):
    """Overrides conftest's: 1 × 2 × 1."""
    return build_program(weeks=1, sessions=2, exercises=1, coach=other_coach, name="Bob's block")


def test_the_add_exercise_session_list_names_program_week_and_session_of_the_coachs_programs(
    coach_client, own_program, other_program
):
    form = coach_client.get(reverse("admin:programs_exercise_add")).context["adminform"].form
    field = form.fields["session"]
    labels = [field.label_from_instance(s) for s in field.queryset]
    assert labels == [
        "Ann's block · Week 1 · Session 1: Session 1",
        "Ann's block · Week 1 · Session 2: Session 2",
        "Ann's block · Week 2 · Session 1: Session 1",
        "Ann's block · Week 2 · Session 2: Session 2",
    ]
    html = coach_client.get(reverse("admin:programs_exercise_add")).content.decode()
    assert "Ann&#x27;s block · Week 2 · Session 1: Session 1" in html
    assert "Bob&#x27;s block" not in html


def test_the_add_session_week_list_names_the_program(coach_client, own_program):
    form = coach_client.get(reverse("admin:programs_session_add")).context["adminform"].form
    field = form.fields["week"]
    assert [field.label_from_instance(w) for w in field.queryset] == [
        "Ann's block · Week 1: Accumulation",
        "Ann's block · Week 2: Accumulation",
    ]


def week_post(client, week, **changes):
    data = page_data(client, week)
    data.update(changes)
    return client.post(change_url(week), data)


def test_a_week_ending_before_it_starts_gets_a_sentence_not_a_constraint_name(
    coach_client, own_program
):
    week = Week.objects.get(program=own_program, position=1)
    response = week_post(coach_client, week, start_date="2027-01-10", end_date="2027-01-04")
    assert response.status_code == 200
    html = response.content.decode()
    assert "week_dates_ordered" not in html and "is violated" not in html
    assert "the end date must be on or after the start date" in html
    week.refresh_from_db()
    assert week.start_date != datetime.date(2027, 1, 10)


def test_a_violated_constraint_reads_as_a_sentence():
    error = ValidationError("Constraint “exercise_rest_gte_0” is violated.")
    assert humane_constraint_errors(error).messages == ["Rest can't be negative."]


def test_week_dates_out_of_order_get_a_warning_after_saving(coach_client, own_program):
    week = Week.objects.get(program=own_program, position=2)
    first = Week.objects.get(program=own_program, position=1)
    start = first.end_date.isoformat()  # overlaps week 1's last day
    response = week_post(coach_client, week, start_date=start, end_date=week.end_date.isoformat())
    assert response.status_code == 302
    warnings = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(
        f"Week 2 starts {start}, before week 1 ends ({first.end_date.isoformat()})." in m
        for m in warnings
    )
    assert week_date_problems(program_id=own_program.pk) != []


def test_weeks_in_order_give_no_warning(coach_client, own_program):
    week = Week.objects.get(program=own_program, position=2)
    response = week_post(coach_client, week, phase="Deload")
    assert response.status_code == 302
    assert not [m for m in get_messages(response.wsgi_request) if "out of order" in str(m)]
    assert week_date_problems(program_id=own_program.pk) == []
