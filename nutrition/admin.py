"""Nutrition in Django's admin, read-only: a coach reads the households their athletes are members
of (their members, recipes, meal plans and grocery lists), the Staff group and superusers read
every household and its invitations; nobody changes anything here (changes go through the
athlete's chat, where they are previewed, applied and undoable; joining is the household page's
invitation, accepted by the person invited). Another household's object answers 404 (not in the queryset).
A superuser may add known ingredients.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from access.policy import is_staff_reader, is_superuser, visible

from .models import (
    GroceryItem,
    GroceryList,
    Household,
    HouseholdInvitation,
    HouseholdMember,
    Ingredient,
    PlannedMeal,
    Recipe,
)


def _staff(request: HttpRequest) -> bool:
    return request.user.is_active and request.user.is_staff


class ReadOnly(admin.ModelAdmin):
    household_path = "household"

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _staff(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        lookup = "" if self.household_path == "pk" else self.household_path
        return visible(super().get_queryset(request), request.user, lookup=lookup)


class ReadOnlyInline(admin.TabularInline):
    """Rows shown inside their parent's page, never changed from the admin."""

    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _staff(request)


class MemberInline(ReadOnlyInline):
    model = HouseholdMember
    fields = ["user", "created_at"]
    readonly_fields = fields


class InvitationInline(ReadOnlyInline):
    """The household's invitations, for staff readers only: a coach reads the food plans of their
    athletes' household, not whom its members invited (that would tell them who has an account)."""

    model = HouseholdInvitation
    fk_name = "household"
    fields = ["username", "invited", "invited_by", "status", "created_at", "decided_at"]
    readonly_fields = fields

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _staff(request) and is_staff_reader(request.user)


@admin.register(Household)
class HouseholdAdmin(ReadOnly):
    household_path = "pk"
    list_display = ["name", "people", "created_at"]
    search_fields = ["name", "members__user__username"]
    inlines = [MemberInline, InvitationInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("members__user")

    @admin.display(description="Members")
    def people(self, household: Household) -> str:
        return ", ".join(m.user.get_username() for m in household.members.all())


@admin.register(Recipe)
class RecipeAdmin(ReadOnly):
    list_display = ["title", "household", "rating", "updated_at"]
    list_filter = ["rating"]
    search_fields = ["title", "household__members__user__username"]
    fields = ["household", "title", "ingredients", "instructions", "tags", "rating", "notes"]


@admin.register(PlannedMeal)
class PlannedMealAdmin(ReadOnly):
    list_display = ["date", "meal_type", "recipe", "household"]
    list_filter = ["meal_type"]
    date_hierarchy = "date"
    list_select_related = ["recipe", "household"]


class ItemInline(ReadOnlyInline):
    model = GroceryItem
    fields = ["name", "quantity", "unit", "prep_state", "checked", "source_recipe"]
    readonly_fields = fields


@admin.register(GroceryList)
class GroceryListAdmin(ReadOnly):
    list_display = ["name", "household", "created_at"]
    search_fields = ["name", "household__members__user__username"]
    inlines = [ItemInline]


@admin.register(Ingredient)
class IngredientAdmin(admin.ModelAdmin):
    list_display = ["name", "category"]
    list_filter = ["category"]
    search_fields = ["name"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _staff(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _staff(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_superuser(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
