"""Coach review mode, per athlete (seed 004): the athlete's coach switches it on or off here.

A coach sees and switches it only for the athletes of the programs they coach (the athlete choices
are limited to them); staff read every athlete's setting and change none; a superuser does all."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest

from access import policy

from ..models import CoachReview
from .base import may_use_admin


def coached_athletes(user: Any) -> QuerySet:
    """The athletes whose review mode ``user`` may switch (the policy's ``REVIEW``): every user
    for a superuser, the athletes they coach otherwise."""
    return policy.visible(get_user_model().objects.all(), user, action=policy.REVIEW)


def visible_athletes(user: Any) -> QuerySet:
    """The athletes whose setting ``user`` may read (the policy's ``READ``)."""
    return policy.visible(get_user_model().objects.all(), user)


@admin.register(CoachReview)
class CoachReviewAdmin(admin.ModelAdmin):
    list_display = ("athlete", "enabled", "updated_at")
    actions = ("switch_on", "switch_off")
    list_filter = ("enabled",)
    list_select_related = ("athlete",)
    search_fields = ("athlete__username",)
    fields = ("athlete", "enabled", "updated_at")
    readonly_fields = ("updated_at",)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return may_use_admin(request.user)

    def has_view_permission(self, request: HttpRequest, obj: CoachReview | None = None) -> bool:
        if not may_use_admin(request.user):
            return False
        return obj is None or visible_athletes(request.user).filter(pk=obj.athlete_id).exists()

    def _switches(self, request: HttpRequest) -> bool:
        return may_use_admin(request.user) and coached_athletes(request.user).exists()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._switches(request)

    def has_change_permission(self, request: HttpRequest, obj: CoachReview | None = None) -> bool:
        if not self._switches(request):
            return False
        return obj is None or coached_athletes(request.user).filter(pk=obj.athlete_id).exists()

    def has_delete_permission(self, request: HttpRequest, obj: CoachReview | None = None) -> bool:
        return False  # switch it off instead: the row keeps when it last changed

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)
        return queryset.filter(athlete__in=visible_athletes(request.user))

    def get_readonly_fields(self, request: HttpRequest, obj: CoachReview | None = None):
        if obj is not None:
            return ("athlete", *self.readonly_fields)
        return self.readonly_fields

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        if db_field.name == "athlete":
            kwargs["queryset"] = coached_athletes(request.user).order_by("username")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def _switch(self, request: HttpRequest, queryset: QuerySet, *, enabled: bool) -> None:
        allowed = queryset.filter(athlete__in=coached_athletes(request.user))
        count = 0
        for review in allowed:  # save() so updated_at moves
            if review.enabled != enabled:
                review.enabled = enabled
                review.save(update_fields=["enabled", "updated_at"])
                count += 1
        skipped = queryset.count() - allowed.count()
        state = "on" if enabled else "off"
        text = f"Coach review switched {state} for {count} athlete(s)."
        if skipped:
            text += f" {skipped} not switched: you don't coach them."
        self.message_user(request, text)

    @admin.action(description="Switch coach review on", permissions=["change"])
    def switch_on(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._switch(request, queryset, enabled=True)

    @admin.action(description="Switch coach review off", permissions=["change"])
    def switch_off(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._switch(request, queryset, enabled=False)
