"""Coach review mode for every family (issue 18 item 11): a batch the athlete proposed and
confirmed, sent to the coach, is applied on the coach's approval with the athlete's authority,
whatever families its changes belong to (the coach is not one of the household's people)."""

import pytest
from django.db import transaction

from chat import proposals
from chat.agent import run_turn
from chat.models import CoachReview, PendingToolBatch
from chat.services import message_send
from nutrition.access import household_for
from nutrition.ingredients import load_known_ingredients
from nutrition.models import GroceryList
from tests.chat.scripted_provider import ScriptedProvider
from tests.factories import CoachFactory, ConversationFactory
from wellness.models import CareLog

pytestmark = pytest.mark.django_db

REMOVE_WEEK_2 = ("call_rw", "remove_week", {"weekNumber": 2})
NEW_LIST = ("call_gl", "grocery_create_list", {"name": "Race week"})
CARE_LOG = (
    "call_cl",
    "create_care_log",
    {"log_type": "physio", "title": "Knee check", "occurred_at": "2026-11-20T10:00"},
)


@pytest.fixture
def conversation(program):
    load_known_ingredients()
    program.coach = CoachFactory()
    program.save(update_fields=["coach"])
    CoachReview.objects.create(athlete=program.athlete, enabled=True)
    return ConversationFactory(program=program)


def propose(conversation, *calls, said="please change it"):
    """The athlete says ``said``, the scripted model proposes ``calls``; the open batch."""
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text=said)
    run_turn(placeholder=placeholder, provider=ScriptedProvider().calls(*calls, text="Shall I?"))
    return PendingToolBatch.objects.get(
        conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES
    )


def send_to_review(batch):
    batch.refresh_from_db()
    decision = proposals.apply(
        batch_id=batch.pk, user=batch.conversation.athlete, revision=batch.revision
    )
    assert decision.outcome == "review_requested"


def test_approving_a_review_batch_with_a_nutrition_change_applies_it(conversation, program):
    batch = propose(conversation, REMOVE_WEEK_2, NEW_LIST)
    send_to_review(batch)
    assert not GroceryList.objects.exists()
    approved = proposals.approve(batch_id=batch.pk, coach=program.coach)
    assert approved.outcome == "approved", approved.batch.error_message
    assert program.weeks.count() == 1
    created = GroceryList.objects.get()
    assert created.name == "Race week"
    assert created.household == household_for(program.athlete)


def test_approving_a_review_batch_with_a_wellness_change_applies_it(conversation, program):
    said = "I went to the physio on 20 November at 10:00 for a knee check"
    batch = propose(conversation, CARE_LOG, said=said)
    send_to_review(batch)
    assert not CareLog.objects.exists()
    approved = proposals.approve(batch_id=batch.pk, coach=program.coach)
    assert approved.outcome == "approved", approved.batch.error_message
    assert CareLog.objects.get().athlete == program.athlete
