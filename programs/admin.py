"""The coach admin: coaches edit their athletes' programs in Django's admin.

Django's admin has no nested inlines, so the hierarchy is three pages deep: a program lists its
weeks, a week its sessions, a session its exercises and its cardio block; each inline row links to
the page of the row.

Every write goes through ``programs.services``: rows are inserted, removed and reordered with the
position services (so positions stay contiguous and the unique (parent, position) constraint never
trips, even when a coach swaps two rows), fields are saved with ``object_update``, and the
program's ``version`` goes up exactly once per admin request that changed something, inside the
request's transaction and after the program row is locked.

Who sees what: a superuser sees and edits everything; a member of the "Staff" group sees
everything read-only (the group has only view permissions); a coach (a staff user in the
"Coaches" group) sees and edits only the programs they coach. Another coach's object answers 404.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import models
from django.db.models import Count
from django.http import Http404, HttpRequest

from . import services
from .admin_forms import (
    CardioBlockForm,
    ExerciseForm,
    PositionedForm,
    SessionForm,
    SessionInlineForm,
    WeekForm,
)
from .models import CardioBlock, Exercise, Program, Session, SetResult, Week

COACHES_GROUP = "Coaches"
STAFF_GROUP = "Staff"
COACH_EDITABLE_MODELS = ("program", "week", "session", "cardioblock", "exercise")
COACH_VIEW_ONLY_MODELS = ("setresult",)


# --- groups -------------------------------------------------------------------------------------


def ensure_coach_group() -> Group:
    """Create or update the "Coaches" group: add/change/delete/view on the program models and
    view on logged sets (those are the athlete's)."""
    codenames = [
        f"{action}_{model}"
        for model in COACH_EDITABLE_MODELS
        for action in ("add", "change", "delete", "view")
    ] + [f"view_{model}" for model in COACH_VIEW_ONLY_MODELS]
    group, _ = Group.objects.get_or_create(name=COACHES_GROUP)
    group.permissions.set(
        Permission.objects.filter(content_type__app_label="programs", codename__in=codenames)
    )
    return group


def ensure_staff_group() -> Group:
    """Create or update the "Staff" group: view permission on every model of the programs app."""
    group, _ = Group.objects.get_or_create(name=STAFF_GROUP)
    group.permissions.set(
        Permission.objects.filter(content_type__app_label="programs", codename__startswith="view_")
    )
    return group


# --- who may do what ----------------------------------------------------------------------------


def _sees_everything(user: Any) -> bool:
    if user.is_superuser:
        return True
    if not hasattr(user, "_spotter_in_staff_group"):
        user._spotter_in_staff_group = user.groups.filter(name=STAFF_GROUP).exists()
    return user._spotter_in_staff_group


def _may_edit(user: Any, program: Program) -> bool:
    return user.is_superuser or (program.coach_id is not None and program.coach_id == user.pk)


def _may_view(user: Any, program: Program) -> bool:
    return _sees_everything(user) or _may_edit(user, program)


def _editable(queryset: models.QuerySet, user: Any, coach_lookup: str) -> models.QuerySet:
    """The rows of ``queryset`` whose program ``user`` may edit."""
    if user.is_superuser:
        return queryset
    return queryset.filter(**{coach_lookup: user})


# --- ordering a formset's rows ------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedRow:
    """One sibling as the admin submitted it: ``old`` is its position when the page was loaded
    (None for a new row), ``requested`` what the coach typed (None: keep it, or the end if new)."""

    key: Any
    old: int | None
    requested: int | None


def plan_order(rows: Sequence[PlacedRow]) -> list[Any]:
    """The keys of ``rows`` in their new order, positions 1..n.

    Rows the coach moved (a requested position different from the old one, or a new row with a
    position) take their requested slot, clamped to 1..n; ties and collisions go by (requested,
    old position) to the nearest free slot. New rows with no position go to the end in form order.
    The rows that did not move fill the remaining slots in their old order, so "move 1 to 3"
    gives 2, 3, 1 and swapping 1 and 3 gives 3, 2, 1."""
    at_end = [row for row in rows if row.old is None and row.requested is None]
    moved = [
        row
        for row in rows
        if row not in at_end and row.requested is not None and row.requested != row.old
    ]
    staying = [row for row in rows if row not in at_end and row not in moved]
    last = len(rows) - len(at_end)  # slots 1..last are for moved and staying rows
    slots: list[Any] = [None] * last
    moved.sort(key=lambda r: (r.requested, r.old if r.old is not None else math.inf))
    for row in moved:
        wanted = min(max(row.requested, 1), last) - 1
        free_after = [i for i in range(wanted, last) if slots[i] is None]
        index = free_after[0] if free_after else max(i for i in range(wanted) if slots[i] is None)
        slots[index] = row.key
    staying_iter = iter(sorted(staying, key=lambda r: r.old if r.old is not None else math.inf))
    for index in range(last):
        if slots[index] is None:
            slots[index] = next(staying_iter).key
    return slots + [row.key for row in at_end]


@dataclass(frozen=True)
class _Kind:
    """How to insert, remove, move and reorder one kind of positioned child."""

    parent_field: str
    insert: Callable[..., models.Model]
    remove: Callable[[models.Model], None]
    move: Callable[[models.Model, int], None]
    reorder: Callable[[models.Model, Iterable[int]], None]

    def siblings(self, model: type[models.Model], parent: models.Model) -> models.QuerySet:
        return model.objects.filter(**{self.parent_field: parent})


KINDS: dict[type[models.Model], _Kind] = {
    Week: _Kind(
        parent_field="program",
        insert=lambda parent, position, fields: services.week_insert(
            program=parent, position=position, **fields
        ),
        remove=lambda obj: services.week_remove(week=obj),
        move=lambda obj, position: services.week_move(week=obj, new_position=position),
        reorder=lambda parent, pks: services.weeks_reorder(program=parent, ordered_pks=pks),
    ),
    Session: _Kind(
        parent_field="week",
        insert=lambda parent, position, fields: services.session_insert(
            week=parent, position=position, **fields
        ),
        remove=lambda obj: services.session_remove(session=obj),
        move=lambda obj, position: services.session_move(session=obj, new_position=position),
        reorder=lambda parent, pks: services.sessions_reorder(week=parent, ordered_pks=pks),
    ),
    Exercise: _Kind(
        parent_field="session",
        insert=lambda parent, position, fields: services.exercise_insert(
            session=parent, position=position, **fields
        ),
        remove=lambda obj: services.exercise_remove(exercise=obj),
        move=lambda obj, position: services.exercise_move(exercise=obj, new_position=position),
        reorder=lambda parent, pks: services.exercises_reorder(session=parent, ordered_pks=pks),
    ),
}


def _plain_field_names(model: type[models.Model], *, skip: Iterable[str] = ()) -> set[str]:
    skipped = {"position", "version", *skip}
    return {
        f.name
        for f in model._meta.concrete_fields
        if not f.primary_key and f.editable and f.name not in skipped
    }


def _plain_values(obj: models.Model, *, skip: Iterable[str] = ()) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in _plain_field_names(type(obj), skip=skip)}


def _update_changed(obj: models.Model, changed: Iterable[str], *, skip: Iterable[str] = ()) -> None:
    names = _plain_field_names(type(obj), skip=skip)
    fields = {name: getattr(obj, name) for name in changed if name in names}
    if fields:
        services.object_update(obj=obj, fields=fields)


def _adopt(target: models.Model, saved: models.Model) -> None:
    """Make the form's instance the saved row (for the admin's change message and redirect)."""
    target.pk = saved.pk
    if hasattr(saved, "position"):
        target.position = saved.position
    target._state.adding = False
    target._state.db = saved._state.db


def save_positioned_formset(*, formset: Any, parent: models.Model) -> None:
    """Save an inline formset of weeks, sessions or exercises through the position services."""
    model = formset.model
    kind = KINDS[model]
    formset.save(commit=False)  # fills new/changed/deleted_objects; writes nothing
    for obj in formset.deleted_objects:
        fresh = model.objects.filter(pk=obj.pk).first()
        if fresh is not None:
            kind.remove(fresh)
    for obj, changed in formset.changed_objects:
        _update_changed(obj, changed, skip=[kind.parent_field])

    rows: list[PlacedRow] = []
    submitted_pks: set[int] = set()
    for form in formset.forms:
        if not hasattr(form, "cleaned_data") or form in formset.deleted_forms:
            continue
        requested = form.cleaned_data.get("position")
        if form.instance.pk is not None:
            old = form.initial.get("position", form.instance.position)
            submitted_pks.add(form.instance.pk)
            rows.append(PlacedRow(key=form.instance.pk, old=old, requested=requested))
        elif form.has_changed():
            fresh = kind.insert(
                parent,
                kind.siblings(model, parent).count() + 1,
                _plain_values(form.instance, skip=[kind.parent_field]),
            )
            _adopt(form.instance, fresh)
            rows.append(PlacedRow(key=fresh.pk, old=None, requested=requested))
    current = list(kind.siblings(model, parent).order_by("position").values_list("pk", "position"))
    # Rows another writer removed since the page was loaded are gone; rows they added keep their
    # place among the others.
    current_pks = {pk for pk, _ in current}
    rows = [row for row in rows if row.key in current_pks]
    rows.extend(
        PlacedRow(key=pk, old=position, requested=None)
        for pk, position in current
        if pk not in submitted_pks and pk not in {row.key for row in rows}
    )
    ordered = plan_order(rows)
    if ordered != [pk for pk, _ in current]:
        kind.reorder(parent, ordered)
        positions = {pk: index for index, pk in enumerate(ordered, start=1)}
        for form in formset.forms:
            if form.instance.pk in positions:
                form.instance.position = positions[form.instance.pk]


def save_cardio_formset(*, formset: Any, session: Session) -> None:
    """Save the (at most one) cardio block inline through ``services.cardio_set``."""
    formset.save(commit=False)
    for _obj in formset.deleted_objects:
        services.cardio_set(session=session, fields=None)
    for obj, changed in formset.changed_objects:
        _update_changed(obj, changed, skip=["session"])
    for obj in formset.new_objects:
        _adopt(
            obj, services.cardio_set(session=session, fields=_plain_values(obj, skip=["session"]))
        )


# --- shared admin behaviour ---------------------------------------------------------------------


class OwnedAdminMixin:
    """Scope an admin to the programs the user may see, refuse the rest with 404, and bump the
    program's version once per request that changed something."""

    coach_lookup: str = "coach"  # the path from this model to Program.coach

    def get_queryset(self, request: HttpRequest) -> models.QuerySet:
        queryset = super().get_queryset(request)
        if _sees_everything(request.user):
            return queryset
        return queryset.filter(**{self.coach_lookup: request.user})

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_view_permission(request, obj)
        return allowed and (obj is None or _may_view(request.user, obj.get_owner_object()))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or _may_edit(request.user, obj.get_owner_object()))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or _may_edit(request.user, obj.get_owner_object()))

    def _get_visible_or_404(self, request: HttpRequest, object_id: str) -> None:
        if self.get_object(request, unquote(object_id)) is None:
            raise Http404(f"No {self.opts.verbose_name} with id {object_id!r} that you may see.")

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
        if change:
            bump = form.has_changed() or any(formset.has_changed() for formset in formsets)
        else:
            bump = self.bumps_on_add
        if bump:
            services.program_bump_version(program=form.instance.get_owner_object())

    # Adding a week changes its program; adding a program changes nothing else.
    bumps_on_add = True

    @admin.display(description="Program version")
    def program_version(self, obj: Any) -> int | str:
        return obj.get_owner_object().version if obj and obj.pk else "-"


class InlinePermissionMixin:
    """An inline follows its parent: editable only when the parent's program is the user's."""

    def has_add_permission(self, request, obj=None):
        allowed = super().has_add_permission(request, obj)
        return allowed and (obj is None or _may_edit(request.user, obj.get_owner_object()))

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or _may_edit(request.user, obj.get_owner_object()))

    def has_delete_permission(self, request, obj=None):
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or _may_edit(request.user, obj.get_owner_object()))

    def has_view_permission(self, request, obj=None):
        allowed = super().has_view_permission(request, obj)
        return allowed and (obj is None or _may_view(request.user, obj.get_owner_object()))


class PositionedChildAdmin(OwnedAdminMixin, admin.ModelAdmin):
    """Admin of a week, session or exercise: the parent is chosen on add and fixed afterwards;
    the position is applied with the insert/move services."""

    parent_lookup_coach: str = ""  # from the parent model to Program.coach

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            fields.append(KINDS[self.model].parent_field)
        return fields

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == KINDS[self.model].parent_field:
            kwargs["queryset"] = _editable(
                db_field.related_model.objects.all(), request.user, self.parent_lookup_coach
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form: PositionedForm, change):
        kind = KINDS[self.model]
        services.program_lock(program_id=obj.get_owner_object().pk)
        siblings = kind.siblings(self.model, getattr(obj, kind.parent_field))
        requested = form.cleaned_data.get("position")
        if not change:
            count = siblings.count()
            position = min(requested or count + 1, count + 1)
            saved = kind.insert(
                getattr(obj, kind.parent_field),
                position,
                _plain_values(obj, skip=[kind.parent_field]),
            )
            _adopt(obj, saved)
            return
        _update_changed(obj, form.changed_data, skip=[kind.parent_field])
        if requested is not None and requested != form.initial.get("position"):
            fresh = self.model.objects.get(pk=obj.pk)
            kind.move(fresh, min(requested, siblings.count()))
            obj.position = fresh.position

    def delete_model(self, request, obj):
        program = obj.get_owner_object()
        services.program_lock(program_id=program.pk)
        KINDS[self.model].remove(self.model.objects.get(pk=obj.pk))
        services.program_bump_version(program=program)

    def delete_queryset(self, request, queryset):
        by_program: dict[int, list[int]] = {}
        for obj in queryset:
            by_program.setdefault(obj.get_owner_object().pk, []).append(obj.pk)
        for program_id in sorted(by_program):
            program = services.program_lock(program_id=program_id)
            for pk in by_program[program_id]:
                KINDS[self.model].remove(self.model.objects.get(pk=pk))
            services.program_bump_version(program=program)


# --- inlines ------------------------------------------------------------------------------------


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


# --- model admins -------------------------------------------------------------------------------


@admin.register(Program)
class ProgramAdmin(OwnedAdminMixin, admin.ModelAdmin):
    list_display = ("name", "athlete", "coach", "start_date", "version", "week_count")
    list_filter = (("coach", admin.RelatedOnlyFieldListFilter), "start_date")
    search_fields = ("name", "athlete__username")
    list_select_related = ("athlete", "coach")
    fields = ("name", "athlete", "coach", "start_date", "version", "created_at", "updated_at")
    readonly_fields = ("version", "created_at", "updated_at")
    inlines = (WeekInline,)
    bumps_on_add = False

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(week_count=Count("weeks"))

    @admin.display(description="Weeks", ordering="week_count")
    def week_count(self, obj: Program) -> int:
        return obj.week_count

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        users = get_user_model().objects.order_by("username")
        if db_field.name == "athlete":
            if not request.user.is_superuser:
                # A coach's roster: the athletes of the programs they coach.
                users = users.filter(programs__coach=request.user).distinct()
            kwargs["queryset"] = users
        elif db_field.name == "coach":
            if request.user.is_superuser:
                kwargs["queryset"] = users.filter(is_staff=True)
            else:
                kwargs["queryset"] = users.filter(pk=request.user.pk)
                kwargs["required"] = True
                kwargs["empty_label"] = None
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        initial.setdefault("coach", request.user.pk)
        return initial

    def save_model(self, request, obj, form, change):
        if not request.user.is_superuser:
            obj.coach = request.user
        if not change:
            saved = services.program_create(
                athlete=obj.athlete, name=obj.name, start_date=obj.start_date, coach=obj.coach
            )
            _adopt(obj, saved)
            return
        services.program_lock(program_id=obj.pk)
        changed = (
            [*form.changed_data, "coach"] if not request.user.is_superuser else form.changed_data
        )
        _update_changed(obj, changed)


@admin.register(Week)
class WeekAdmin(PositionedChildAdmin):
    form = WeekForm
    coach_lookup = "program__coach"
    parent_lookup_coach = "coach"
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
    coach_lookup = "week__program__coach"
    parent_lookup_coach = "program__coach"
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
    coach_lookup = "session__week__program__coach"
    parent_lookup_coach = "week__program__coach"
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
