"""The services: the tree inserts added for the tool engine and the import command, the version
bump of every service, and the seed-000 export."""

import datetime

import pytest

from programs import services
from programs.export import export_program
from programs.models import CardioBlock, Exercise, Program, Session, Week
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
    with django_assert_num_queries(6):  # shift (2), weeks, sessions, exercises, version
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


# --- every service bumps the version itself -----------------------------------------------------


def _first(model, program, **lookup):
    paths = {Week: "program", Session: "week__program", Exercise: "session__week__program"}
    return model.objects.filter(**{paths[model]: program}, **lookup).order_by("pk").first()


SERVICE_CALLS = {
    "week_insert": lambda p: services.week_insert(
        program=p,
        position=1,
        phase="Deload",
        start_date=datetime.date(2027, 1, 4),
        end_date=datetime.date(2027, 1, 10),
    ),
    "week_remove": lambda p: services.week_remove(week=_first(Week, p)),
    "week_move": lambda p: services.week_move(week=_first(Week, p), new_position=2),
    "weeks_reorder": lambda p: services.weeks_reorder(
        program=p, ordered_pks=list(p.weeks.order_by("-position").values_list("pk", flat=True))
    ),
    "session_insert": lambda p: services.session_insert(week=_first(Week, p), position=1, name="X"),
    "session_remove": lambda p: services.session_remove(session=_first(Session, p)),
    "session_move": lambda p: services.session_move(session=_first(Session, p), new_position=3),
    "sessions_reorder": lambda p: services.sessions_reorder(
        week=_first(Week, p),
        ordered_pks=list(
            _first(Week, p).sessions.order_by("-position").values_list("pk", flat=True)
        ),
    ),
    "cardio_set": lambda p: services.cardio_set(
        session=_first(Session, p), fields={"type": "zone2", "duration": 30}
    ),
    "exercise_insert": lambda p: services.exercise_insert(
        session=_first(Session, p),
        position=1,
        name="Dip",
        working_sets=3,
        reps="8",
        target_load="bw",
    ),
    "exercise_remove": lambda p: services.exercise_remove(exercise=_first(Exercise, p)),
    "exercise_move": lambda p: services.exercise_move(exercise=_first(Exercise, p), new_position=4),
    "exercises_reorder": lambda p: services.exercises_reorder(
        session=_first(Session, p),
        ordered_pks=list(
            _first(Session, p).exercises.order_by("-position").values_list("pk", flat=True)
        ),
    ),
    "object_update exercise": lambda p: services.object_update(
        obj=_first(Exercise, p), fields={"reps": "12"}
    ),
    "object_update program": lambda p: services.object_update(obj=p, fields={"name": "New"}),
    "session_tree_insert": lambda p: services.session_tree_insert(
        week=_first(Week, p), position=2, spec=_session_spec("Tree", 2)
    ),
    "weeks_tree_insert": lambda p: services.weeks_tree_insert(
        program=p, position=3, specs=[_week_spec("W", [_session_spec("s", 1)])]
    ),
}


@pytest.mark.parametrize("name", list(SERVICE_CALLS))
def test_every_service_that_changes_a_program_bumps_its_version(program, name):
    other = build_program(weeks=1, sessions=1, exercises=1)
    SERVICE_CALLS[name](program)
    assert Program.objects.get(pk=program.pk).version == 2
    assert Program.objects.get(pk=other.pk).version == 1  # only the program it touches


@pytest.mark.parametrize(
    ("call", "queries"),
    [
        # delete (with the cascade's lookups of sets), shift out and back, version
        (lambda e: services.exercise_remove(exercise=e), 5),
        # park the row, shift out and back, put it in place, version
        (lambda e: services.exercise_move(exercise=e, new_position=4), 5),
    ],
)
def test_position_services_run_a_constant_number_of_queries_with_the_bump(
    call, queries, django_assert_num_queries
):
    for size in (2, 12):
        program = build_program(weeks=1, sessions=1, exercises=size)
        exercise = _first(Exercise, program, position=1)
        with django_assert_num_queries(queries):
            call(exercise)
