"""Nutrition (seed 002): a household's recipes, meal plan and grocery lists, and the table of known
ingredients every name is checked against.

* A ``Household`` is shared by its ``members``; a member invites someone, who joins by accepting
  (``nutrition.households``). Its members' coaches read it (``nutrition.access``).
* Units are exactly seed 002's list (``Unit``); quantities are decimals (three places), never
  text; no unit conversion anywhere.
* A recipe's ingredients are a JSON list of ``{"ingredient_id", "name", "quantity" (a decimal
  string, exact), "unit", "prep_state"}``, each checked against ``Ingredient`` when written, so
  one ``updated`` journal entry can put a whole list back on undo.
* Recipes, planned meals, grocery lists and items are soft-deleted (``deleted_at``); the default
  manager hides deleted rows, ``all_objects`` sees them (the journal undoes through it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .aggregation import quantity_text


class Unit(models.TextChoices):
    CUP = "cup"
    TBSP = "tbsp"
    TSP = "tsp"
    ML = "ml"
    L = "l"
    FL_OZ = "fl oz"
    LB = "lb"
    OZ = "oz"
    G = "g"
    KG = "kg"
    WHOLE = "whole"
    PIECE = "piece"
    CAN = "can"
    PACKAGE = "package"


UNITS: tuple[str, ...] = tuple(Unit.values)


class MealType(models.TextChoices):
    BREAKFAST = "breakfast"
    LUNCH = "lunch"
    DINNER = "dinner"


class Alive(models.Manager):
    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(deleted_at__isnull=True)


class AllRows(models.Manager):
    """Deleted rows included (the journal's undo, the admin)."""


class Household(models.Model):
    """People who share recipes, a meal plan and grocery lists: its ``members``, all equal. Nobody
    is put in a household by someone else: a member invites (``HouseholdInvitation``), the
    invited person joins by accepting (``nutrition.households``)."""

    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class HouseholdMember(models.Model):
    """One person in one household: everyone is in at most one (their own, made on first use, or
    the one they joined)."""

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="members")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="household_membership"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} in {self.household}"


class InvitationStatus(models.TextChoices):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"


class HouseholdInvitation(models.Model):
    """A member's invitation to the person named ``username`` to join their household; that person
    (``invited``) accepts or declines it, and only they can. Every invitation is a row, also to a
    name nobody uses (``invited`` is then empty and nobody ever sees it), so that inviting a known
    and an unknown name are the same act with the same answer, and count the same towards the
    household's daily limit. At most one is pending per household and name."""

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="household_invitations",
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["household", "username"],
                condition=Q(status="pending"),
                name="householdinvitation_one_pending",
            ),
            models.CheckConstraint(
                condition=Q(status__in=InvitationStatus.values),
                name="householdinvitation_status_valid",
            ),
        ]
        indexes = [models.Index(fields=["household", "created_at"])]

    def __str__(self) -> str:
        return f"{self.username} to {self.household} ({self.status})"


class Ingredient(models.Model):
    """A known ingredient: names are matched exactly (lower case), never guessed."""

    name = models.CharField(max_length=100, unique=True)
    category = models.CharField(max_length=50, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Recipe(models.Model):
    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="recipes")
    title = models.CharField(max_length=200)
    ingredients = models.JSONField(default=list, blank=True)
    instructions = models.TextField(blank=True)
    tags = models.JSONField(default=list, blank=True)
    rating = models.PositiveSmallIntegerField(null=True, blank=True)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = Alive()
    all_objects = AllRows()

    class Meta:
        ordering = ["title", "pk"]
        base_manager_name = "all_objects"
        constraints = [
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__gte=1, rating__lte=5),
                name="recipe_rating_1_to_5",
            )
        ]

    def __str__(self) -> str:
        return self.title

    def get_owner_object(self):
        return self.household


class PlannedMeal(models.Model):
    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="meals")
    date = models.DateField()
    meal_type = models.CharField(max_length=10, choices=MealType.choices)
    recipe = models.ForeignKey(Recipe, on_delete=models.PROTECT, related_name="planned")
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = Alive()
    all_objects = AllRows()

    class Meta:
        ordering = ["date", "meal_type", "pk"]
        base_manager_name = "all_objects"
        constraints = [
            models.CheckConstraint(
                condition=Q(meal_type__in=MealType.values), name="plannedmeal_meal_type_valid"
            )
        ]
        indexes = [models.Index(fields=["household", "date"])]

    def __str__(self) -> str:
        return f"{self.date.isoformat()} {self.meal_type}: {self.recipe}"

    def get_owner_object(self):
        return self.household


class GroceryList(models.Model):
    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="lists")
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = Alive()
    all_objects = AllRows()

    class Meta:
        ordering = ["name", "pk"]
        base_manager_name = "all_objects"
        constraints = [
            models.UniqueConstraint(
                fields=["household", "name"],
                condition=Q(deleted_at__isnull=True),
                name="grocerylist_name_unique_in_household",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_owner_object(self):
        return self.household


class GroceryItem(models.Model):
    grocery_list = models.ForeignKey(GroceryList, on_delete=models.CASCADE, related_name="items")
    ingredient = models.ForeignKey(
        Ingredient, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    name = models.CharField(max_length=100)
    quantity = models.DecimalField(max_digits=12, decimal_places=3)
    unit = models.CharField(max_length=10, choices=Unit.choices)
    prep_state = models.CharField(max_length=50, blank=True)
    checked = models.BooleanField(default=False)
    source_recipe = models.ForeignKey(
        Recipe, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = Alive()
    all_objects = AllRows()

    class Meta:
        ordering = ["pk"]
        base_manager_name = "all_objects"
        constraints = [
            models.CheckConstraint(
                condition=Q(unit__in=Unit.values), name="groceryitem_unit_valid"
            ),
            models.CheckConstraint(
                condition=Q(quantity__gt=0), name="groceryitem_quantity_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def quantity_text(self) -> str:
        return quantity_text(self.quantity)

    def get_owner_object(self):
        return self.grocery_list.household
