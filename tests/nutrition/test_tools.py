"""The nutrition tools through the engine: writes preview then apply, the push's aggregation with
the seed's examples, seed 002's errors with the field, household isolation, journaled undo."""

from decimal import Decimal

import pytest

from coach.engine import ToolContext, apply_calls
from coach.registry import REGISTRY
from journal import services as journal
from nutrition.models import GroceryItem, GroceryList, PlannedMeal, Recipe
from tests.factories import UserFactory
from tests.nutrition.helpers import apply, call, codes, items, join, kitchen, preview, read

pytestmark = pytest.mark.django_db

WRITES = (
    "recipe_create",
    "recipe_update",
    "planner_add_meal",
    "planner_remove_meal",
    "grocery_create_list",
    "grocery_push_ingredients",
    "grocery_add_item",
    "grocery_check_item",
    "grocery_uncheck_item",
)
READS = (
    "recipe_list",
    "recipe_get",
    "planner_list_meals",
    "planner_get_meal",
    "grocery_list_lists",
    "grocery_get_list",
)


def test_the_family_is_registered_with_its_policy():
    for name in WRITES + READS:
        spec = REGISTRY[name]
        assert spec.category == "nutrition" and not spec.needs_program
        assert spec.kind == ("write" if name in WRITES else "read")
        assert spec.requires_confirmation == (name in WRITES)


def test_pushing_two_recipes_merges_rice_and_keeps_unit_and_prep_mismatches_apart():
    athlete = UserFactory()
    _, bowl, stir_fry, groceries = kitchen(athlete)
    push = call(
        "grocery_push_ingredients", grocery_list_name="Groceries", recipe_ids=[bowl.pk, stir_fry.pk]
    )
    dry = preview(athlete, push)
    assert dry.success and items(groceries) == []  # a preview writes nothing
    result = apply(athlete, push)
    assert result.success, codes(result)
    assert items(groceries) == [
        ("rice", "1.5", "cup", ""),
        ("chicken", "1", "lb", ""),
        ("onion", "1", "whole", ""),
        ("chicken", "500", "g", ""),
        ("onion", "1", "whole", "chopped"),
    ]
    summary = result.results[0].summary
    assert "added 5" in summary and "merged 1" in summary and "the list has 5 items" in summary
    assert GroceryItem.objects.filter(source_recipe=bowl).count() == 3


def test_the_seed_examples_through_the_tool_with_exact_decimals():
    athlete = UserFactory()
    _, _, _, groceries = kitchen(athlete)
    apply(
        athlete,
        call(
            "grocery_add_item",
            grocery_list_id=groceries.pk,
            ingredient="rice",
            quantity=1,
            unit="cup",
        ),
    )
    GroceryItem.objects.update(ingredient_id=GroceryItem.objects.get().ingredient_id)
    result = apply(
        athlete,
        call(
            "grocery_push_ingredients",
            grocery_list_id=groceries.pk,
            ingredients=[
                {"ingredient": "rice", "quantity": 0.5, "unit": "cup"},
                {"ingredient": "rice", "quantity": 1.75, "unit": "cup"},
                {"ingredient": "chicken", "quantity": 500, "unit": "g"},
                {"ingredient": "onion", "quantity": 0.1, "unit": "whole", "prep_state": "chopped"},
                {"ingredient": "onion", "quantity": 0.2, "unit": "whole", "prep_state": "chopped"},
            ],
        ),
    )
    assert result.success, codes(result)
    assert items(groceries) == [
        ("rice", "3.25", "cup", ""),
        ("chicken", "500", "g", ""),
        ("onion", "0.3", "whole", "chopped"),
    ]
    assert GroceryItem.objects.get(name="rice").quantity == Decimal("3.25")


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ({"ingredient": "Rice", "quantity": 1, "unit": "cup"}, "ingredients.0.ingredient"),
        ({"ingredient": "ryce", "quantity": 1, "unit": "cup"}, "ingredients.0.ingredient"),
        ({"ingredient": "rice", "quantity": "1 cup", "unit": "cup"}, "ingredients.0.quantity"),
        ({"ingredient": "rice", "quantity": 0, "unit": "cup"}, "ingredients.0.quantity"),
        ({"ingredient": "rice", "quantity": 1.2345, "unit": "cup"}, "ingredients.0.quantity"),
        ({"ingredient": "rice", "quantity": 1, "unit": "cups"}, "ingredients.0.unit"),
        ({"ingredient": "rice", "quantity": 1}, "ingredients.0.unit"),
    ],
)
def test_bad_ingredient_lines_are_validation_errors_with_the_field(line, field):
    athlete = UserFactory()
    kitchen(athlete)
    result = preview(
        athlete, call("grocery_push_ingredients", grocery_list_name="Groceries", ingredients=[line])
    )
    assert codes(result) == [[("VALIDATION_ERROR", field)]]


def test_recipe_create_update_and_undo_through_the_journal():
    athlete = UserFactory()
    kitchen(athlete)
    created = apply(
        athlete,
        call(
            "recipe_create",
            title="Oats",
            ingredients=[{"ingredient": "rolled oats", "quantity": 0.5, "unit": "cup"}],
            tags=["breakfast"],
        ),
    )
    assert created.success and created.change_set_id is not None
    oats = Recipe.objects.get(title="Oats")
    assert oats.ingredients[0]["quantity"] == "0.500"
    updated = apply(
        athlete,
        call(
            "recipe_update",
            recipe_id=oats.pk,
            rating=5,
            ingredients=[{"ingredient": "steel-cut oats", "quantity": 1, "unit": "cup"}],
        ),
    )
    assert updated.success, codes(updated)
    journal.undo(updated.change_set_id, athlete)
    oats.refresh_from_db()
    assert oats.rating is None and oats.ingredients[0]["name"] == "rolled oats"
    journal.undo(created.change_set_id, athlete)
    assert not Recipe.objects.filter(pk=oats.pk).exists()


def test_a_push_is_undone_exactly_and_a_later_tick_blocks_it():
    athlete = UserFactory()
    _, bowl, stir_fry, groceries = kitchen(athlete)
    first = apply(
        athlete,
        call("grocery_push_ingredients", grocery_list_id=groceries.pk, recipe_ids=[bowl.pk]),
    )
    second = apply(
        athlete,
        call("grocery_push_ingredients", grocery_list_id=groceries.pk, recipe_ids=[stir_fry.pk]),
    )
    journal.undo(second.change_set_id, athlete)
    assert items(groceries) == [
        ("rice", "1", "cup", ""),
        ("chicken", "1", "lb", ""),
        ("onion", "1", "whole", ""),
    ]
    rice = GroceryItem.objects.get(name="rice")
    apply(athlete, call("grocery_check_item", grocery_item_id=rice.pk))
    with pytest.raises(journal.JournalConflict):
        journal.undo(first.change_set_id, athlete)


def test_planner_add_and_remove_soft_deletes_and_reads_list_them():
    athlete = UserFactory()
    _, bowl, _, _ = kitchen(athlete)
    apply(
        athlete, call("planner_add_meal", recipe_id=bowl.pk, date="2026-11-24", meal_type="dinner")
    )
    meal = PlannedMeal.objects.get()
    listed = read(athlete, "planner_list_meals", start_date="2026-11-23", end_date="2026-11-29")
    assert f'"Rice bowl" (recipe ID: {bowl.pk}, meal ID: {meal.pk})' in listed.summary
    assert apply(athlete, call("planner_remove_meal", planner_meal_id=meal.pk)).success
    assert not PlannedMeal.objects.exists() and PlannedMeal.all_objects.get().deleted_at
    again = apply(athlete, call("planner_remove_meal", planner_meal_id=meal.pk))
    assert codes(again) == [[("NOT_FOUND", "planner_meal_id")]]


def test_list_names_are_unique_in_the_household_but_not_across_households():
    athlete, other = UserFactory(), UserFactory()
    kitchen(athlete)
    result = preview(athlete, call("grocery_create_list", name="Groceries"))
    assert codes(result) == [[("VALIDATION_ERROR", "name")]]
    assert apply(other, call("grocery_create_list", name="Groceries")).success
    assert GroceryList.objects.filter(name="Groceries").count() == 2


def test_another_households_objects_are_not_found_for_every_tool():
    owner, stranger = UserFactory(), UserFactory()
    _, bowl, _, groceries = kitchen(owner)
    item = apply(
        owner, call("grocery_push_ingredients", grocery_list_id=groceries.pk, recipe_ids=[bowl.pk])
    )
    assert item.success
    rice = GroceryItem.objects.get(name="rice")
    meal_result = apply(
        owner, call("planner_add_meal", recipe_id=bowl.pk, date="2026-11-24", meal_type="lunch")
    )
    assert meal_result.success
    meal = PlannedMeal.objects.get()
    attempts = [
        (call("recipe_update", recipe_id=bowl.pk, rating=1), "recipe_id"),
        (
            call("planner_add_meal", recipe_id=bowl.pk, date="2026-11-24", meal_type="dinner"),
            "recipe_id",
        ),
        (call("planner_remove_meal", planner_meal_id=meal.pk), "planner_meal_id"),
        (
            call("grocery_push_ingredients", grocery_list_id=groceries.pk, recipe_ids=[bowl.pk]),
            "grocery_list_id",
        ),
        (
            call(
                "grocery_add_item",
                grocery_list_id=groceries.pk,
                name="Foil",
                quantity=1,
                unit="package",
            ),
            "grocery_list_id",
        ),
        (call("grocery_check_item", grocery_item_id=rice.pk), "grocery_item_id"),
        (call("grocery_uncheck_item", grocery_item_id=rice.pk), "grocery_item_id"),
    ]
    for attempt, field in attempts:
        assert codes(preview(stranger, attempt)) == [[("NOT_FOUND", field)]], attempt.name
    for name, args in [
        ("recipe_get", {"recipe_id": bowl.pk}),
        ("grocery_get_list", {"grocery_list_id": groceries.pk}),
    ]:
        answer = read(stranger, name, **args)
        assert not answer.success and answer.errors[0].code == "NOT_FOUND"
        assert "Rice bowl" not in answer.summary and "rice" not in answer.summary
    assert read(stranger, "recipe_list").summary == "No recipes saved yet."
    assert "no grocery lists" in read(stranger, "grocery_list_lists").summary
    assert (
        "No meals"
        in read(
            stranger, "planner_list_meals", start_date="2026-11-23", end_date="2026-11-29"
        ).summary
    )


def test_an_invited_member_shares_the_household():
    owner, member = UserFactory(), UserFactory()
    home, bowl, _, groceries = kitchen(owner)
    join(member, home)
    assert '"Rice bowl"' in read(member, "recipe_list", tags=["high-carb"]).summary
    assert apply(
        member, call("grocery_push_ingredients", grocery_list_id=groceries.pk, recipe_ids=[bowl.pk])
    ).success


def test_a_change_is_made_in_the_athletes_household_whoever_decided_it():
    """The spine decides who may act for the athlete (their click, or their coach's approval in
    review mode); the tool then acts with the athlete's authority, as every family's tools do."""
    athlete, coach = UserFactory(), UserFactory()
    home, _, _, _ = kitchen(athlete)
    result = apply_calls(
        ctx=ToolContext(athlete=athlete, program=None, user=coach),
        calls=[call("grocery_create_list", name="Coach's list")],
    )
    assert result.success, codes(result)
    assert GroceryList.objects.get(name="Coach's list").household == home


def test_check_then_check_again_is_refused_as_no_change():
    athlete = UserFactory()
    _, _, _, groceries = kitchen(athlete)
    apply(
        athlete,
        call(
            "grocery_add_item",
            grocery_list_id=groceries.pk,
            name="Foil",
            quantity=1,
            unit="package",
        ),
    )
    foil = GroceryItem.objects.get()
    assert apply(athlete, call("grocery_check_item", grocery_item_id=foil.pk)).success
    foil.refresh_from_db()
    assert foil.checked
    dry = preview(athlete, call("grocery_check_item", grocery_item_id=foil.pk))
    assert dry.preview["details"][0]["fields"] == []  # the chat refuses it as a no-op


def test_a_recipe_query_finds_a_food_in_the_title_or_the_ingredients():
    owner = UserFactory()
    kitchen(owner)
    found = read(owner, "recipe_list", query="chicken").summary
    assert '"Rice bowl"' in found and '"Stir fry"' in found  # chicken is in both
    assert '"Stir fry"' in read(owner, "recipe_list", query="stir").summary
    assert '"Rice bowl"' not in read(owner, "recipe_list", query="stir").summary
    assert read(owner, "recipe_list", query="salmon").summary == (
        'None of your recipes has "salmon" in its title, ingredients or tags.'
    )
