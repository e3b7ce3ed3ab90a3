"""Fixtures of the chat admin tests (``test_admin*.py``): the five roles and a conversation for
each coach. Names are distinct from the module-level fixtures of the other chat tests."""

import pytest
from django.contrib.auth import get_user_model

from tests.chat.admin_helpers import make_coach, make_staff
from tests.factories import ConversationFactory, UserFactory, build_program


@pytest.fixture
def coach_user():
    """The coach of ``athlete_user``'s program."""
    return make_coach("coach-ann")


@pytest.fixture
def other_coach_user():
    return make_coach("coach-bob")


@pytest.fixture
def staff_user():
    """In the Staff group: reads everything, changes nothing."""
    return make_staff("staff-sam")


@pytest.fixture
def superuser_user():
    return get_user_model().objects.create_superuser("root", "root@example.com", "pw")


@pytest.fixture
def athlete_user():
    return UserFactory(username="alex")


@pytest.fixture
def coached_conversation(coach_user, athlete_user):
    program = build_program(
        weeks=2, sessions=3, exercises=4, athlete=athlete_user, coach=coach_user
    )
    return ConversationFactory(program=program)


@pytest.fixture
def other_conversation(other_coach_user):
    program = build_program(
        weeks=1,
        sessions=2,
        exercises=2,
        athlete=UserFactory(username="blake"),
        coach=other_coach_user,
    )
    return ConversationFactory(program=program)
