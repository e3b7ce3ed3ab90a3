"""Rough edges of the program tools (issue 8): a new week never silently overlaps the next one, and
a session added with a day goes where that day falls in the week."""

from __future__ import annotations

import datetime

import pytest

from coach.llm.offline import parse_command
from programs.models import Session, Week
from tests.coach.tool_helpers import apply, call, preview
from tests.factories import ExerciseFactory, ProgramFactory, SessionFactory, WeekFactory

pytestmark = pytest.mark.django_db
MONDAY = datetime.date(2026, 11, 30)


@pytest.fixture
def program():
    """Three Monday-to-Sunday weeks; sessions on Monday, Wednesday, Friday and a Sunday rest day."""
    program = ProgramFactory(start_date=MONDAY)
    for _ in range(3):
        week = WeekFactory(program=program)
        for offset in (0, 2, 4, 6):
            session = SessionFactory(
                week=week, scheduled_date=week.start_date + datetime.timedelta(days=offset)
            )
            if offset != 6:
                ExerciseFactory(session=session)
    return program


def weeks(program) -> list[tuple[int, str, datetime.date, datetime.date]]:
    return list(
        Week.objects.filter(program=program)
        .order_by("position")
        .values_list("position", "phase", "start_date", "end_date")
    )


def new_week(start: str, end: str) -> dict:
    return {"phase": "Deload", "startDate": start, "endDate": end, "sessions": [{"name": "Easy"}]}


def test_add_week_into_the_next_weeks_dates_moves_the_later_weeks_and_says_so(program):
    sessions_before = list(
        Session.objects.filter(week__program=program, week__position=2).values_list(
            "scheduled_date", flat=True
        )
    )
    add = call("add_week", position=2, weeks=[new_week("2026-12-07", "2026-12-13")])
    result = preview(program, add)
    assert result.success
    summary = result.results[0].summary
    assert "Week 3 and the 1 week after it move 7 days later" in summary
    moved = [d for d in result.preview["details"] if d["type"] == "modify"]
    assert moved and moved[0]["before"] == "starts 2026-12-07"
    assert moved[0]["after"].startswith("starts 2026-12-14")
    assert weeks(program)[1][2] == datetime.date(2026, 12, 7)  # a preview changes nothing

    assert apply(program, add).success
    assert [(p, start, end) for p, _, start, end in weeks(program)] == [
        (1, datetime.date(2026, 11, 30), datetime.date(2026, 12, 6)),
        (2, datetime.date(2026, 12, 7), datetime.date(2026, 12, 13)),
        (3, datetime.date(2026, 12, 14), datetime.date(2026, 12, 20)),
        (4, datetime.date(2026, 12, 21), datetime.date(2026, 12, 27)),
    ]
    moved_sessions = list(
        Session.objects.filter(week__program=program, week__position=3).values_list(
            "scheduled_date", flat=True
        )
    )
    assert moved_sessions == [d + datetime.timedelta(days=7) for d in sessions_before]


def test_add_week_in_a_gap_moves_nothing(program):
    add = call("add_week", position="end", weeks=[new_week("2026-12-21", "2026-12-27")])
    result = apply(program, add)
    assert result.success and "later" not in result.results[0].summary
    assert [w[2] for w in weeks(program)][:3] == [
        datetime.date(2026, 11, 30),
        datetime.date(2026, 12, 7),
        datetime.date(2026, 12, 14),
    ]


def test_add_week_starting_before_the_previous_week_ends_is_refused_with_the_dates(program):
    result = preview(
        program, call("add_week", position=2, weeks=[new_week("2026-12-05", "2026-12-11")])
    )
    error = result.results[0].errors[0]
    assert error.code == "VALIDATION_ERROR" and error.field == "weeks.0.startDate"
    assert error.message == (
        "The new week would start on 2026-12-05, but week 1 ends on 2026-12-06; start it on "
        "2026-12-07 or later, or insert it at another position."
    )


def session_days(program, week=1) -> list[str]:
    return list(
        Session.objects.filter(week__program=program, week__position=week)
        .order_by("position")
        .values_list("day_of_week", flat=True)
    )


def test_a_saturday_session_goes_before_sunday(program):
    cardio = {"type": "zone2", "duration": 30}
    session = {"name": "Zone 2", "dayOfWeek": "Saturday", "cardio": cardio}
    result = apply(program, call("add_session", weekNumber=1, session=session))
    assert result.success
    assert session_days(program) == ["Monday", "Wednesday", "Friday", "Saturday", "Sunday"]
    assert "Session 4" in result.results[0].summary


def test_a_tuesday_session_goes_between_monday_and_wednesday_in_a_week_starting_on_sunday():
    program = ProgramFactory(start_date=datetime.date(2026, 11, 29))  # a Sunday
    week = WeekFactory(program=program)
    for offset in (0, 1, 3):  # Sunday, Monday, Wednesday
        SessionFactory(week=week, scheduled_date=week.start_date + datetime.timedelta(days=offset))
    assert apply(
        program, call("add_session", weekNumber=1, session={"name": "Run", "dayOfWeek": "Tuesday"})
    ).success
    assert session_days(program) == ["Sunday", "Monday", "Tuesday", "Wednesday"]


def test_an_explicit_position_is_kept(program):
    session = {"name": "Zone 2", "dayOfWeek": "Saturday"}
    assert apply(program, call("add_session", weekNumber=1, position=1, session=session)).success
    assert session_days(program)[0] == "Saturday"


def test_making_a_rest_day_of_a_day_already_resting_adds_nothing(program):
    count = Session.objects.filter(week__program=program).count()
    rest = {"name": "Rest", "dayOfWeek": "Sunday"}
    result = preview(program, call("add_session", weekNumber=1, session=rest))
    error = result.results[0].errors[0]
    assert error.code == "VALIDATION_ERROR"
    assert error.message.startswith("Sunday of week 1 is already a rest day (session 4")
    assert Session.objects.filter(week__program=program).count() == count


def test_a_rest_day_on_a_training_day_is_added_in_its_place_in_the_week(program):
    rest = {"name": "Rest", "dayOfWeek": "Tuesday"}
    assert apply(program, call("add_session", weekNumber=1, session=rest)).success
    assert session_days(program) == ["Monday", "Tuesday", "Wednesday", "Friday", "Sunday"]


def test_the_offline_make_sunday_a_rest_day_adds_no_ninth_session(program):
    parsed = parse_command("make Sunday a rest day in week 1")
    assert (parsed.name, parsed.arguments["session"]["dayOfWeek"]) == ("add_session", "Sunday")
    result = apply(program, call(parsed.name, **parsed.arguments))
    assert not result.success and "already a rest day" in result.results[0].errors[0].message
    assert len(session_days(program)) == 4
