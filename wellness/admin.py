"""The wellness log in the admin: read-only. A coach reads the logs of the athletes they coach
(``selectors.visible_logs``), the Staff group reads all, nobody changes them here (logs come
from the athlete, through the chat or the wellness page).

A ``crisis`` mood is flagged: the mood list puts open flags first with a red marker, and the
athlete's coach marks a flag seen with the "Mark crisis flags as seen" action (staff readers
can't: they change nothing).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Case, IntegerField, Model, QuerySet, Value, When
from django.http import HttpRequest
from django.utils.html import format_html

from access.policy import REVIEW, is_staff_reader, visible

from . import services
from .models import CareLog, MedicationLog, MoodLog, ReadinessLog, Reminder
from .selectors import visible_logs


def _may_use_admin(user: Any) -> bool:
    return bool(getattr(user, "is_active", False) and getattr(user, "is_staff", False))


class WellnessReadOnlyAdmin(admin.ModelAdmin):
    list_select_related = ["athlete"]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _may_use_admin(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        if not _may_use_admin(request.user):
            return False
        return obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return visible_logs(self.model, request.user).select_related("athlete")


@admin.register(MoodLog)
class MoodLogAdmin(WellnessReadOnlyAdmin):
    list_display = ["crisis_flag", "athlete", "logged_on", "mood", "note", "flag_seen_at"]
    list_filter = ["mood", "logged_on"]
    actions = ["mark_seen"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        open_first = Case(
            When(mood="crisis", flag_seen_at__isnull=True, then=Value(0)),
            default=Value(1),
            output_field=IntegerField(),
        )
        return (
            super()
            .get_queryset(request)
            .annotate(open_flag=open_first)
            .order_by("open_flag", "-logged_on", "-pk")
        )

    @admin.display(description="Flag")
    def crisis_flag(self, obj: MoodLog) -> str:
        if obj.is_open_crisis:
            return format_html(
                '<strong class="crisis-flag" style="color:#b00">{}</strong>', "⚑ Crisis"
            )
        if obj.mood == "crisis":
            return "Crisis (seen)"
        return ""

    def has_mark_seen_permission(self, request: HttpRequest) -> bool:
        return _may_use_admin(request.user) and (
            request.user.is_superuser or not is_staff_reader(request.user)
        )

    @admin.action(description="Mark crisis flags as seen", permissions=["mark_seen"])
    def mark_seen(self, request: HttpRequest, queryset: QuerySet) -> None:
        mine = visible(queryset, request.user, lookup="athlete", action=REVIEW)
        count = 0
        for log in mine.filter(mood="crisis", flag_seen_at__isnull=True):
            services.mark_flag_seen(log=log, by=request.user)
            count += 1
        messages.success(request, f"{count} crisis flag(s) marked as seen.")


@admin.register(MedicationLog)
class MedicationLogAdmin(WellnessReadOnlyAdmin):
    list_display = ["athlete", "taken_on", "taken_time", "part_of_day", "name", "kind", "dose"]
    list_filter = ["kind", "taken_on"]


@admin.register(ReadinessLog)
class ReadinessLogAdmin(WellnessReadOnlyAdmin):
    list_display = ["athlete", "logged_on", "sleep_quality", "soreness", "stress", "note"]
    list_filter = ["logged_on"]


@admin.register(CareLog)
class CareLogAdmin(WellnessReadOnlyAdmin):
    list_display = ["athlete", "occurred_at", "log_type", "title"]
    list_filter = ["log_type"]


@admin.register(Reminder)
class ReminderAdmin(WellnessReadOnlyAdmin):
    list_display = ["athlete", "title", "time", "days", "active"]
