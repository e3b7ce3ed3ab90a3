import pytest

from library.models import LibraryWorkout, Scope
from library.services import save_workout_to_library, workout_update

TEMPLATE = {
    "exercises": [{"name": "Goblet Squat", "sets": 3, "reps": "10", "load": "24 kg"}],
    "cardio": {"type": "zone2", "duration": 20, "modality": "Bike"},
}


def _save(owner, **overrides):
    fields = {
        "owner": owner,
        "title": "Hybrid Day",
        "sport": "conditioning",
        "duration_minutes": 50,
        "intensity": "moderate",
        "template": TEMPLATE,
        "tags": ["Full Body", "full body", "  Engine "],
    } | overrides
    return save_workout_to_library(**fields)


def test_save_workout_stores_a_private_validated_workout_with_normalised_tags(team):
    workout = _save(team["athlete"])
    assert workout.scope == Scope.PRIVATE
    assert workout.tags == ["full body", "engine"]
    assert workout.template["exercises"][0] == {
        "name": "Goblet Squat",
        "sets": 3,
        "reps": "10",
        "load": "24 kg",
        "rest_seconds": 120,
        "warmup_sets": 0,
        "notes": "",
    }
    assert workout.template["cardio"]["type"] == "zone2"


def test_a_coach_saves_a_shared_workout(team):
    assert _save(team["coach"], shared=True).scope == Scope.SHARED


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"title": ""}, "title: String should have at least 1 character"),
        ({"duration_minutes": 601}, "duration_minutes: Input should be less than or equal to 600"),
        ({"sport": "golf"}, "sport: Input should be 'strength'"),
        ({"template": {"exercises": []}}, "at least one exercise or a cardio block"),
        (
            {"template": {"exercises": [{"name": "Row", "sets": 51, "reps": "5", "load": "x"}]}},
            "template.exercises.1.sets: Input should be less than or equal to 50",
        ),
        ({"template": {"cardio": {"type": "tempo", "duration": 30}}}, "template.cardio.type"),
        ({"tags": ["x" * 41]}, "tags.1: String should have at most 40 characters"),
        ({"title": "Bad\x00Title"}, "NUL"),
    ],
)
def test_bad_workout_input_names_the_field_and_bound_and_saves_nothing(team, overrides, message):
    with pytest.raises(ValueError, match="Invalid workout") as error:
        _save(team["athlete"], **overrides)
    assert message in str(error.value)
    assert LibraryWorkout.all_objects.count() == 0


def test_update_revalidates_the_whole_workout_and_refuses_unknown_fields(team):
    workout = _save(team["athlete"])
    workout_update(workout=workout, fields={"title": "Hybrid Day B", "tags": ["Legs"]})
    workout.refresh_from_db()
    assert (workout.title, workout.tags) == ("Hybrid Day B", ["legs"])
    with pytest.raises(ValueError, match="Cannot change owner"):
        workout_update(workout=workout, fields={"owner": team["coach"]})
    with pytest.raises(ValueError, match="duration_minutes"):
        workout_update(workout=workout, fields={"duration_minutes": 2})
    workout.refresh_from_db()
    assert workout.duration_minutes == 50
