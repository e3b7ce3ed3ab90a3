import pytest

from tests.factories import CoachFactory, LibraryWorkoutFactory, ProgramFactory, UserFactory


@pytest.fixture
def team(db):
    """A coach with one athlete (through a program), an outsider athlete and another coach."""
    coach = CoachFactory()
    athlete = UserFactory()
    ProgramFactory(athlete=athlete, coach=coach)
    return {
        "coach": coach,
        "athlete": athlete,
        "outsider": UserFactory(),
        "other_coach": CoachFactory(),
    }


@pytest.fixture
def shared_workout(team):
    return LibraryWorkoutFactory(owner=team["coach"], scope="shared", title="Coach's Squat Day")


@pytest.fixture
def private_workout(team):
    return LibraryWorkoutFactory(owner=team["athlete"], title="My Hill Sprints", sport="running")
