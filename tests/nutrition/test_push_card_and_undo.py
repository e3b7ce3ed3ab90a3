"""Issue 18 items 12 and 13: a grocery push's card shows each line's own step, and undoing a
removed planned meal puts it back."""

import datetime
from decimal import Decimal

import pytest

from journal import services as journal
from journal.models import Change
from nutrition.models import GroceryItem, PlannedMeal
from tests.factories import UserFactory
from tests.nutrition.helpers import apply, call, codes, items, kitchen, preview

pytestmark = pytest.mark.django_db

TWO_RICE = [
    {"ingredient": "rice", "quantity": 0.5, "unit": "cup"},
    {"ingredient": "rice", "quantity": 1.75, "unit": "cup"},
]


def _modified(details):
    return [(d["before"], d["after"], d["fields"]) for d in details if d["type"] == "modify"]


def test_two_pushes_into_one_item_each_show_their_own_step_on_the_card():
    athlete = UserFactory()
    _, _, _, groceries = kitchen(athlete)
    assert apply(
        athlete,
        call(
            "grocery_add_item",
            grocery_list_id=groceries.pk,
            ingredient="rice",
            quantity=1,
            unit="cup",
        ),
    ).success
    push = call("grocery_push_ingredients", grocery_list_id=groceries.pk, ingredients=TWO_RICE)
    dry = preview(athlete, push)
    assert dry.success, codes(dry)
    steps = _modified(dry.preview["details"])
    assert [(f[0]["oldValue"], f[0]["newValue"]) for _, _, f in steps] == [
        ("1", "1.5"),
        ("1.5", "3.25"),
    ]
    assert [(before, after) for before, after, _ in steps] == [
        ("1 cup rice", "1.5 cup rice (+0.5 cup rice)"),
        ("1.5 cup rice", "3.25 cup rice (+1.75 cup rice)"),
    ]
    result = apply(athlete, push)
    assert "merged 2 (1.5 cup rice; 3.25 cup rice)" in result.results[0].summary
    assert GroceryItem.objects.get(name="rice").quantity == Decimal("3.25")


def test_a_line_added_then_merged_in_one_push_shows_the_added_quantity_and_undoes_exactly():
    athlete = UserFactory()
    _, _, _, groceries = kitchen(athlete)
    push = call("grocery_push_ingredients", grocery_list_id=groceries.pk, ingredients=TWO_RICE)
    result = apply(athlete, push)
    assert result.success, codes(result)
    summary = result.results[0].summary
    assert "added 1 (0.5 cup rice)" in summary and "merged 1 (2.25 cup rice)" in summary
    assert items(groceries) == [("rice", "2.25", "cup", "")]
    journal.undo(result.change_set_id, athlete)
    assert items(groceries) == []


def test_undoing_a_batch_that_removed_a_planned_meal_puts_the_meal_back():
    athlete = UserFactory()
    _, bowl, _, _ = kitchen(athlete)
    added = apply(
        athlete, call("planner_add_meal", recipe_id=bowl.pk, date="2026-11-24", meal_type="dinner")
    )
    meal = PlannedMeal.objects.get()
    removed = apply(athlete, call("planner_remove_meal", planner_meal_id=meal.pk))
    assert removed.success and not PlannedMeal.objects.exists()
    journal.undo(removed.change_set_id, athlete)
    assert PlannedMeal.objects.get() == meal
    journal.undo(added.change_set_id, athlete)  # and the earlier batch is undoable after it
    assert not PlannedMeal.objects.exists()


def test_a_removal_recorded_with_millisecond_times_before_the_fix_is_still_undone():
    athlete = UserFactory()
    _, bowl, _, _ = kitchen(athlete)
    apply(
        athlete, call("planner_add_meal", recipe_id=bowl.pk, date="2026-11-24", meal_type="lunch")
    )
    meal = PlannedMeal.objects.get()
    removed = apply(athlete, call("planner_remove_meal", planner_meal_id=meal.pk))
    PlannedMeal.all_objects.filter(pk=meal.pk).update(
        deleted_at=datetime.datetime(2026, 11, 24, 12, 0, 0, 123456, tzinfo=datetime.UTC)
    )
    change = Change.objects.get(change_set_id=removed.change_set_id)
    change.after = {"deleted_at": "2026-11-24T12:00:00.123Z"}  # how Django's encoder wrote it
    change.save(update_fields=["after"])
    journal.undo(removed.change_set_id, athlete)
    assert PlannedMeal.objects.get() == meal
