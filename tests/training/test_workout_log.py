import datetime

import pytest

from programs import workout_log
from programs.models import Session, SetResult
from tests.factories import CardioBlockFactory, ExerciseFactory, SessionFactory, UserFactory
from training.importers.base import downsample, sport_from_text
from training.models import Activity
from training.services import CardioEntry, workout_complete

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 20)


@pytest.fixture
def squat():
    return ExerciseFactory(warmup_sets=0, working_sets=3)


def test_sets_log_replaces_a_set_logged_again_and_bumps_the_version_once(squat):
    session = squat.session
    version = session.week.program.version
    entry = workout_log.SetEntry(exercise_id=squat.pk, set_number=1, reps=5, load="100 kg")
    workout_log.sets_log(session=session, entries=[entry])
    workout_log.sets_log(session=session, entries=[entry.__class__(squat.pk, 1, 6, "102 kg")])
    assert list(SetResult.objects.values_list("reps", "load")) == [(6, "102 kg")]
    session.week.program.refresh_from_db()
    assert session.week.program.version == version + 2


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"set_number": 31}, "set 31 is out of range (1 to 30)"),
        ({"reps": 500}, "500 reps is out of range (0 to 200)"),
        ({"rpe": "hard"}, "is not a number between 1 and 10"),
        ({"rpe": 0.5}, "out of range: it goes from 1 to 10"),
    ],
)
def test_bad_sets_name_the_bounds_and_write_nothing(squat, entry, message):
    fields = {"exercise_id": squat.pk, "set_number": 1, "reps": 5, **entry}
    with pytest.raises(
        workout_log.WorkoutLogError, match=message.replace("(", r"\(").replace(")", r"\)")
    ):
        workout_log.sets_log(session=squat.session, entries=[workout_log.SetEntry(**fields)])
    assert not SetResult.objects.exists()


def test_an_exercise_of_another_session_is_refused(squat):
    other = ExerciseFactory()
    with pytest.raises(workout_log.WorkoutLogError, match="is not in"):
        workout_log.sets_log(
            session=squat.session,
            entries=[workout_log.SetEntry(exercise_id=other.pk, set_number=1, reps=5)],
        )


def test_workout_complete_for_someone_elses_session_raises_not_found():
    session = SessionFactory()
    with pytest.raises(Session.DoesNotExist):
        workout_complete(athlete=UserFactory(), session_id=session.pk, on=DAY)
    assert not Activity.objects.exists()


def test_completing_twice_updates_the_same_activity():
    session = SessionFactory()
    CardioBlockFactory(session=session, duration=30, modality="Cycling")
    athlete = session.week.program.athlete
    first = workout_complete(athlete=athlete, session_id=session.pk, on=DAY)
    again = workout_complete(
        athlete=athlete, session_id=session.pk, on=DAY, cardio=CardioEntry(actual_duration=45)
    )
    assert first.pk == again.pk and Activity.objects.count() == 1
    # no heart rate, no RPE: cycling's default of 50 an hour over 45 minutes
    assert (again.sport, again.load_method, again.training_load) == ("CYCLING", "ESTIMATE", 37.5)


def test_planned_sessions_list_future_work_with_its_sets():
    session = SessionFactory(scheduled_date=DAY)
    ExerciseFactory(session=session, working_sets=3)
    ExerciseFactory(session=session, working_sets=2, skipped=True)
    (planned,) = workout_log.planned_sessions(
        athlete=session.week.program.athlete, start=DAY, end=DAY
    )
    assert (planned.working_sets, planned.cardio_type, planned.ref) == (3, None, session.ref)


def test_downsample_keeps_at_most_the_limit_and_averages_buckets():
    streams = downsample(
        {"t": list(range(10)), "hr": list(range(10)), "power": [None] * 10}, max_points=5
    )
    assert streams == {"t": [0, 2, 4, 6, 8], "hr": [0.5, 2.5, 4.5, 6.5, 8.5]}


@pytest.mark.parametrize(
    ("text", "sport"),
    [
        ("Run", "RUNNING"),
        ("Virtual Ride", "CYCLING"),
        ("Natación en piscina", "SWIMMING"),
        ("Krafttraining", "STRENGTH"),
        ("Weight Training", "STRENGTH"),
        ("Laufen", "RUNNING"),
        ("Course à pied", "RUNNING"),
        ("Walk", "OTHER"),
    ],
)
def test_sport_names_in_several_languages(text, sport):
    assert sport_from_text(text) == sport
