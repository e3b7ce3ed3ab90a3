"""In a real browser, phone width: log today's session set by set, then see its load on the
fitness page and its chart drawn by the vendored uPlot."""

import datetime

import pytest

from tests.browser.conftest import needs_chromium
from tests.factories import (
    ExerciseFactory,
    ProgramFactory,
    SessionFactory,
    UserFactory,
    WeekFactory,
)
from training.models import Activity

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_log_todays_session_set_by_set_and_see_it_on_the_fitness_chart(live_server, page):
    today = datetime.datetime.now(datetime.UTC).date()
    athlete = UserFactory(username="phone-athlete")
    program = ProgramFactory(athlete=athlete, start_date=today)
    week = WeekFactory(program=program, start_date=today, end_date=today + datetime.timedelta(6))
    session = SessionFactory(week=week, scheduled_date=today, name="Upper Body A")
    bench = ExerciseFactory(session=session, name="Bench Press", warmup_sets=0, working_sets=2)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "phone-athlete")
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit], input[type=submit]")
    page.goto(f"{live_server.url}/training/log/")
    assert "Upper Body A" in page.inner_text("h1")
    for number in (1, 2):
        page.get_by_label(f"Bench Press set {number} reps").fill("8")
        page.get_by_label(f"Bench Press set {number} load").fill("60 kg")
        page.get_by_label(f"Bench Press set {number} RPE").fill("8")
    page.get_by_label("Duration (min)").fill("45")
    page.get_by_label("Session RPE").fill("8")
    page.get_by_label("Rating").fill("4")
    page.click("text=Mark complete")
    page.wait_for_url("**/training/activities/*/")
    assert "Upper Body A logged: load 72" in page.inner_text("body")

    activity = Activity.objects.get(athlete=athlete)
    assert activity.session_id == session.pk and bench.sets.count() == 2
    page.goto(f"{live_server.url}/training/fitness/")
    assert page.inner_text("#score-load") == "72.0"
    page.wait_for_selector("#fitness-chart canvas")
