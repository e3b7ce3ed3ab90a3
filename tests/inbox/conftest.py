"""The people of the inbox tests: a coach with two athletes, another coach with one, a staff
reader; and batches waiting for the coach's review, made by the real agent loop and lifecycle."""

from __future__ import annotations

import pytest

from chat import proposals
from chat.models import CoachReview
from tests.chat.admin_helpers import REMOVE_SESSION, make_coach, make_staff, propose
from tests.factories import ConversationFactory, UserFactory, build_program

REMOVE_WEEK = ("call_rw", "remove_week", {"weekNumber": 2})
RENAME = (
    "call_1",
    "modify_exercise",
    {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 1, "updates": {"name": "Goblet Squat"}},
)


def conversation_of(athlete, coach):
    program = build_program(weeks=2, sessions=3, exercises=4, athlete=athlete, coach=coach)
    return ConversationFactory(program=program, athlete=athlete)


def awaiting(conversation, *calls):
    """A batch the athlete sent to their coach (review mode on, a high or critical change)."""
    CoachReview.objects.get_or_create(athlete=conversation.athlete, defaults={"enabled": True})
    batch = propose(conversation, *calls)
    decision = proposals.apply(
        batch_id=batch.pk, user=conversation.athlete, revision=batch.revision
    )
    assert decision.outcome == "review_requested"
    batch.refresh_from_db()
    return batch


@pytest.fixture
def coach():
    return make_coach("coach-ann")


@pytest.fixture
def other_coach():
    return make_coach("coach-bob")


@pytest.fixture
def staff():
    return make_staff("staff-sam")


@pytest.fixture
def athlete():
    return UserFactory(username="alex")


@pytest.fixture
def conversation(athlete, coach):
    return conversation_of(athlete, coach)


@pytest.fixture
def other_conversation(other_coach):
    return conversation_of(UserFactory(username="olga"), other_coach)


@pytest.fixture
def waiting(conversation):
    return awaiting(conversation, REMOVE_SESSION)


@pytest.fixture
def others_waiting(other_conversation):
    return awaiting(other_conversation, REMOVE_SESSION)
