"""The tree services added for the tool engine and the import command, and the seed-000 export."""

import datetime

import pytest

from programs import services
from programs.export import export_program
from programs.models import CardioBlock, Exercise, Session, Week
from tests.factories import CardioBlockFactory, ExerciseFactory, SetResultFactory, build_program

pytestmark = pytest.mark.django_db

D = datetime.date(2026, 12, 7)


def _session_spec(name, exercises=0, cardio=None):
    return {
        "fields": {
            "name": name,
            "scheduled_date": None,
            "day_of_week": "",
            "warmup": [],
            "notes": "",
        },
        "exercises": [
            {"name": f"{name} {i}", "reps": "5", "target_load": "bw", "working_sets": 3}
            for i in range(1, exercises + 1)
        ],
        "cardio": cardio,
    }


def _week_spec(phase, sessions):
    return {
        "fields": {"phase": phase, "start_date": D, "end_date": D + datetime.timedelta(days=6)},
        "sessions": sessions,
    }


def test_session_tree_insert_places_session_with_its_exercises_and_cardio(program):
    week = program.weeks.get(position=1)
    session = services.session_tree_insert(
        week=week,
        position=2,
        spec=_session_spec("New", exercises=2, cardio={"type": "zone2", "duration": 30}),
    )
    assert list(week.sessions.values_list("name", flat=True)) == [
        "Session 1",
        "New",
        "Session 2",
        "Session 3",
    ]
    assert list(session.exercises.values_list("position", "name")) == [(1, "New 1"), (2, "New 2")]
    assert CardioBlock.objects.get(session=session).duration == 30


def test_weeks_tree_insert_shifts_later_weeks_by_the_number_inserted(program):
    second = program.weeks.get(position=2)
    weeks = services.weeks_tree_insert(
        program=program,
        position=2,
        specs=[
            _week_spec("A", [_session_spec("a1", 1), _session_spec("a2")]),
            _week_spec("B", [_session_spec("b1", 2, {"type": "vo2max", "duration": 20})]),
        ],
    )
    assert [w.position for w in weeks] == [2, 3]
    assert list(Week.objects.filter(program=program).values_list("position", "phase")) == [
        (1, "Accumulation"),
        (2, "A"),
        (3, "B"),
        (4, "Accumulation"),
    ]
    assert Week.objects.get(pk=second.pk).position == 4
    assert list(Session.objects.filter(week=weeks[0]).values_list("position", "name")) == [
        (1, "a1"),
        (2, "a2"),
    ]
    assert Exercise.objects.filter(session__week=weeks[1]).count() == 2
    assert CardioBlock.objects.get(session__week=weeks[1]).type == "vo2max"


def test_weeks_tree_insert_runs_a_constant_number_of_queries(program, django_assert_num_queries):
    specs = [_week_spec(f"W{i}", [_session_spec("s", 3)] * 3) for i in range(4)]
    with django_assert_num_queries(5):  # shift (2), weeks, sessions, exercises
        services.weeks_tree_insert(program=program, position=1, specs=specs)


def test_export_uses_seed_field_names_and_derived_ids(program):
    session = program.weeks.get(position=2).sessions.get(position=1)
    CardioBlockFactory(session=session, type="threshold", duration=40)
    exercise = session.exercises.get(position=3)
    SetResultFactory(exercise=exercise, reps=5, load="100 kg")
    data = export_program(program)
    assert set(data) == {"id", "name", "athlete", "version", "startDate", "weeks"}
    assert data["athlete"] == program.athlete.username
    week = data["weeks"][1]
    assert (week["id"], week["weekNumber"], week["startDate"]) == ("week-2", 2, "2026-11-09")
    exported = week["sessions"][0]
    assert exported["id"] == "week-2-session-1"
    assert exported["cardio"]["type"] == "threshold"
    assert data["weeks"][0]["sessions"][0]["cardio"] is None
    ex = exported["exercises"][2]
    assert ex["id"] == "week-2-session-1-exercise-3"
    assert set(ex) == {
        "id",
        "name",
        "groupLabel",
        "warmupSets",
        "workingSets",
        "reps",
        "targetLoad",
        "restSeconds",
        "notes",
        "sets",
        "skipped",
    }
    assert ex["sets"][0]["reps"] == 5 and ex["sets"][0]["load"] == "100 kg"


def test_export_ids_follow_positions_after_a_removal():
    program = build_program(weeks=1, sessions=1, exercises=0)
    session = program.weeks.get().sessions.get()
    first, second = ExerciseFactory(session=session), ExerciseFactory(session=session)
    services.exercise_remove(exercise=first)
    exported = export_program(program)["weeks"][0]["sessions"][0]["exercises"]
    assert [(e["id"], e["name"]) for e in exported] == [
        ("week-1-session-1-exercise-1", second.name)
    ]
