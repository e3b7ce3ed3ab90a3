"""modify_session, add_session, remove_session, copy_session, modify_week, add_week, remove_week."""

import datetime

import pytest

from programs.export import export_program
from programs.models import CardioBlock, Exercise, Session, Week
from tests.coach.tool_helpers import (
    EXERCISE,
    apply,
    call,
    error_codes,
    exercise_names,
    session_of,
    week_of,
)
from tests.factories import CardioBlockFactory, SetResultFactory, build_program

pytestmark = pytest.mark.django_db

ZONE2 = {"type": "zone2", "duration": 30, "modality": "Running"}


def test_modify_session_renames_and_keeps_exercises(program):
    result = apply(
        program,
        call("modify_session", weekNumber=1, sessionNumber=2, updates={"name": "Push Day A"}),
    )
    assert result.success
    assert session_of(program, 1, 2).name == "Push Day A"
    assert len(exercise_names(program, 1, 2)) == 4
    assert result.preview["details"][0]["fields"] == [
        {"field": "name", "oldValue": "Session 2", "newValue": "Push Day A"}
    ]


def test_modify_session_cardio_object_replaces_and_null_removes_it(program):
    session = session_of(program, 1, 1)
    CardioBlockFactory(session=session, type="intervals", duration=20)
    assert apply(
        program, call("modify_session", weekNumber=1, sessionNumber=1, updates={"cardio": ZONE2})
    ).success
    cardio = CardioBlock.objects.get(session=session)
    assert (cardio.type, cardio.duration, cardio.modality) == ("zone2", 30, "Running")
    result = apply(
        program, call("modify_session", weekNumber=1, sessionNumber=1, updates={"cardio": None})
    )
    assert result.success
    assert not CardioBlock.objects.filter(session=session).exists()
    assert result.preview["details"][0]["fields"][0]["newValue"] is None


def test_modify_session_rejects_bad_cardio_type_and_date(program):
    result = apply(
        program,
        call(
            "modify_session",
            weekNumber=1,
            sessionNumber=1,
            updates={"cardio": {"type": "jog", "duration": 0}, "scheduledDate": "next tuesday"},
        ),
    )
    fields = {e.field: e.message for e in result.results[0].errors}
    assert "zone2" in fields["updates.cardio.type"]
    assert "at least 1" in fields["updates.cardio.duration"]
    assert "ISO date" in fields["updates.scheduledDate"]


def test_modify_session_with_empty_updates_is_a_validation_error(program):
    result = apply(program, call("modify_session", weekNumber=1, sessionNumber=1, updates={}))
    assert error_codes(result) == [["VALIDATION_ERROR"]]


def test_add_session_cardio_only_day_has_cardio_and_no_exercises(program):
    result = apply(
        program,
        call(
            "add_session",
            weekNumber=1,
            position="end",
            session={
                "name": "Zone 2 Cardio",
                "exercises": [],
                "dayOfWeek": "saturday",
                "cardio": ZONE2,
            },
        ),
    )
    assert result.success
    session = session_of(program, 1, 4)
    assert session.day_of_week == "Saturday"
    assert CardioBlock.objects.get(session=session).type == "zone2"
    assert exercise_names(program, 1, 4) == []


def test_add_session_rest_day_has_neither_exercises_nor_cardio(program):
    assert apply(
        program, call("add_session", weekNumber=2, position=1, session={"name": "Rest"})
    ).success
    rest = session_of(program, 2, 1)
    assert rest.name == "Rest"
    assert not CardioBlock.objects.filter(session=rest).exists()
    assert exercise_names(program, 2, 1) == []
    assert session_of(program, 2, 2).name == "Session 1"


def test_add_session_creates_its_exercises_in_order(program):
    exercises = [{**EXERCISE, "name": n} for n in ("A", "B", "C")]
    assert apply(
        program,
        call(
            "add_session",
            weekNumber=1,
            position=2,
            session={"name": "Pull", "exercises": exercises},
        ),
    ).success
    assert exercise_names(program, 1, 2) == ["A", "B", "C"]
    assert [s.name for s in Session.objects.filter(week__program=program, week__position=1)] == [
        "Session 1",
        "Pull",
        "Session 2",
        "Session 3",
    ]


def test_remove_session_renumbers_and_keeps_pks(program):
    third = session_of(program, 1, 3)
    assert apply(program, call("remove_session", weekNumber=1, sessionNumber=2)).success
    assert Session.objects.get(pk=third.pk).position == 2


def test_remove_session_refuses_the_last_session_of_a_week():
    program = build_program(weeks=1, sessions=1, exercises=1)
    result = apply(program, call("remove_session", weekNumber=1, sessionNumber=1))
    error = result.results[0].errors[0]
    assert error.code == "VALIDATION_ERROR"
    assert "at least one" in error.message


def test_copy_session_deep_copies_plan_but_not_logged_results(program):
    source = session_of(program, 1, 1)
    CardioBlockFactory(session=source, completed=True, actual_duration=25, avg_heart_rate=140)
    first = Exercise.objects.get(session=source, position=1)
    first.skipped = True
    first.save()
    SetResultFactory(exercise=first)
    Session.objects.filter(pk=source.pk).update(completed=True, rating=4)
    result = apply(
        program,
        call(
            "copy_session",
            sourceWeekNumber=1,
            sourceSessionNumber=1,
            targetWeekNumber=2,
            position=2,
        ),
    )
    assert result.success
    copy = session_of(program, 2, 2)
    assert copy.pk != source.pk
    assert (copy.name, copy.completed, copy.rating) == (source.name, False, None)
    assert copy.scheduled_date == source.scheduled_date + datetime.timedelta(weeks=1)
    assert exercise_names(program, 2, 2) == exercise_names(program, 1, 1)
    copied_first = Exercise.objects.get(session=copy, position=1)
    assert copied_first.skipped is False
    assert not copied_first.sets.exists()
    cardio = CardioBlock.objects.get(session=copy)
    assert (cardio.completed, cardio.actual_duration, cardio.duration) == (False, None, 30)
    # the source is untouched
    assert first.sets.count() == 1


def test_copy_session_into_the_same_week_renumbers_later_sessions(program):
    assert apply(
        program,
        call(
            "copy_session",
            sourceWeekNumber=1,
            sourceSessionNumber=3,
            targetWeekNumber=1,
            position=1,
        ),
    ).success
    names = list(
        Session.objects.filter(week__program=program, week__position=1).values_list(
            "name", flat=True
        )
    )
    assert names == ["Session 3", "Session 1", "Session 2", "Session 3"]


def test_copy_session_missing_source_names_the_source_field(program):
    result = apply(
        program, call("copy_session", sourceWeekNumber=1, sourceSessionNumber=7, targetWeekNumber=2)
    )
    error = result.results[0].errors[0]
    assert (error.code, error.field) == ("NOT_FOUND", "sourceSessionNumber")
    assert "Week 1 has only 3 sessions" in error.message


def test_modify_week_changes_phase_and_dates(program):
    result = apply(
        program,
        call("modify_week", weekNumber=2, updates={"phase": "Deload", "endDate": "2026-11-16"}),
    )
    assert result.success
    week = week_of(program, 2)
    assert (week.phase, week.end_date) == ("Deload", datetime.date(2026, 11, 16))


def test_modify_week_refuses_an_end_before_the_current_start(program):
    result = apply(program, call("modify_week", weekNumber=2, updates={"endDate": "2026-11-01"}))
    error = result.results[0].errors[0]
    assert (error.code, error.field) == ("VALIDATION_ERROR", "updates.endDate")
    assert "before it starts" in error.message


def test_modify_week_refuses_both_dates_out_of_order_at_schema_level(program):
    result = apply(
        program,
        call(
            "modify_week",
            weekNumber=2,
            updates={"startDate": "2026-11-10", "endDate": "2026-11-01"},
        ),
    )
    assert result.results[0].errors[0].field == "updates"


def test_add_week_inserts_renumbers_and_ignores_week_number(program):
    old_second = week_of(program, 2)
    week = {
        "weekNumber": 99,
        "phase": "Deload",
        "startDate": "2026-11-09",
        "endDate": "2026-11-15",
        "sessions": [{"name": "Easy", "exercises": [EXERCISE]}, {"name": "Rest"}],
    }
    result = apply(program, call("add_week", position=2, weeks=[week]))
    assert result.success
    assert [w.phase for w in Week.objects.filter(program=program)] == [
        "Accumulation",
        "Deload",
        "Accumulation",
    ]
    assert Week.objects.get(pk=old_second.pk).position == 3
    assert exercise_names(program, 2, 1) == ["Pull-up"]
    assert export_program(program)["weeks"][1]["sessions"][1]["id"] == "week-2-session-2"


def test_add_week_several_weeks_at_the_end(program):
    weeks = [
        {
            "phase": f"Block {i}",
            "startDate": f"2027-01-{1 + 7 * i:02d}",
            "endDate": f"2027-01-{7 + 7 * i:02d}",
            "sessions": [{"name": "S"}],
        }
        for i in range(3)
    ]
    assert apply(program, call("add_week", position="end", weeks=weeks)).success
    assert list(Week.objects.filter(program=program).values_list("position", "phase")) == [
        (1, "Accumulation"),
        (2, "Accumulation"),
        (3, "Block 0"),
        (4, "Block 1"),
        (5, "Block 2"),
    ]


@pytest.mark.parametrize(
    ("weeks", "field"),
    [
        ([], "weeks"),
        (
            [
                {
                    "phase": "X",
                    "startDate": "2026-12-07",
                    "endDate": "2026-12-01",
                    "sessions": [{"name": "S"}],
                }
            ],
            "weeks.0",
        ),
        (
            [{"phase": "X", "startDate": "2026-12-01", "endDate": "2026-12-07", "sessions": []}],
            "weeks.0.sessions",
        ),
        (
            [
                {
                    "phase": "X",
                    "startDate": "2026-12-01",
                    "endDate": "2026-12-07",
                    "sessions": [{"name": "S", "cardio": {"type": "zone2"}}],
                }
            ],
            "weeks.0.sessions.0.cardio.duration",
        ),
    ],
)
def test_add_week_validates_every_week(program, weeks, field):
    result = apply(program, call("add_week", position="end", weeks=weeks))
    assert result.results[0].errors[0].field == field
    assert Week.objects.filter(program=program).count() == 2


def test_add_week_position_beyond_count_plus_one_is_rejected(program):
    week = {
        "phase": "X",
        "startDate": "2026-12-01",
        "endDate": "2026-12-07",
        "sessions": [{"name": "S"}],
    }
    result = apply(program, call("add_week", position=4, weeks=[week]))
    assert "from 1 to 3" in result.results[0].errors[0].message


def test_remove_week_renumbers_later_weeks(program):
    second = week_of(program, 2)
    assert apply(program, call("remove_week", weekNumber=1)).success
    assert Week.objects.get(pk=second.pk).position == 1
    assert Session.objects.filter(week__program=program).count() == 3


def test_remove_week_keeps_at_least_one_week():
    program = build_program(weeks=1, sessions=1, exercises=1)
    result = apply(program, call("remove_week", weekNumber=1))
    assert "only week" in result.results[0].errors[0].message


def test_missing_week_names_how_many_weeks_there_are(program):
    result = apply(program, call("remove_week", weekNumber=10))
    error = result.results[0].errors[0]
    assert (error.code, error.field) == ("NOT_FOUND", "weekNumber")
    assert error.message == "The program has 2 weeks; week 10 doesn't exist."
