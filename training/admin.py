"""Training data in the admin. A coach sees and edits the data of the athletes whose programs
they coach (``Program.coach``), nothing else (404); a member of the "Staff" group or a staff user
without coached athletes reads everything and changes nothing; a superuser does everything."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from .models import Activity, AthleteProfile, SleepRecord

STAFF_GROUP = "Staff"


def _is_superuser(user: Any) -> bool:
    return bool(user.is_active and user.is_superuser)


def _reads_everything(user: Any) -> bool:
    return _is_superuser(user) or user.groups.filter(name=STAFF_GROUP).exists()


def _coaches(user: Any, athlete_id: int) -> bool:
    return user.coached_programs.filter(athlete_id=athlete_id).exists()


class AthleteDataAdmin(admin.ModelAdmin):
    """Scope rows to the coach's athletes; staff read-only."""

    list_select_related = ("athlete",)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet:
        queryset = super().get_queryset(request)
        if _reads_everything(request.user):
            return queryset
        return queryset.filter(athlete__programs__coach=request.user).distinct()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        user = request.user
        if not (user.is_active and user.is_staff):
            return False
        return obj is None or _reads_everything(user) or _coaches(user, obj.athlete_id)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        user = request.user
        if _is_superuser(user):
            return True
        if not user.is_staff or _reads_everything(user):
            return False
        return obj is None or _coaches(user, obj.athlete_id)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_superuser(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_superuser(request.user)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "athlete" and not _is_superuser(request.user):
            kwargs["queryset"] = db_field.related_model.objects.filter(
                programs__coach=request.user
            ).distinct()
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
