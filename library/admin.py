"""The library in Django's admin: a coach (any staff user outside the read-only "Staff" group)
adds, edits and deletes their own workouts, which are shared with all their athletes; the "Staff"
group reads every workout and changes none; a superuser does anything. Athletes have no admin.

Writes go through ``library.services`` (the same validation as the coach's tools); deleting is
soft. Someone else's workout is simply not in the coach's list (its page answers 404).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from access.policy import is_staff_reader, may_act

from . import services
from .access import editable_workouts
from .models import LibraryWorkout
from .schemas import validate_workout


def _is_coach(user: Any) -> bool:
    return user.is_active and user.is_staff and (user.is_superuser or not is_staff_reader(user))


MODEL_FIELDS = ["title", "sport", "duration_minutes", "intensity", "description", "template"]


class LibraryWorkoutForm(forms.ModelForm):
    tags_text = forms.CharField(
        label="Tags",
        required=False,
        max_length=600,
        help_text="Comma-separated, e.g. legs, squat, strength.",
    )

    class Meta:
        model = LibraryWorkout
        fields = MODEL_FIELDS
        help_texts = {
            "template": 'JSON: {"exercises": [{"name": "Back Squat", "sets": 5, "reps": "5", '
            '"load": "80% 1RM", "rest_seconds": 180}], "cardio": {"type": "zone2", "duration": '
            '30, "modality": "Bike"} or null, "warmup": ["..."]}',
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["tags_text"] = ", ".join(self.instance.tags or [])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        tags = [t for t in (cleaned.get("tags_text") or "").split(",") if t.strip()]
        data = {name: cleaned.get(name) for name in MODEL_FIELDS} | {"tags": tags}
        data["description"] = data["description"] or ""
        try:
            self.validated = validate_workout(data)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        return cleaned


@admin.register(LibraryWorkout)
class LibraryWorkoutAdmin(admin.ModelAdmin):
    form = LibraryWorkoutForm
    list_display = ["title", "sport", "duration_minutes", "intensity", "owner", "scope"]
    list_filter = ["sport", "intensity", "scope"]
    search_fields = ["title"]
    readonly_fields = ["owner", "scope", "created_at", "updated_at"]
    fieldsets = [
        (None, {"fields": ["title", "sport", "duration_minutes", "intensity", "tags_text"]}),
        ("Content", {"fields": ["description", "template"]}),
        ("Ownership", {"fields": ["owner", "scope", "created_at", "updated_at"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[LibraryWorkout]:
        user = request.user
        workouts = (
            LibraryWorkout.objects.all() if is_staff_reader(user) else editable_workouts(user)
        )
        return workouts.select_related("owner")

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not self.has_module_permission(request):
            return False
        return obj is None or is_staff_reader(request.user) or may_act(request.user, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_coach(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if not _is_coach(request.user):
            return False
        return obj is None or may_act(request.user, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: LibraryWorkout, form, change: bool) -> None:
        fields = form.validated.model_dump(exclude={"template"}) | {
            "template": form.validated.template.model_dump(mode="json")
        }
        if change:
            services.workout_update(workout=obj, fields=fields)
        else:
            created = services.save_workout_to_library(owner=request.user, shared=True, **fields)
            obj.pk, obj.owner, obj.scope = created.pk, created.owner, created.scope
            obj._state.adding = False

    def delete_model(self, request: HttpRequest, obj: LibraryWorkout) -> None:
        services.workout_soft_delete(workout=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[LibraryWorkout]) -> None:
        for workout in queryset:
            services.workout_soft_delete(workout=workout)
