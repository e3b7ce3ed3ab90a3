"""factory-boy factories for every model, in one place. Positions follow creation order, so a
session built with three ExerciseFactory calls has exercises 1, 2, 3."""

import datetime

import factory
from django.contrib.auth import get_user_model

from programs.demo_builders import fill_program
from programs.models import CardioBlock, CardioType, Exercise, Program, Session, SetResult, Week


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("pw-for-tests")


class CoachFactory(UserFactory):
    username = factory.Sequence(lambda n: f"coach{n}")
    is_staff = True


class ProgramFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Program

    athlete = factory.SubFactory(UserFactory)
    coach = None
    name = factory.Sequence(lambda n: f"Program {n}")
    start_date = datetime.date(2026, 11, 2)


def _next_position(manager) -> int:
    return manager.count() + 1


class WeekFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Week

    program = factory.SubFactory(ProgramFactory)
    position = factory.LazyAttribute(lambda w: _next_position(w.program.weeks))
    phase = "Accumulation"
    start_date = factory.LazyAttribute(
        lambda w: w.program.start_date + datetime.timedelta(weeks=w.position - 1)
    )
    end_date = factory.LazyAttribute(lambda w: w.start_date + datetime.timedelta(days=6))
    description = ""


class SessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Session

    week = factory.SubFactory(WeekFactory)
    position = factory.LazyAttribute(lambda s: _next_position(s.week.sessions))
    name = factory.Sequence(lambda n: f"Session {n}")
    scheduled_date = factory.LazyAttribute(
        lambda s: s.week.start_date + datetime.timedelta(days=s.position - 1)
    )
    day_of_week = factory.LazyAttribute(lambda s: s.scheduled_date.strftime("%A"))
    warmup = factory.LazyFunction(list)


class CardioBlockFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardioBlock

    session = factory.SubFactory(SessionFactory)
    type = CardioType.ZONE2
    duration = 30
    modality = "Running"


class ExerciseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Exercise

    session = factory.SubFactory(SessionFactory)
    position = factory.LazyAttribute(lambda e: _next_position(e.session.exercises))
    name = factory.Iterator(["Back Squat", "Bench Press", "Barbell Row", "Romanian Deadlift"])
    warmup_sets = 1
    working_sets = 3
    reps = "8-10"
    target_load = "135 lbs"
    rest_seconds = 120


class SetResultFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SetResult

    exercise = factory.SubFactory(ExerciseFactory)
    set_number = factory.LazyAttribute(lambda r: _next_position(r.exercise.sets))
    reps = 8
    load = "135 lbs"


def build_program(
    *, weeks: int = 2, sessions: int = 3, exercises: int = 4, **program_fields
) -> Program:
    """A program of ``weeks`` × ``sessions`` × ``exercises``, created in bulk (the benchmarks'
    builder): exercises cycle through Back Squat, Bench Press, Barbell Row, Romanian Deadlift…"""
    program = ProgramFactory(**program_fields)
    fill_program(program=program, weeks=weeks, sessions=sessions, exercises=exercises)
    return program


class ConversationFactory(factory.django.DjangoModelFactory):
    """A conversation about a fresh 2 × 3 × 4 program (pass ``program=`` to use another)."""

    class Meta:
        model = "chat.Conversation"

    program = factory.LazyFunction(lambda: build_program(weeks=2, sessions=3, exercises=4))
    athlete = factory.LazyAttribute(lambda c: c.program.athlete)


# --- the workout library (library app) -------------------------------------------------------


class LibraryWorkoutFactory(factory.django.DjangoModelFactory):
    """A private strength workout of a fresh athlete (``scope="shared"`` for a coach's)."""

    class Meta:
        model = "library.LibraryWorkout"

    owner = factory.SubFactory(UserFactory)
    scope = "private"
    title = factory.Sequence(lambda n: f"Workout {n}")
    sport = "strength"
    tags = factory.LazyFunction(lambda: ["strength"])
    duration_minutes = 60
    intensity = "moderate"
    description = ""
    template = factory.LazyFunction(
        lambda: {
            "exercises": [
                {"name": "Back Squat", "sets": 3, "reps": "5", "load": "80% 1RM"},
                {"name": "Romanian Deadlift", "sets": 3, "reps": "8", "load": "60% 1RM"},
            ],
            "cardio": None,
        }
    )


class ActivityFactory(factory.django.DjangoModelFactory):
    """A 45-minute run on 2026-11-20 (UTC) with a heart-rate load of 50."""

    class Meta:
        model = "training.Activity"

    athlete = factory.SubFactory(UserFactory)
    sport = "RUNNING"
    name = factory.Sequence(lambda n: f"Run {n}")
    start = factory.LazyAttribute(
        lambda a: datetime.datetime.combine(a.local_date, datetime.time(7), tzinfo=datetime.UTC)
    )
    local_date = datetime.date(2026, 11, 20)
    moving_s = 2700
    elapsed_s = 2800
    distance_m = 9000.0
    avg_hr = 148
    training_load = 50.0
    load_method = "HEART_RATE"
    dedupe_key = factory.Sequence(lambda n: f"test:{n}")


class SleepRecordFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "training.SleepRecord"

    athlete = factory.SubFactory(UserFactory)
    night = datetime.date(2026, 11, 20)
    duration_min = 450
    score = 80
    resting_hr = 48
    hrv_ms = 60.0
