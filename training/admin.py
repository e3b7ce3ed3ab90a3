"""Training data in the admin, scoped by the access policy (``access.policy``): a coach sees and
edits the data of the athletes they coach, nothing else (404); a member of the "Staff" group reads
everything and changes only what they coach; a superuser does everything."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from access.policy import athletes_of, is_staff_reader, is_superuser, may_act, may_read, visible

from .models import Activity, AthleteProfile, SleepRecord


class AthleteDataAdmin(admin.ModelAdmin):
    """Scope rows to the coach's athletes; staff read-only."""

    list_select_related = ("athlete",)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet:
        return visible(super().get_queryset(request), request.user, lookup="athlete")

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        user = request.user
        if not (user.is_active and user.is_staff):
            return False
        return obj is None or may_read(user, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        user = request.user
        if is_superuser(user):
            return True
        if not user.is_staff:
            return False
        if obj is None:  # a staff reader's list is read-only unless they coach someone
            return not is_staff_reader(user) or athletes_of(user).exists()
        return may_act(user, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_superuser(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request.user)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "athlete" and not is_superuser(request.user):
            kwargs["queryset"] = db_field.related_model.objects.filter(
                pk__in=athletes_of(request.user)
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(AthleteProfile)
class AthleteProfileAdmin(AthleteDataAdmin):
    list_display = ("athlete", "threshold_hr", "max_hr", "ftp_w", "time_zone", "ctl_days")
    readonly_fields = ("athlete",)


@admin.register(Activity)
class ActivityAdmin(AthleteDataAdmin):
    list_display = ("local_date", "athlete", "sport", "name", "training_load", "load_method")
    list_filter = ("sport", "load_method")
    date_hierarchy = "local_date"
    readonly_fields = (
        "athlete",
        "start",
        "local_date",
        "dedupe_key",
        "source_format",
        "source_file",
        "device_id",
        "streams",
        "created_at",
        "session",
    )
    exclude = ("deleted_at",)


@admin.register(SleepRecord)
class SleepRecordAdmin(AthleteDataAdmin):
    list_display = ("night", "athlete", "duration_min", "score", "resting_hr", "hrv_ms")
    readonly_fields = ("athlete", "night", "source")
