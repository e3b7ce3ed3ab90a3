"""Undo through the chat of a batch that removed a planned meal (issue 18 item 13): the meal comes
back; it used to be refused as "changed after these changes" although nothing had changed."""

import pytest

from chat import proposals
from nutrition.ingredients import load_known_ingredients
from nutrition.models import PlannedMeal
from tests.chat.helpers import propose
from tests.factories import ConversationFactory
from tests.nutrition.helpers import kitchen

pytestmark = pytest.mark.django_db


def test_undo_of_a_batch_that_removed_a_planned_meal_puts_it_back(program):
    load_known_ingredients()
    conversation = ConversationFactory(program=program)
    athlete = conversation.athlete
    _, bowl, _, _ = kitchen(athlete)
    meal = PlannedMeal.objects.create(
        household=bowl.household, recipe=bowl, date="2026-11-24", meal_type="dinner"
    )
    batch = propose(conversation, ("call_rm", "planner_remove_meal", {"planner_meal_id": meal.pk}))
    batch.refresh_from_db()
    applied = proposals.apply(batch_id=batch.pk, user=athlete, revision=batch.revision)
    assert applied.outcome == "applied" and not PlannedMeal.objects.exists()
    undone = proposals.undo(batch_id=batch.pk, user=athlete)
    assert undone.outcome == "undone", undone.message
    assert PlannedMeal.objects.get() == meal
