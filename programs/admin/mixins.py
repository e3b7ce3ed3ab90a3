"""Behaviour shared by the program admins: scoping by the access policy (``access.policy``), writes through the
services, and one revision (``programs.history.program_change``, ``via="admin"``) per admin save,
delete or bulk delete that changed a program.

A change form is saved in two hooks (``save_model``, then ``save_related`` for the inlines), so the
recording starts in the first and finishes in the second, inside the request's transaction (the
admin's change and delete views are atomic) with the program row locked.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db import models, transaction
from django.http import Http404, HttpRequest

from access.policy import ACT, may_act, may_read, visible

from ..admin_forms import PositionedForm
from ..history import ProgramChange, program_change
from ..models import CardioBlock, Program, RevisionVia, Session, Week
from ..selectors import week_date_problems
from .formsets import (
    KINDS,
    adopt,
    plain_values,
    save_cardio_formset,
    save_positioned_formset,
    update_changed,
)

RECORDING = "_spotter_program_change"


def start_recording(request: HttpRequest, program: Program) -> ProgramChange:
    """Begin the revision of this admin request (the summary is written when it finishes)."""
    change = program_change(program=program, actor=request.user, via=RevisionVia.ADMIN, summary="")
    setattr(request, RECORDING, change.start())
    return change


def finish_recording(request: HttpRequest, summary: str) -> None:
    change: ProgramChange | None = getattr(request, RECORDING, None)
    if change is not None:
        change.summary = summary
        change.finish()
        delattr(request, RECORDING)


class OwnedAdminMixin:
    """Scope an admin to the programs the user may see, refuse the rest with 404, and record every
    save as one revision of the program."""

    program_lookup: str = ""  # the path from this model to its Program ("" for Program)

    def get_queryset(self, request: HttpRequest) -> models.QuerySet:
        return visible(super().get_queryset(request), request.user, lookup=self.program_lookup)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_view_permission(request, obj)
        return allowed and (obj is None or may_read(request.user, obj))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or may_act(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or may_act(request.user, obj))

    def _get_visible_or_404(self, request: HttpRequest, object_id: str) -> Any:
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            raise Http404(f"No {self.opts.verbose_name} with id {object_id!r} that you may see.")
        return obj

    def change_view(self, request, object_id, form_url="", extra_context=None):
        self._get_visible_or_404(request, object_id)
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_view(self, request, object_id, extra_context=None):
        self._get_visible_or_404(request, object_id)
        return super().delete_view(request, object_id, extra_context)

    def history_view(self, request, object_id, extra_context=None):
        self._get_visible_or_404(request, object_id)
        return super().history_view(request, object_id, extra_context)

    def save_formset(self, request, form, formset, change):
        if formset.model in KINDS:
            save_positioned_formset(formset=formset, parent=form.instance)
        elif formset.model is CardioBlock:
            save_cardio_formset(formset=formset, session=form.instance)
        else:
            super().save_formset(request, form, formset, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        verb = "Changed" if change else "Added"
        finish_recording(
            request, f"{verb} {self.opts.verbose_name} “{form.instance}” in the admin."
        )
        if isinstance(form.instance, Program | Week):
            program = form.instance.get_owner_object()
            problems = week_date_problems(program_id=program.pk)
            if problems:
                messages.warning(
                    request,
                    "The weeks' dates are out of order: "
                    + " ".join(problems)
                    + " Check the start and end dates.",
                )

    @admin.display(description="Program version")
    def program_version(self, obj: Any) -> int | str:
        return obj.get_owner_object().version if obj and obj.pk else "-"


class InlinePermissionMixin:
    """An inline follows its parent: editable only when the parent's program is the user's."""

    def has_add_permission(self, request, obj=None):
        allowed = super().has_add_permission(request, obj)
        return allowed and (obj is None or may_act(request.user, obj))

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or may_act(request.user, obj))

    def has_delete_permission(self, request, obj=None):
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or may_act(request.user, obj))

    def has_view_permission(self, request, obj=None):
        allowed = super().has_view_permission(request, obj)
        return allowed and (obj is None or may_read(request.user, obj))


def parent_choices(queryset: models.QuerySet) -> models.QuerySet:
    """A parent week or session list in reading order, with what its label needs (one query)."""
    if queryset.model is Session:
        return queryset.select_related("week__program").order_by(
            "week__program__name", "week__program_id", "week__position", "position"
        )
    if queryset.model is Week:
        return queryset.select_related("program").order_by(
            "program__name", "program_id", "position"
        )
    return queryset


def parent_label(obj: Any) -> str:
    """ "Strength Block · Week 2 · Session 1: Lower Body A" instead of "Session 1: Lower Body A"."""
    if isinstance(obj, Session):
        return f"{obj.week.program.name} · Week {obj.week.position} · {obj}"
    if isinstance(obj, Week):
        return f"{obj.program.name} · {obj}"
    return str(obj)


class PositionedChildAdmin(OwnedAdminMixin, admin.ModelAdmin):
    """Admin of a week, session or exercise: the parent is chosen on add and fixed afterwards;
    the position is applied with the insert/move services."""

    parent_program_lookup: str = ""  # from the parent model to its Program

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            fields.append(KINDS[self.model].parent_field)
        return fields

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        parent = db_field.name == KINDS[self.model].parent_field
        if parent:
            kwargs["queryset"] = parent_choices(
                visible(
                    db_field.related_model.objects.all(),
                    request.user,
                    lookup=self.parent_program_lookup,
                    action=ACT,
                )
            )
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if parent and field is not None:
            field.label_from_instance = parent_label
        return field

    def save_model(self, request, obj, form: PositionedForm, change):
        kind = KINDS[self.model]
        start_recording(request, obj.get_owner_object())
        siblings = kind.siblings(self.model, getattr(obj, kind.parent_field))
        requested = form.cleaned_data.get("position")
        if not change:
            count = siblings.count()
            position = min(requested or count + 1, count + 1)
            saved = kind.insert(
                getattr(obj, kind.parent_field),
                position,
                plain_values(obj, skip=[kind.parent_field]),
            )
            adopt(obj, saved)
            return
        update_changed(obj, form.changed_data, skip=[kind.parent_field])
        if requested is not None and requested != form.initial.get("position"):
            fresh = self.model.objects.get(pk=obj.pk)
            kind.move(fresh, min(requested, siblings.count()))
            obj.position = fresh.position

    def delete_model(self, request, obj):
        program = obj.get_owner_object()
        summary = f"Deleted {self.opts.verbose_name} “{obj}” in the admin."
        with (
            transaction.atomic(),
            program_change(
                program=program, actor=request.user, via=RevisionVia.ADMIN, summary=summary
            ),
        ):
            KINDS[self.model].remove(self.model.objects.get(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        by_program: dict[int, list[int]] = {}
        for obj in queryset.order_by("pk"):
            by_program.setdefault(obj.get_owner_object().pk, []).append(obj.pk)
        noun = self.opts.verbose_name_plural
        with transaction.atomic():
            for program in Program.objects.filter(pk__in=by_program).order_by("pk"):
                pks = by_program[program.pk]
                summary = f"Deleted {len(pks)} {noun} in the admin."
                with program_change(
                    program=program, actor=request.user, via=RevisionVia.ADMIN, summary=summary
                ):
                    for pk in pks:
                        KINDS[self.model].remove(self.model.objects.get(pk=pk))
