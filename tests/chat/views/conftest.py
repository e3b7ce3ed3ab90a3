"""Fixtures of the chat page's view tests (``test_page.py``, ``test_batch_endpoints.py``): an
athlete with a current program, their conversation and logged-in client, and an intruder's
client."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from chat import services
from tests.factories import build_program


@pytest.fixture
def program(db):
    """Week 1 is the current week, so the panel shows it."""
    return build_program(weeks=2, sessions=3, exercises=4, start_date=timezone.localdate())


@pytest.fixture
def athlete(program):
    return program.athlete


@pytest.fixture
def conversation(athlete):
    return services.conversation_for_athlete(athlete=athlete)


@pytest.fixture
def athlete_client(client, athlete):
    client.force_login(athlete)
    return client


@pytest.fixture
def intruder_client(db):
    intruder = build_program(weeks=1, sessions=1, exercises=1).athlete
    client = Client()
    client.force_login(intruder)
    return client
