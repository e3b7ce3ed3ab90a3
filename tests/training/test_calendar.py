"""The calendar: the compliance colours (pure functions, worked examples), each session's state,
the activities beside each day, and the month, week and phone list views of the page."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.factories import (
    ActivityFactory,
    CardioBlockFactory,
    ExerciseFactory,
    ProgramFactory,
    SessionFactory,
    UserFactory,
    WeekFactory,
)
from training import compliance, services
from training.calendar import CalendarError, calendar_days, calendar_view, parse_anchor

TODAY = datetime.date(2026, 11, 18)  # a Wednesday

# --- the colour rule ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("percent", "colour"),
    [
        (100, "green"),
        (80, "green"),
        (120, "green"),
        (79, "yellow"),
        (50, "yellow"),
        (121, "yellow"),
        (150, "yellow"),
        (49, "red"),
        (151, "red"),
        (0, "red"),
        (300, "red"),
    ],
)
def test_duration_colour_follows_the_trainingpeaks_bands(percent, colour):
    assert compliance.duration_colour(percent) == colour


def test_the_percentage_is_rounded_to_a_whole_number():
    # 47 of 60 minutes is 78.3 % → 78 (yellow); 48 of 60 is 80 % (green).
    assert compliance.compliance_percent(planned_minutes=60, actual_minutes=47) == 78
    assert compliance.compliance_percent(planned_minutes=60, actual_minutes=48) == 80
    with pytest.raises(ValueError, match="at least 1"):
        compliance.compliance_percent(planned_minutes=0, actual_minutes=10)


@pytest.mark.parametrize(
    ("kwargs", "colour"),
    [
        ({"completed": True, "planned_minutes": 60, "actual_minutes": 55}, "green"),
        ({"completed": True, "planned_minutes": 60, "actual_minutes": 40}, "yellow"),
        ({"completed": True, "planned_minutes": 60, "actual_minutes": 95}, "red"),
        ({"completed": False, "planned_minutes": 60, "actual_minutes": None}, "red"),  # missed
        ({"completed": True, "planned_minutes": 60, "actual_minutes": None}, None),
        ({"completed": False, "planned_minutes": 60, "actual_minutes": None, "rest": True}, None),
    ],
)
def test_a_past_session_is_coloured_by_compliance_or_red_when_missed(kwargs, colour):
    day = TODAY - datetime.timedelta(days=1)
    assert compliance.compliance_colour(date=day, today=TODAY, **kwargs) == colour


def test_a_session_still_to_come_today_or_later_has_no_colour():
    for day in (TODAY, TODAY + datetime.timedelta(days=3)):
        assert (
            compliance.compliance_colour(
                date=day, today=TODAY, completed=False, planned_minutes=60, actual_minutes=None
            )
            is None
        )


def test_planned_minutes_are_the_cardio_else_the_strength_estimate():
    # Three sets with 3 minutes' rest: 3 × (45 + 180) s = 675 s → 12 minutes (rounded up).
    assert compliance.strength_minutes([(3, 180)]) == 12
    assert compliance.planned_minutes(cardio_minutes=40, sets=[(3, 180)]) == 40
    assert compliance.planned_minutes(cardio_minutes=None, sets=[(3, 180), (4, 90)]) == 21
    assert compliance.planned_minutes(cardio_minutes=None, sets=[]) is None  # a rest day


def test_logged_minutes_prefer_the_session_then_the_cardio_then_the_activities():
    assert compliance.logged_minutes(session_minutes=50, cardio_actual_minutes=30) == 50
    assert compliance.logged_minutes(session_minutes=None, cardio_actual_minutes=30) == 30
    assert (
        compliance.logged_minutes(
            session_minutes=None, cardio_actual_minutes=None, activity_seconds=[1800, 930]
        )
        == 46
    )
    assert compliance.logged_minutes(session_minutes=None, cardio_actual_minutes=None) is None


# --- the sessions and activities of each day ----------------------------------------------------


@pytest.fixture
def athlete(db):
    return UserFactory()


@pytest.fixture
def week(athlete):
    """Monday 2026-11-16 to Sunday 2026-11-22."""
    program = ProgramFactory(athlete=athlete, start_date=datetime.date(2026, 11, 16))
    return WeekFactory(program=program)


def session_on(week, day, name, **fields):
    return SessionFactory(
        week=week, name=name, scheduled_date=datetime.date(2026, 11, day), **fields
    )


def test_each_session_gets_its_state_and_colour(athlete, week):
    done = session_on(week, 16, "Zone 2 Run", completed=True, duration=33)
    CardioBlockFactory(session=done, duration=30)
    short = session_on(week, 16, "Tempo", completed=True, duration=12)
    CardioBlockFactory(session=short, duration=30)
    missed = session_on(week, 17, "Squats")
    ExerciseFactory(session=missed, warmup_sets=1, working_sets=3, rest_seconds=120)
    session_on(week, 17, "Rest")
    later = session_on(week, 20, "Long Run")
    CardioBlockFactory(session=later, duration=90)
    days = calendar_days(
        athlete=athlete,
        start=datetime.date(2026, 11, 16),
        end=datetime.date(2026, 11, 22),
        today=TODAY,
    )
    rows = {s.name: s for day in days.values() for s in day.sessions}
    assert (rows["Zone 2 Run"].state, rows["Zone 2 Run"].colour) == ("completed", "green")
    assert rows["Zone 2 Run"].percent == 110
    assert (rows["Tempo"].state, rows["Tempo"].colour, rows["Tempo"].percent) == (
        "completed",
        "red",
        40,
    )
    # 4 sets × (45 + 120) s = 660 s → 11 minutes planned; not done and past: missed, red.
    assert (rows["Squats"].state, rows["Squats"].colour) == ("missed", "red")
    assert rows["Squats"].planned_minutes == 11
    assert (rows["Rest"].state, rows["Rest"].colour) == ("rest", None)
    assert (rows["Long Run"].state, rows["Long Run"].colour) == ("planned", None)
    assert [s.name for s in days[datetime.date(2026, 11, 16)].sessions] == ["Zone 2 Run", "Tempo"]


def test_a_linked_activitys_time_counts_and_activities_sit_beside_their_day(athlete, week):
    run = session_on(week, 17, "Easy Run", completed=True)
    CardioBlockFactory(session=run, duration=40)
    ActivityFactory(
        athlete=athlete, session=run, local_date=datetime.date(2026, 11, 17), moving_s=2100
    )
    ActivityFactory(athlete=athlete, name="Commute ride", sport="CYCLING",
                    local_date=datetime.date(2026, 11, 19), moving_s=1200)  # fmt: skip
    ActivityFactory(athlete=UserFactory(), local_date=datetime.date(2026, 11, 19))
    days = calendar_days(
        athlete=athlete,
        start=datetime.date(2026, 11, 16),
        end=datetime.date(2026, 11, 22),
        today=TODAY,
    )
    [row] = days[datetime.date(2026, 11, 17)].sessions
    assert (row.actual_minutes, row.percent, row.colour) == (35, 88, "green")
    assert [a.name for a in days[datetime.date(2026, 11, 19)].activities] == ["Commute ride"]
    assert days[datetime.date(2026, 11, 19)].activities[0].minutes == 20


def test_someone_elses_sessions_never_appear(athlete, week):
    other = WeekFactory(program=ProgramFactory(start_date=datetime.date(2026, 11, 16)))
    session_on(other, 17, "Not Mine")
    session_on(week, 17, "Mine")
    view = calendar_view(athlete=athlete, view="week", anchor=TODAY, today=TODAY)
    assert [s.name for day in view.days for s in day.sessions] == ["Mine"]


def test_the_month_is_whole_weeks_from_monday_and_costs_a_fixed_number_of_queries(
    athlete, week, django_assert_max_num_queries
):
    for day in range(16, 23):
        session = session_on(week, day, f"Day {day}")
        ExerciseFactory(session=session)
    with django_assert_max_num_queries(5):  # + the unavailable days, one query
        view = calendar_view(athlete=athlete, view="month", anchor=TODAY, today=TODAY)
    assert view.title == "November 2026"
    assert view.weeks[0][0].date == datetime.date(2026, 10, 26)
    assert view.weeks[-1][-1].date == datetime.date(2026, 12, 6)
    assert all(len(week_days) == 7 for week_days in view.weeks)
    assert len(view.days) == 30
    assert (view.previous, view.next) == (datetime.date(2026, 10, 1), datetime.date(2026, 12, 1))
    week_view = calendar_view(athlete=athlete, view="week", anchor=TODAY, today=TODAY)
    assert week_view.title == "Week of 16 November 2026"
    assert [d.date.day for d in week_view.days] == list(range(16, 23))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("soon", "date must be YYYY-MM-DD or YYYY-MM (got 'soon')."),
        ("1999-12-31", "The calendar shows 2000-01-01 to 2100-12-31 (got 1999-12-31)."),
    ],
)
def test_a_bad_date_names_the_bounds(raw, message):
    with pytest.raises(CalendarError) as raised:
        parse_anchor(raw, today=TODAY)
    assert str(raised.value) == message
    assert parse_anchor("2026-12", today=TODAY) == datetime.date(2026, 12, 1)
    assert parse_anchor("", today=TODAY) == TODAY


# --- the page ----------------------------------------------------------------------------------


@pytest.fixture
def logged_in(client, athlete, monkeypatch):
    monkeypatch.setattr(services, "athlete_today", lambda profile: TODAY)
    client.force_login(athlete)
    return client


def test_the_month_page_shows_sessions_with_their_colours_and_the_phone_list(logged_in, week):
    run = session_on(week, 16, "Zone 2 <Run>", completed=True, duration=30)
    CardioBlockFactory(session=run, duration=30)
    ExerciseFactory(session=session_on(week, 17, "Squats"))
    response = logged_in.get(reverse("training:calendar"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>November 2026</h1>" in html
    assert "Zone 2 &lt;Run&gt;" in html and "<Run>" not in html
    assert 'class="cal-session state-completed colour-green"' in html
    assert 'class="cal-session state-missed colour-red"' in html
    assert html.count("Squats") == 2  # once in the grid, once in the phone list
    assert 'class="calendar-list"' in html
    assert f'href="{reverse("training:log_session", args=[run.pk])}"' in html
    assert 'href="/training/calendar/"' in html  # the nav links the page


def test_the_week_page_and_its_neighbours(logged_in, week):
    session_on(week, 20, "Long Run")
    response = logged_in.get(reverse("training:calendar"), {"view": "week", "date": "2026-11-20"})
    html = response.content.decode()
    assert "<h1>Week of 16 November 2026</h1>" in html
    assert "Long Run" in html
    assert "?view=week&amp;date=2026-11-09" in html and "?view=week&amp;date=2026-11-23" in html


def test_a_bad_query_is_a_400_naming_the_bounds(logged_in):
    response = logged_in.get(reverse("training:calendar"), {"date": "3000-01-01"})
    assert response.status_code == 400
    assert "The calendar shows 2000-01-01 to 2100-12-31 (got 3000-01-01)." in (
        response.content.decode()
    )
    bad_view = logged_in.get(reverse("training:calendar"), {"view": "year"})
    assert bad_view.status_code == 400
    assert "view must be one of month, week" in bad_view.content.decode()


def test_the_calendar_needs_a_login(client, db):
    response = client.get(reverse("training:calendar"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
