"""save_workout_to_library through the engine (seed 003): a workout the model composed becomes
a private workout of the athlete's; a bad one is refused with its bounds and nothing is saved."""

from __future__ import annotations

import pytest

from library.models import LibraryWorkout
from tests.coach.tool_helpers import apply, call, error_codes, preview
from tests.factories import CoachFactory, build_program

pytestmark = pytest.mark.django_db


@pytest.fixture
def coach():
    return CoachFactory()


@pytest.fixture
def program(coach):
    """Six weeks from Monday 2026-11-02 to Sunday 2026-12-13, two sessions a week."""
    return build_program(weeks=6, sessions=2, exercises=1, coach=coach)


# --- save_workout_to_library --------------------------------------------------------------------

LEG_BURNER = {
    "title": "Leg Burner",
    "sport": "strength",
    "duration": 45,
    "intensity": "hard",
    "description": "Squats then lunges.",
    "exercises": [
        {"name": "Back Squat", "sets": 5, "reps": "5", "load": "80% 1RM"},
        {"name": "Walking Lunge", "sets": 3, "reps": "12", "load": "bodyweight"},
    ],
}


def test_saving_a_composed_workout_makes_a_private_workout_of_the_athlete(program):
    dry = preview(program, call("save_workout_to_library", **LEG_BURNER))
    assert dry.success
    assert dry.preview["details"][0]["target"] == 'Workout library: "Leg Burner"'
    assert "Back Squat 5×5 @ 80% 1RM" in dry.preview["details"][0]["after"]
    assert not LibraryWorkout.objects.filter(title="Leg Burner").exists()

    done = apply(program, call("save_workout_to_library", **LEG_BURNER))
    assert done.success
    workout = LibraryWorkout.objects.get(title="Leg Burner")
    assert (workout.owner, workout.scope, workout.duration_minutes) == (
        program.athlete,
        "private",
        45,
    )
    assert workout.template["exercises"][1]["name"] == "Walking Lunge"
    assert workout.template["cardio"] is None
    assert done.results[0].summary == f'Saved "Leg Burner" to the library (ID: {workout.pk}).'


def test_a_cardio_workout_saves_its_block(program):
    arguments = {**LEG_BURNER, "title": "Easy Spin", "sport": "cycling", "exercises": []}
    arguments["cardio"] = {"type": "zone2", "duration": 40, "modality": "Cycling"}
    assert apply(program, call("save_workout_to_library", **arguments)).success
    cardio = LibraryWorkout.objects.get(title="Easy Spin").template["cardio"]
    assert cardio["type"] == "zone2" and cardio["duration"] == 40


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"exercises": []}, "a workout needs at least one exercise or a cardio block"),
        ({"duration": 4}, "duration must be at least 5 (got 4)."),
        ({"duration": 601}, "duration must be at most 600 (got 601)."),
        ({"sport": "golf"}, "sport must be one of"),
        ({"title": ""}, "title must not be empty."),
    ],
)
def test_a_bad_workout_is_refused_with_its_bounds_and_nothing_is_saved(program, changes, message):
    result = apply(program, call("save_workout_to_library", **{**LEG_BURNER, **changes}))
    assert error_codes(result) == [["VALIDATION_ERROR"]]
    assert message in result.results[0].errors[0].message
    assert not LibraryWorkout.objects.exists()
