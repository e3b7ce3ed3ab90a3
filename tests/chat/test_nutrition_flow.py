"""Nutrition in a conversation with the offline coach: reads answer at once, a push waits for
Apply, merges exactly, is undone through the journal; a program change since the preview doesn't
block a grocery batch, and a write to an object deleted since the preview fails cleanly."""

import pytest
from django.db import transaction

from chat import proposals
from chat.agent import run_turn
from chat.models import Message, PendingToolBatch
from chat.services import message_send
from coach.llm.offline import OfflineProvider
from journal import services as journal
from nutrition.ingredients import load_known_ingredients
from nutrition.models import GroceryItem, PlannedMeal
from programs.models import ProgramRevision
from programs.services import object_update
from tests.chat.helpers import first_exercise
from tests.chat.scripted_provider import ScriptedProvider
from tests.factories import ConversationFactory
from tests.nutrition.helpers import items, kitchen

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(program):
    load_known_ingredients()
    return ConversationFactory(program=program)


def say(conversation, text) -> Message:
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=OfflineProvider())
    placeholder.refresh_from_db()
    return placeholder


def open_batch(conversation) -> PendingToolBatch:
    return PendingToolBatch.objects.get(
        conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES
    )


def apply(batch):
    batch.refresh_from_db()
    return proposals.apply(
        batch_id=batch.pk, user=batch.conversation.athlete, revision=batch.revision
    )


def test_push_two_recipes_apply_merged_then_undo(conversation):
    _, bowl, stir_fry, groceries = kitchen(conversation.athlete)
    reply = say(conversation, "recipes")
    assert f"Rice bowl (ID: {bowl.pk})" in reply.content
    say(conversation, f"add recipes {bowl.pk} and {stir_fry.pk} to list Groceries")
    batch = open_batch(conversation)
    assert "1.5 cup rice" in str(batch.preview["details"])
    assert items(groceries) == []
    decision = apply(batch)
    assert decision.outcome == "applied", batch.error_message
    assert ("rice", "1.5", "cup", "") in items(groceries)
    assert decision.record.change_set is not None
    assert journal.parts(decision.record.change_set, ProgramRevision) == []  # the program untouched
    undone = proposals.undo(batch_id=batch.pk, user=conversation.athlete)
    assert undone.outcome == "undone", undone.message
    assert items(groceries) == []


def test_a_program_change_since_the_preview_does_not_block_a_grocery_batch(conversation, program):
    _, bowl, _, groceries = kitchen(conversation.athlete)
    say(conversation, f"add recipe {bowl.pk} to list Groceries")
    batch = open_batch(conversation)
    object_update(obj=first_exercise(program), fields={"reps": "12"})  # bumps the version
    assert apply(batch).outcome == "applied"
    assert len(items(groceries)) == 3


def test_a_write_to_an_object_deleted_since_the_preview_fails_cleanly(conversation):
    home, bowl, _, _ = kitchen(conversation.athlete)
    meal = PlannedMeal.objects.create(
        household=home, recipe=bowl, date="2026-11-24", meal_type="dinner"
    )
    say(conversation, f"remove meal {meal.pk}")
    batch = open_batch(conversation)
    PlannedMeal.objects.filter(pk=meal.pk).update(deleted_at="2026-11-22T10:00Z")
    decision = apply(batch)
    assert decision.outcome == "failed"
    assert "no planned meal" in decision.batch.error_message
    assert not GroceryItem.objects.exists()


def test_the_coach_reasons_across_packs_reading_the_plan_then_planning_dinners(
    conversation, program
):
    """ "Plan high-carb dinners before my long rides": the model reads the training plan and the
    recipes (at once), then proposes planner_add_meal calls that wait for Apply on one card."""
    _, bowl, _, _ = kitchen(conversation.athlete)
    first_day = program.start_date.isoformat()
    provider = (
        ScriptedProvider()
        .calls(
            ("r1", "get_training_plan", {"start_date": first_day}),
            ("r2", "recipe_list", {"tags": ["high-carb"]}),
        )
        .calls(
            (
                "w1",
                "planner_add_meal",
                {"recipe_id": bowl.pk, "date": first_day, "meal_type": "dinner"},
            ),
            text="Rice bowl the evening before your ride.",
        )
    )
    with transaction.atomic():
        _, placeholder = message_send(
            conversation=conversation, text="Plan high-carb dinners before my long rides"
        )
    run_turn(placeholder=placeholder, provider=provider)
    second = provider.requests[1]
    answers = [t.content for t in second.turns if t.role == "tool"]
    assert any("week-1-session-1" in a for a in answers), answers  # the training plan was read
    assert any('"Rice bowl"' in a for a in answers)  # and the recipes
    # Neither family was sent at first (use_tools can load them); calling their reads directly
    # loaded both, so the second call carries their schemas, the planner's write included.
    first = {t["name"] for t in provider.requests[0].tools}
    assert "use_tools" in first and not {"get_training_plan", "recipe_list"} & first
    tools = {t["name"] for t in second.tools}
    assert {"get_training_plan", "recipe_list", "planner_add_meal"} <= tools
    batch = open_batch(conversation)
    assert [c["name"] for c in batch.calls] == ["planner_add_meal"]
    assert not PlannedMeal.objects.exists()
    assert apply(batch).outcome == "applied"
    assert PlannedMeal.objects.get().recipe == bowl
