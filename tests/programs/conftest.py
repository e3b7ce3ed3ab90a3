"""Fixtures for the coach admin tests: two coaches, a program each, and a client logged in as the
first coach. Modules that define fixtures of the same name use their own."""

import pytest

from tests.factories import build_program
from tests.programs.admin_support import make_coach


@pytest.fixture
def coach():
    return make_coach("coach-ann")


@pytest.fixture
def other_coach():
    return make_coach("coach-bob")


@pytest.fixture
def own_program(coach):
    return build_program(weeks=2, sessions=3, exercises=4, coach=coach, name="Ann's block")


@pytest.fixture
def other_program(other_coach):
    return build_program(weeks=1, sessions=2, exercises=3, coach=other_coach, name="Bob's block")


@pytest.fixture
def coach_client(client, coach):
    client.force_login(coach)
    return client
