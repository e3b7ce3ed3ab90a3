"""modify_exercise, add_exercise, remove_exercise, reorder_exercises: rules and side effects."""

import pytest

from coach.tools.base import changes_spoken, changes_text
from programs.export import export_program
from programs.models import Exercise
from tests.coach.tool_helpers import EXERCISE, apply, call, error_codes, exercise_names
from tests.factories import SetResultFactory

pytestmark = pytest.mark.django_db


def test_modify_exercise_changes_only_the_given_fields_and_keeps_pk_and_position(program):
    target = Exercise.objects.get(
        session__week__program=program, session__week__position=2, session__position=1, position=3
    )
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=3,
            updates={"name": "Goblet Squat", "targetLoad": "50 lbs"},
        ),
    )
    assert result.success
    target_after = Exercise.objects.get(pk=target.pk)
    assert (target_after.name, target_after.target_load) == ("Goblet Squat", "50 lbs")
    assert (target_after.position, target_after.reps, target_after.working_sets) == (3, "8-10", 3)
    assert result.results[0].summary.startswith("Week 2, Session 1, Exercise 3")
    assert result.preview["details"][0]["fields"] == [
        {"field": "name", "oldValue": "Barbell Row", "newValue": "Goblet Squat"},
        {"field": "targetLoad", "oldValue": "135 lbs", "newValue": "50 lbs"},
    ]
    assert result.preview["details"][0]["target"] == "Week 2, Session 1, Exercise 3: Barbell Row"


def test_modify_exercise_renamed_summary_quotes_both_names(program):
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=3,
            updates={"name": "Goblet Squat"},
        ),
    )
    assert result.results[0].summary == (
        'Week 2, Session 1, Exercise 3: "Barbell Row" renamed to "Goblet Squat".'
    )


def test_modify_exercise_can_mark_it_skipped(program):
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=1,
            sessionNumber=1,
            exerciseNumber=1,
            updates={"skipped": True},
        ),
    )
    assert result.success
    ex = Exercise.objects.get(
        session__week__program=program, session__week__position=1, session__position=1, position=1
    )
    assert ex.skipped is True
    assert exercise_names(program, 1, 1) == [
        "Back Squat",
        "Bench Press",
        "Barbell Row",
        "Romanian Deadlift",
    ]


def test_modify_exercise_with_empty_updates_is_a_validation_error(program):
    result = apply(
        program,
        call("modify_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=1, updates={}),
    )
    assert error_codes(result) == [["VALIDATION_ERROR"]]
    assert result.results[0].errors[0].field == "updates"
    assert "at least one field" in result.results[0].errors[0].message


@pytest.mark.parametrize(
    ("updates", "field", "words"),
    [
        ({"workingSets": -1}, "updates.workingSets", "at least 0"),
        ({"warmupSets": -2}, "updates.warmupSets", "at least 0"),
        ({"restSeconds": -5}, "updates.restSeconds", "at least 0"),
        ({"restSeconds": 99999}, "updates.restSeconds", "at most 3600"),
        ({"name": ""}, "updates.name", "must not be empty"),
        ({"workingSets": "4"}, "updates.workingSets", "whole number"),
        ({"skipped": "yes"}, "updates.skipped", "true or false"),
        ({"colour": "red"}, "updates.colour", "not a known field"),
    ],
)
def test_modify_exercise_rejects_bad_values_naming_the_field_and_bound(
    program, updates, field, words
):
    result = apply(
        program,
        call("modify_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=1, updates=updates),
    )
    error = result.results[0].errors[0]
    assert (error.code, error.field) == ("VALIDATION_ERROR", field)
    assert words in error.message


def test_modify_exercise_that_does_not_exist_names_how_many_there_are(program):
    result = apply(
        program,
        call(
            "modify_exercise",
            weekNumber=2,
            sessionNumber=1,
            exerciseNumber=5,
            updates={"reps": "5"},
        ),
    )
    error = result.results[0].errors[0]
    assert error.code == "NOT_FOUND"
    assert error.field == "exerciseNumber"
    assert "Week 2, session 1 has only 4 exercises" in error.message


def test_add_exercise_inserts_and_renumbers_the_ones_after_it(program):
    before = list(
        Exercise.objects.filter(
            session__week__program=program, session__week__position=1, session__position=1
        ).order_by("position")
    )
    result = apply(
        program,
        call(
            "add_exercise",
            weekNumber=1,
            sessionNumber=1,
            position=3,
            exercise={**EXERCISE, "name": "Bench Press"},
        ),
    )
    assert result.success
    assert exercise_names(program, 1, 1) == [
        "Back Squat",
        "Bench Press",
        "Bench Press",
        "Barbell Row",
        "Romanian Deadlift",
    ]
    moved = Exercise.objects.get(pk=before[2].pk)
    assert moved.position == 4  # same row, new position, so its derived ref changed
    assert moved.ref == "week-1-session-1-exercise-4"


def test_add_exercise_defaults_rest_to_120_and_warmups_to_0(program):
    apply(
        program,
        call("add_exercise", weekNumber=1, sessionNumber=1, position="end", exercise=EXERCISE),
    )
    new = Exercise.objects.get(
        session__week__program=program, session__week__position=1, session__position=1, position=5
    )
    assert (new.rest_seconds, new.warmup_sets, new.skipped) == (120, 0, False)


def test_add_exercise_position_defaults_to_end(program):
    result = apply(program, call("add_exercise", weekNumber=1, sessionNumber=2, exercise=EXERCISE))
    assert result.success
    assert exercise_names(program, 1, 2)[-1] == "Pull-up"


def test_add_exercise_position_past_the_end_plus_one_is_rejected_with_the_range(program):
    result = apply(
        program, call("add_exercise", weekNumber=1, sessionNumber=1, position=6, exercise=EXERCISE)
    )
    error = result.results[0].errors[0]
    assert (error.code, error.field) == ("VALIDATION_ERROR", "position")
    assert "from 1 to 5" in error.message


@pytest.mark.parametrize("position", [0, -1, "start", 1.5, True])
def test_add_exercise_position_must_be_a_positive_number_or_end(program, position):
    result = apply(
        program,
        call("add_exercise", weekNumber=1, sessionNumber=1, position=position, exercise=EXERCISE),
    )
    error = result.results[0].errors[0]
    assert (error.code, error.field) == ("VALIDATION_ERROR", "position")
    assert '"end"' in error.message


@pytest.mark.parametrize("missing", ["name", "reps", "targetLoad", "workingSets"])
def test_add_exercise_requires_name_reps_load_and_sets(program, missing):
    exercise = {k: v for k, v in EXERCISE.items() if k != missing}
    result = apply(program, call("add_exercise", weekNumber=1, sessionNumber=1, exercise=exercise))
    error = result.results[0].errors[0]
    assert (error.field, error.message) == (
        f"exercise.{missing}",
        f"exercise.{missing} is required.",
    )


def test_remove_exercise_renumbers_the_ones_after_it_and_deletes_logged_sets(program):
    doomed = Exercise.objects.get(
        session__week__program=program, session__week__position=1, session__position=1, position=2
    )
    SetResultFactory(exercise=doomed)
    last = Exercise.objects.get(session=doomed.session, position=4)
    assert apply(
        program, call("remove_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=2)
    ).success
    assert exercise_names(program, 1, 1) == ["Back Squat", "Barbell Row", "Romanian Deadlift"]
    assert Exercise.objects.get(pk=last.pk).position == 3
    assert not Exercise.objects.filter(pk=doomed.pk).exists()


def test_remove_exercise_may_empty_a_session(program):
    calls = [
        call("remove_exercise", weekNumber=1, sessionNumber=1, exerciseNumber=1) for _ in range(4)
    ]
    assert apply(program, *calls).success
    assert exercise_names(program, 1, 1) == []


def test_reorder_exercises_moves_one_and_shifts_the_ones_between(program):
    result = apply(
        program,
        call("reorder_exercises", weekNumber=1, sessionNumber=1, exerciseNumber=4, newPosition=1),
    )
    assert result.success
    assert exercise_names(program, 1, 1) == [
        "Romanian Deadlift",
        "Back Squat",
        "Bench Press",
        "Barbell Row",
    ]
    assert result.preview["details"][0]["type"] == "reorder"


def test_reorder_exercises_onto_its_own_position_is_a_validation_error(program):
    result = apply(
        program,
        call("reorder_exercises", weekNumber=1, sessionNumber=1, exerciseNumber=2, newPosition=2),
    )
    error = result.results[0].errors[0]
    assert (error.code, error.field) == ("VALIDATION_ERROR", "newPosition")
    assert "already at position 2" in error.message


def test_reorder_exercises_beyond_the_count_names_the_range(program):
    before = export_program(program)
    result = apply(
        program,
        call("reorder_exercises", weekNumber=1, sessionNumber=1, exerciseNumber=2, newPosition=9),
    )
    assert "from 1 to 4" in result.results[0].errors[0].message
    assert export_program(program) == before


def test_field_changes_read_for_the_model_and_in_words_for_the_athlete():
    """How a field change reads is the engine's, beside ``field_changes``: quoted and exact for
    the model, in words for a person."""
    fields = [
        {"field": "workingSets", "oldValue": 3, "newValue": 4},
        {"field": "name", "oldValue": "Squat", "newValue": "Front Squat"},
        {"field": "skipped", "oldValue": False, "newValue": True},
        {"field": "groupLabel", "oldValue": "", "newValue": "A"},
    ]
    assert changes_text(fields) == (
        'workingSets 3 → 4, name "Squat" → "Front Squat", skipped false → true, groupLabel "" → "A"'
    )
    assert changes_spoken(fields) == (
        "number of sets 3 → 4, name Squat → Front Squat, skipped no → yes, group none → A"
    )
