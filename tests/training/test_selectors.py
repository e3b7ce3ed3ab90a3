import datetime
import json

import pytest
from django.core.management import call_command

from tests.factories import (
    ActivityFactory,
    CardioBlockFactory,
    ExerciseFactory,
    ProgramFactory,
    SessionFactory,
    SleepRecordFactory,
    UserFactory,
    WeekFactory,
)
from training import selectors
from training.models import AthleteProfile
from training.services import activity_soft_delete

pytestmark = pytest.mark.django_db
TODAY = datetime.datetime.now(datetime.UTC).date()


def days(n: int) -> datetime.date:
    return TODAY + datetime.timedelta(days=n)


@pytest.fixture
def athlete():
    return UserFactory()


def test_last_activity_by_sport_in_the_athletes_units(athlete):
    AthleteProfile.objects.create(athlete=athlete, distance_unit="mi")
    ActivityFactory(athlete=athlete, local_date=days(-3), distance_m=16093.44, moving_s=4800)
    ActivityFactory(athlete=athlete, local_date=days(-1), sport="CYCLING", name="Ride")
    ActivityFactory(local_date=days(0))  # someone else's
    run = selectors.last_activity(athlete=athlete, sport="running")
    assert (run["distance_mi"], run["pace"], run["duration"]) == (10.0, "8:00 /mi", "1:20:00")
    assert selectors.last_activity(athlete=athlete)["name"] == "Ride"
    assert selectors.last_activity(athlete=UserFactory()) is None


def test_deleted_activities_are_not_read(athlete):
    activity = ActivityFactory(athlete=athlete)
    activity_soft_delete(activity=activity)
    assert selectors.last_activity(athlete=athlete) is None


def test_activity_on_a_date(athlete):
    ActivityFactory(athlete=athlete, local_date=days(-2), name="a")
    ActivityFactory(athlete=athlete, local_date=days(-1), name="b")
    assert [a["name"] for a in selectors.activity_on(athlete=athlete, date=days(-2))] == ["a"]


def test_activities_between_caps_rows_and_totals_all(athlete):
    for n in range(60):
        ActivityFactory(athlete=athlete, local_date=days(-n), training_load=10)
    result = selectors.activities_between(athlete=athlete, start=days(-59), end=days(0), limit=500)
    assert (result["count"], result["shown"], result["more"]) == (60, 50, 10)
    assert result["total_load"] == 600 and result["total_distance_km"] == 540.0


def test_sleep_recent_lists_nights_and_averages(athlete):
    SleepRecordFactory(athlete=athlete, night=days(0), score=80, duration_min=480)
    SleepRecordFactory(athlete=athlete, night=days(-1), score=70, duration_min=420)
    SleepRecordFactory(athlete=athlete, night=days(-10))
    result = selectors.sleep_recent(athlete=athlete, days=7)
    assert [n["score"] for n in result["nights"]] == [80, 70]
    assert result["average"]["score"] == 75 and result["average"]["duration_h"] == 7.5


def test_fitness_series_starts_at_zero_the_day_before_the_first_activity(athlete):
    ActivityFactory(athlete=athlete, local_date=days(-2), training_load=100)
    series = selectors.fitness_series(athlete=athlete, start=days(-4), end=days(0))
    assert [round(d.ctl, 3) for d in series] == [0, 0, 2.381, 2.324, 2.269]
    assert series[2].tsb == 0 and round(series[3].tsb, 3) == -11.905


def test_starting_values_set_by_the_coach_are_used(athlete):
    AthleteProfile.objects.create(
        athlete=athlete, starting_ctl=50, starting_atl=40, starting_date=days(-1)
    )
    today = selectors.fitness_series(athlete=athlete, start=days(0), end=days(0))[0]
    assert (today.tsb, round(today.ctl, 3), round(today.atl, 3)) == (10, 48.81, 34.286)


def test_projection_uses_the_planned_loads_of_future_sessions(athlete):
    ActivityFactory(athlete=athlete, local_date=days(-1), training_load=60)
    program = ProgramFactory(athlete=athlete, start_date=days(-1))
    week = WeekFactory(program=program, start_date=days(-1), end_date=days(5))
    CardioBlockFactory(session=SessionFactory(week=week, scheduled_date=days(2)), duration=60)
    strength = SessionFactory(week=week, scheduled_date=days(3))
    ExerciseFactory(session=strength, working_sets=4)
    series = selectors.fitness_series(
        athlete=athlete, start=days(0), end=days(0), project_until=days(4)
    )
    assert [d.load for d in series] == [0, 0, 50, 12, 0]
    assert [d.projected for d in series] == [False, True, True, True, True]


def test_fitness_on_gives_the_7_day_trend_and_the_projection(athlete):
    ActivityFactory(athlete=athlete, local_date=days(-8), training_load=100)
    ActivityFactory(athlete=athlete, local_date=days(0), training_load=50)
    result = selectors.fitness_on(athlete=athlete)
    assert result["date"] == TODAY.isoformat() and result["load"] == 50
    week_ago = 100 / 42 * (41 / 42)  # the day after the 100
    yesterday = 100 / 42 * (41 / 42) ** 7
    now = yesterday + (50 - yesterday) / 42
    assert result["ctl"] == round(now, 1)
    assert result["trend_7d"]["ctl"] == round(now - week_ago, 1)
    assert all(p["date"] > TODAY.isoformat() for p in result["projection"])


def test_compare_activities_side_by_side_with_differences(athlete):
    a = ActivityFactory(athlete=athlete, avg_hr=140, training_load=40)
    b = ActivityFactory(athlete=athlete, avg_hr=150, training_load=55)
    stranger = ActivityFactory()
    result = selectors.compare_activities(athlete=athlete, ids=[a.pk, b.pk, stranger.pk])
    assert [r["id"] for r in result["activities"]] == [a.pk, b.pk]
    assert result["differences_from_first"][0]["avg_hr"] == 10
    assert result["differences_from_first"][0]["load"] == 15
    assert result["missing_ids"] == [stranger.pk]


def test_fitness_scores_command_prints_one_decimal_json_last(athlete, capsys):
    ActivityFactory(athlete=athlete, local_date=datetime.date(2026, 1, 1), training_load=100)
    call_command("fitness_scores", athlete.username, "--on", "2026-01-02")
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert json.loads(last) == {
        "date": "2026-01-02",
        "ctl": 2.3,
        "atl": 12.2,
        "tsb": -11.9,
        "load": 0.0,
    }


def test_form_on_dates_follows_a_change_of_plan(athlete):
    program = ProgramFactory(athlete=athlete, start_date=days(-1))
    week = WeekFactory(program=program, start_date=days(-1), end_date=days(5))
    session = SessionFactory(week=week, scheduled_date=days(2))
    CardioBlockFactory(session=session, duration=120, type="threshold")
    before = selectors.form_on_dates(athlete=athlete, dates=[days(3), days(5)])
    session.cardio.delete()
    after = selectors.form_on_dates(athlete=athlete, dates=[days(3), days(5)])
    # 2 h at threshold is a planned load of 180: form the day after it drops by 180/7 - 180/42
    assert round(before[days(3)]["tsb"] - after[days(3)]["tsb"], 1) == round(
        -(180 / 7 - 180 / 42), 1
    )
    assert before[days(5)]["projected"] is True
