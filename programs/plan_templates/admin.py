"""Templates in the admin: a coach's own, listed with how many athletes use each and how many are
behind its newest version; a template's page links to its editor, its assignment and its
propagation page (``views``, ``propagate_views``). Templates are made from a program ("Save as
template" on the program's page), never added empty. Deleting one deletes its program (which is
nobody's plan); the athletes' programs made from it stay theirs."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, Max
from django.urls import path
from django.utils.html import format_html_join

from ..admin.mixins import OwnedAdminMixin
from ..models import ProgramTemplate
from . import propagate_views, views


@admin.register(ProgramTemplate)
class ProgramTemplateAdmin(OwnedAdminMixin, admin.ModelAdmin):
    program_lookup = "program"  # the policy scopes a template by its program (the coach's own)
    list_display = ("name", "coach", "athletes", "behind", "created_at")
    fields = ("name", "coach", "created_at", "used_by")
    readonly_fields = ("coach", "created_at", "used_by")
    search_fields = ("name",)

    def get_queryset(self, request):
        rows = super().get_queryset(request).select_related("coach")
        return rows.annotate(
            athletes=Count("assignments", distinct=True), newest=Max("versions__number")
        )

    @admin.display(description="Athletes")
    def athletes(self, obj: ProgramTemplate) -> int:
        return obj.athletes

    @admin.display(description="Behind the newest version")
    def behind(self, obj: ProgramTemplate) -> int:
        return obj.assignments.filter(version__number__lt=obj.newest or 0).count()

    @admin.display(description="Used by")
    def used_by(self, obj: ProgramTemplate):
        rows = obj.assignments.select_related("program__athlete", "version").order_by("pk")
        return (
            format_html_join(
                "",
                "<p>{} from {}: made from version {}, in step with version {}</p>",
                ((a.program.athlete, a.start_date, a.made_from, a.version.number) for a in rows),
            )
            or "Nobody yet."
        )

    def has_add_permission(self, request) -> bool:
        return False

    def get_deleted_objects(self, objs, request):
        """What a delete does, said plainly: the template with its program and versions, and
        who used it; the athletes' programs stay theirs."""
        lines = []
        for template in objs:
            lines.append(f"Template: {template.name} (its plan and versions)")
            lines += [
                f"The link to {a.program.athlete}'s program (the program stays theirs)"
                for a in template.assignments.select_related("program__athlete")
            ]
        return lines, {ProgramTemplate._meta.verbose_name_plural: len(objs)}, set(), []

    def delete_model(self, request, obj: ProgramTemplate) -> None:
        obj.program.delete()  # the template goes with it

    def delete_queryset(self, request, queryset) -> None:
        for template in queryset.select_related("program"):
            template.program.delete()

    def get_urls(self):
        def bound(view):
            return self.admin_site.admin_view(
                lambda request, object_id, **kw: view(request, self, object_id, **kw)
            )

        name = "programs_programtemplate_{}".format
        return [
            path("<path:object_id>/editor/", bound(views.editor), name=name("editor")),
            path(
                "<path:object_id>/editor/preview/",
                bound(views.editor_preview),
                name=name("editor_preview"),
            ),
            path(
                "<path:object_id>/editor/apply/",
                bound(views.editor_apply),
                name=name("editor_apply"),
            ),
            path("<path:object_id>/assign/", bound(views.assign_view), name=name("assign")),
            path(
                "<path:object_id>/propagation/",
                bound(propagate_views.propagation),
                name=name("propagation"),
            ),
            path(
                "<path:object_id>/propagation/<int:assignment_id>/dry-run/",
                bound(propagate_views.dry_run),
                name=name("dry_run"),
            ),
            path(
                "<path:object_id>/propagation/apply/",
                bound(propagate_views.propagate),
                name=name("propagate"),
            ),
            *super().get_urls(),
        ]
