import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from library.access import visible_workouts
from library.demo import seed_library_demo
from library.demo_data import ATHLETE_WORKOUTS, COACH_WORKOUTS
from library.models import LibraryWorkout, Scope, Sport
from library.search import search_workouts
from library.services import workout_soft_delete
from tests.factories import CoachFactory, ProgramFactory, UserFactory


@pytest.fixture
def demo_users(db):
    coach = CoachFactory(username="coach")
    athlete = UserFactory(username="athlete")
    ProgramFactory(athlete=athlete, coach=coach)
    return coach, athlete


def test_the_demo_library_has_about_forty_valid_workouts_in_every_sport(demo_users):
    coach, athlete = demo_users
    result = seed_library_demo(coach=coach, athlete=athlete)
    assert result.created == result.total == len(COACH_WORKOUTS) + len(ATHLETE_WORKOUTS)
    assert 38 <= result.total <= 45
    assert LibraryWorkout.objects.filter(owner=coach, scope=Scope.SHARED).count() == len(
        COACH_WORKOUTS
    )
    assert LibraryWorkout.objects.filter(owner=athlete, scope=Scope.PRIVATE).count() == len(
        ATHLETE_WORKOUTS
    )
    assert set(LibraryWorkout.objects.values_list("sport", flat=True)) == set(Sport.values)
    assert visible_workouts(athlete).count() == result.total


def test_seeding_again_creates_nothing_and_keeps_edits_and_deletions(demo_users):
    coach, athlete = demo_users
    seed_library_demo(coach=coach, athlete=athlete)
    edited = LibraryWorkout.objects.get(title="Tempo Run")
    LibraryWorkout.objects.filter(pk=edited.pk).update(duration_minutes=55)
    workout_soft_delete(workout=LibraryWorkout.objects.get(title="Arm Day Pump"))
    again = seed_library_demo(coach=coach, athlete=athlete)
    assert again.created == 0
    assert LibraryWorkout.objects.get(pk=edited.pk).duration_minutes == 55
    assert not LibraryWorkout.objects.filter(title="Arm Day Pump").exists()


def test_the_demo_library_answers_the_seeds_example_search(demo_users):
    coach, athlete = demo_users
    seed_library_demo(coach=coach, athlete=athlete)
    titles = [hit.title for hit in search_workouts(user=athlete, query="leg workout")]
    assert titles[0] in {"Leg Day Destroyer", "My Garage Leg Day"}
    assert "Leg Day Destroyer" in titles
    easy = [hit.title for hit in search_workouts(user=athlete, query="easy run")]
    assert "Easy Zone 2 Run" in easy[:2]


def test_the_command_seeds_the_demo_users_library(demo_users, capsys):
    call_command("seed_library_demo")
    assert "created" in capsys.readouterr().out
    assert LibraryWorkout.objects.count() == len(COACH_WORKOUTS) + len(ATHLETE_WORKOUTS)


def test_the_command_without_the_demo_users_says_to_seed_them_first(db):
    with pytest.raises(CommandError, match="run seed_demo first"):
        call_command("seed_library_demo")
