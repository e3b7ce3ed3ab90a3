"""The admin's inlines: a program lists its weeks, a week its sessions, a session its exercises
and cardio block, an exercise its logged sets (read-only: those are the athlete's)."""

from __future__ import annotations

from django.contrib import admin

from ..admin_forms import CardioBlockForm, ExerciseForm, SessionInlineForm, WeekForm
from ..models import CardioBlock, Exercise, Session, SetResult, Week
from .mixins import InlinePermissionMixin


class WeekInline(InlinePermissionMixin, admin.TabularInline):
    model = Week
    form = WeekForm
    fields = ("position", "phase", "start_date", "end_date", "description")
    extra = 0
    show_change_link = True


class SessionInline(InlinePermissionMixin, admin.TabularInline):
    model = Session
    form = SessionInlineForm
    fields = ("position", "name", "day_of_week", "scheduled_date", "completed")
    extra = 0
    show_change_link = True


class ExerciseInline(InlinePermissionMixin, admin.TabularInline):
    model = Exercise
    form = ExerciseForm
    fields = (
        "position",
        "group_label",
        "name",
        "warmup_sets",
        "working_sets",
        "reps",
        "target_load",
        "rest_seconds",
        "notes",
        "skipped",
    )
    extra = 1
    show_change_link = True


class CardioBlockInline(InlinePermissionMixin, admin.StackedInline):
    model = CardioBlock
    form = CardioBlockForm
    max_num = 1
    extra = 0
    verbose_name = "cardio block"
    verbose_name_plural = "cardio block"


class SetResultInline(InlinePermissionMixin, admin.TabularInline):
    """Logged sets are the athlete's data: shown, never edited here."""

    model = SetResult
    fields = ("set_number", "reps", "load", "rpe", "is_warmup", "completed", "notes", "logged_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
