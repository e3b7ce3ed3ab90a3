"""Revisions in the admin, read-only: the list of every recorded change a user may see (filters
by how it was made, search by program and summary) and one page per revision with its readable
diff. Undo and restore live on the program's History page."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from ..history import revision_lines
from ..models import ProgramRevision
from .mixins import OwnedAdminMixin


@admin.register(ProgramRevision)
class ProgramRevisionAdmin(OwnedAdminMixin, admin.ModelAdmin):
    program_lookup = "program"
    list_display = ("__str__", "program", "number", "created_at", "actor", "via", "summary")
    list_filter = ("via", "created_at")
    search_fields = ("program__name", "summary", "actor__username")
    list_select_related = ("program", "actor")
    date_hierarchy = "created_at"
    fields = (
        "program",
        "number",
        "created_at",
        "actor",
        "via",
        "source",
        "summary",
        "program_version",
        "undoes",
        "readable_changes",
        "program_history",
    )
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Changes")
    def readable_changes(self, obj: ProgramRevision) -> str:
        return format_html(
            "<ul>{}</ul>",
            format_html_join("", "<li>{}</li>", ((line,) for line in revision_lines(obj))),
        )

    @admin.display(description="History")
    def program_history(self, obj: ProgramRevision) -> str:
        url = reverse("admin:programs_program_history", args=[obj.program_id])
        return format_html('<a href="{}">All changes of this program (undo, restore)</a>', url)
