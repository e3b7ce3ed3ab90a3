"""The admins of weeks, sessions and exercises: one page per row, with its children inline."""

from __future__ import annotations

from django.contrib import admin

from ..admin_forms import ExerciseForm, SessionForm, WeekForm
from ..models import Exercise, Program, Session, Week
from .inlines import CardioBlockInline, ExerciseInline, SessionInline, SetResultInline
from .mixins import PositionedChildAdmin


@admin.register(Week)
class WeekAdmin(PositionedChildAdmin):
    form = WeekForm
    program_lookup = "program"
    parent_program_lookup = ""
    list_display = ("__str__", "program", "position", "phase", "start_date", "end_date")
    list_filter = (("program", admin.RelatedOnlyFieldListFilter), "phase")
    search_fields = ("phase", "description", "program__name")
    list_select_related = ("program",)
    fields = (
        "program",
        "program_version",
        "position",
        "phase",
        "start_date",
        "end_date",
        "description",
    )
    readonly_fields = ("program_version",)
    inlines = (SessionInline,)


@admin.register(Session)
class SessionAdmin(PositionedChildAdmin):
    form = SessionForm
    program_lookup = "week__program"
    parent_program_lookup = "program"
    list_display = (
        "name",
        "week",
        "program",
        "position",
        "day_of_week",
        "scheduled_date",
        "completed",
    )
    list_filter = ("completed", "day_of_week", ("week__program", admin.RelatedOnlyFieldListFilter))
    search_fields = ("name", "notes", "week__program__name")
    list_select_related = ("week__program",)
    fields = (
        "week",
        "program_version",
        "position",
        "name",
        "day_of_week",
        "scheduled_date",
        "warmup",
        "notes",
        "started_at",
        "completed",
        "completed_date",
        "duration",
        "rating",
    )
    readonly_fields = ("program_version",)
    inlines = (ExerciseInline, CardioBlockInline)

    @admin.display(description="Program", ordering="week__program__name")
    def program(self, obj: Session) -> Program:
        return obj.week.program


@admin.register(Exercise)
class ExerciseAdmin(PositionedChildAdmin):
    form = ExerciseForm
    program_lookup = "session__week__program"
    parent_program_lookup = "week__program"
    list_display = ("name", "session", "position", "working_sets", "reps", "target_load", "skipped")
    list_filter = ("skipped", ("session__week__program", admin.RelatedOnlyFieldListFilter))
    search_fields = ("name", "notes", "session__name", "session__week__program__name")
    list_select_related = ("session__week__program",)
    fields = (
        "session",
        "program_version",
        "position",
        "name",
        "group_label",
        "warmup_sets",
        "working_sets",
        "reps",
        "target_load",
        "rest_seconds",
        "notes",
        "skipped",
    )
    readonly_fields = ("program_version",)
    inlines = (SetResultInline,)
