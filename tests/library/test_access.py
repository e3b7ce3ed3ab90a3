import pytest
from django.contrib.auth.models import Group

from library.access import (
    WorkoutNotFound,
    editable_workouts,
    get_workout_for,
    parse_workout_id,
    visible_workouts,
)
from library.services import workout_soft_delete
from tests.factories import LibraryWorkoutFactory, UserFactory


def test_athlete_sees_own_and_their_coachs_shared_workouts_only(
    team, shared_workout, private_workout
):
    LibraryWorkoutFactory(owner=team["other_coach"], scope="shared")
    LibraryWorkoutFactory(owner=team["outsider"])
    assert set(visible_workouts(team["athlete"])) == {shared_workout, private_workout}


def test_outsider_sees_neither_the_coachs_shared_nor_the_athletes_private_workouts(
    team, shared_workout, private_workout
):
    assert list(visible_workouts(team["outsider"])) == []


def test_a_coachs_private_workout_is_not_shared_with_athletes(team):
    LibraryWorkoutFactory(owner=team["coach"], scope="private")
    assert list(visible_workouts(team["athlete"])) == []


def test_coach_reads_their_athletes_private_workouts_but_may_edit_only_their_own(
    team, shared_workout, private_workout
):
    assert set(visible_workouts(team["coach"])) == {shared_workout, private_workout}
    assert list(editable_workouts(team["coach"])) == [shared_workout]
    assert list(visible_workouts(team["other_coach"])) == []


def test_staff_group_reads_everything_and_edits_nothing(team, shared_workout, private_workout):
    staff = UserFactory(is_staff=True)
    staff.groups.add(Group.objects.create(name="Staff"))
    assert set(visible_workouts(staff)) == {shared_workout, private_workout}
    assert list(editable_workouts(staff)) == []


def test_superuser_reads_and_edits_everything(team, shared_workout, private_workout):
    root = UserFactory(is_superuser=True, is_staff=True)
    assert set(editable_workouts(root)) == {shared_workout, private_workout}


def test_inactive_user_sees_nothing(team, private_workout):
    team["athlete"].is_active = False
    assert list(visible_workouts(team["athlete"])) == []


def test_deleted_workouts_are_invisible_to_everyone(team, private_workout):
    workout_soft_delete(workout=private_workout)
    assert list(visible_workouts(team["athlete"])) == []
    assert private_workout.deleted_at is not None


def test_get_workout_for_accepts_int_string_and_w_prefixed_ids(team, private_workout):
    for ref in (private_workout.pk, str(private_workout.pk), f"w_{private_workout.pk}"):
        assert get_workout_for(user=team["athlete"], workout_id=ref) == private_workout


def test_get_workout_for_someone_elses_workout_is_not_found_with_the_same_message(
    team, private_workout
):
    with pytest.raises(WorkoutNotFound) as foreign:
        get_workout_for(user=team["outsider"], workout_id=private_workout.pk)
    with pytest.raises(LookupError) as missing:
        get_workout_for(user=team["outsider"], workout_id=private_workout.pk + 1000)
    assert str(foreign.value).replace(str(private_workout.pk), "N") == str(missing.value).replace(
        str(private_workout.pk + 1000), "N"
    )
    assert "search the library" in str(foreign.value)
    assert foreign.value.code == "NOT_FOUND"


@pytest.mark.parametrize("bad", [True, 0, -3, "abc", "12a", None, 1.5, "9" * 30])
def test_parse_workout_id_refuses_what_is_not_a_positive_id(bad):
    assert parse_workout_id(bad) is None
