import datetime

import pytest
from django.db import transaction

from library.recurrence import expand_dates
from library.scheduling import plan_workout_sessions, schedule_workout_sessions
from programs.models import CardioBlock, Exercise, Session, Week
from tests.factories import LibraryWorkoutFactory, ProgramFactory, build_program

D = datetime.date


@pytest.fixture
def program(db):
    """Weeks 1 (Mon 2026-11-02 to Sun 11-08) and 2 (11-09 to 11-15), sessions Mon/Tue/Wed."""
    return build_program(weeks=2, sessions=3, exercises=2, name="Base Block")


@pytest.fixture
def workout(program):
    return LibraryWorkoutFactory(
        owner=program.athlete,
        title="Leg Day Destroyer",
        description="Heavy legs.",
        template={
            "exercises": [
                {"name": "Back Squat", "sets": 5, "reps": "5", "load": "80% 1RM", "warmup_sets": 2},
                {"name": "Walking Lunge", "sets": 3, "reps": "12", "load": "bodyweight"},
            ],
            "cardio": {"type": "zone2", "duration": 15, "modality": "Bike"},
            "warmup": ["5 min easy bike"],
        },
    )


def _week_layout(program, week_position):
    week = Week.objects.get(program=program, position=week_position)
    return list(Session.objects.filter(week=week).values_list("position", "scheduled_date", "name"))


def test_plan_places_a_thursday_after_the_weeks_wednesday(program, workout):
    plan = plan_workout_sessions(program=program, workout=workout, dates=[D(2026, 11, 5)])
    (planned,) = plan.sessions
    assert (planned.week_position, planned.position, planned.same_day) == (1, 4, ())
    assert plan.describe() == ['Week 1, session 4 on Thursday 2026-11-05: "Leg Day Destroyer"']
    assert plan.rows() == [
        {
            "date": "2026-11-05",
            "day": "Thursday",
            "week": 1,
            "session": 4,
            "name": "Leg Day Destroyer",
            "exercises": 2,
            "cardio": True,
            "same_day": [],
        }
    ]


def test_plan_goes_after_a_session_on_the_same_day_and_names_it(program, workout):
    (planned,) = plan_workout_sessions(
        program=program, workout=workout, dates=["2026-11-03"]
    ).sessions
    assert (planned.position, planned.same_day) == (3, ("Session 2",))
    assert 'same day as "Session 2"' in planned.describe()


def test_plan_writes_nothing(program, workout, django_assert_max_num_queries):
    before = Session.objects.count()
    with django_assert_max_num_queries(2):
        plan_workout_sessions(program=program, workout=workout, dates=[D(2026, 11, 5)])
    assert Session.objects.count() == before


def test_weekly_recurrence_lands_one_session_in_each_week_that_contains_its_date(program, workout):
    dates = expand_dates(start=D(2026, 11, 6), recurrence="weekly", count=2)
    sessions = schedule_workout_sessions(program=program, workout=workout, dates=dates)
    assert [(s.week.position, s.position, s.scheduled_date) for s in sessions] == [
        (1, 4, D(2026, 11, 6)),
        (2, 4, D(2026, 11, 13)),
    ]
    assert _week_layout(program, 2)[-1] == (4, D(2026, 11, 13), "Leg Day Destroyer")


def test_several_dates_in_one_week_keep_the_week_in_date_order(program, workout):
    dates = [D(2026, 11, 8), D(2026, 11, 2), D(2026, 11, 4)]  # given out of order
    planned = plan_workout_sessions(program=program, workout=workout, dates=dates).sessions
    schedule_workout_sessions(program=program, workout=workout, dates=dates)
    assert [(p.date, p.position) for p in planned] == [
        (D(2026, 11, 2), 2),
        (D(2026, 11, 4), 5),
        (D(2026, 11, 8), 6),
    ]
    assert _week_layout(program, 1) == [
        (1, D(2026, 11, 2), "Session 1"),
        (2, D(2026, 11, 2), "Leg Day Destroyer"),
        (3, D(2026, 11, 3), "Session 2"),
        (4, D(2026, 11, 4), "Session 3"),
        (5, D(2026, 11, 4), "Leg Day Destroyer"),
        (6, D(2026, 11, 8), "Leg Day Destroyer"),
    ]


def test_a_date_before_every_dated_session_goes_first_and_undated_sessions_stay_put(
    program, workout
):
    week = Week.objects.get(program=program, position=2)
    Session.objects.filter(week=week, position=1).update(scheduled_date=None)
    (planned,) = plan_workout_sessions(
        program=program, workout=workout, dates=[D(2026, 11, 9)]
    ).sessions
    assert planned.position == 2  # after the undated session 1, before Tuesday's session 2


def test_scheduled_sessions_copy_the_whole_template(program, workout):
    (session,) = schedule_workout_sessions(program=program, workout=workout, dates=[D(2026, 11, 7)])
    session.refresh_from_db()
    assert (session.name, session.day_of_week, session.notes) == (
        "Leg Day Destroyer",
        "Saturday",
        "Heavy legs.",
    )
    assert session.warmup == ["5 min easy bike"]
    assert list(
        Exercise.objects.filter(session=session).values_list(
            "position", "name", "warmup_sets", "working_sets", "reps", "target_load", "rest_seconds"
        )
    ) == [
        (1, "Back Squat", 2, 5, "5", "80% 1RM", 120),
        (2, "Walking Lunge", 0, 3, "12", "bodyweight", 120),
    ]
    cardio = CardioBlock.objects.get(session=session)
    assert (cardio.type, cardio.duration, cardio.modality) == ("zone2", 15, "Bike")


@pytest.mark.parametrize(
    ("dates", "message"),
    [
        (
            [D(2026, 11, 1)],
            '2026-11-01 is outside the program "Base Block", which runs from 2026-11-02 to '
            "2026-11-15.",
        ),
        ([D(2026, 11, 5), D(2026, 11, 16)], "2026-11-16 is outside the program"),
        ([D(2026, 11, 5), D(2026, 11, 5)], "2026-11-05 is listed twice"),
        ([], "at least one date"),
        ([D(2026, 11, 2) + datetime.timedelta(days=n) for n in range(53)], "at most 52"),
        (["soon"], "date must be a date in YYYY-MM-DD form"),
    ],
)
def test_bad_dates_are_person_readable_errors_and_write_nothing(program, workout, dates, message):
    before = Session.objects.count()
    with pytest.raises(ValueError) as error:
        schedule_workout_sessions(program=program, workout=workout, dates=dates)
    assert message in str(error.value)
    assert Session.objects.count() == before


def test_a_date_in_a_gap_between_weeks_names_the_weeks(program, workout):
    Week.objects.filter(program=program, position=1).update(end_date=D(2026, 11, 6))
    with pytest.raises(
        ValueError, match=r"No week of the program \"Base Block\" contains 2026-11-07"
    ):
        plan_workout_sessions(program=program, workout=workout, dates=[D(2026, 11, 7)])


def test_a_program_without_weeks_is_a_clear_error(workout):
    empty = ProgramFactory(name="Empty")
    with pytest.raises(ValueError, match='The program "Empty" has no weeks yet'):
        plan_workout_sessions(program=empty, workout=workout, dates=[D(2026, 11, 7)])


def test_a_cardio_only_workout_becomes_a_cardio_day(program):
    run = LibraryWorkoutFactory(
        owner=program.athlete,
        title="Easy Run",
        template={"cardio": {"type": "zone2", "duration": 40, "modality": "Running"}},
    )
    (session,) = schedule_workout_sessions(program=program, workout=run, dates=[D(2026, 11, 14)])
    assert not Exercise.objects.filter(session=session).exists()
    assert CardioBlock.objects.get(session=session).duration == 40


@pytest.mark.django_db(transaction=True)
def test_scheduling_outside_a_transaction_is_refused():
    program = build_program(weeks=1, sessions=1, exercises=1)
    workout = LibraryWorkoutFactory(owner=program.athlete)
    with pytest.raises(RuntimeError, match=r"inside transaction.atomic\(\)"):
        schedule_workout_sessions(program=program, workout=workout, dates=[D(2026, 11, 4)])
    with transaction.atomic():
        assert (
            len(schedule_workout_sessions(program=program, workout=workout, dates=[D(2026, 11, 4)]))
            == 1
        )
