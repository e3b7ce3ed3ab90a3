"""The tool-call audit log staff read: every tool call a model made, read-only, with filters,
facets, search over the arguments' text, a streaming CSV export of the filtered list, and from any
call its conversation's timeline."""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import smart_split, unescape_string_literal

from ..models import ToolCallRecord
from ..models.audit import MANY_CALLS_PER_TURN
from .base import ScopedReadOnlyAdmin, pretty_json, timeline_link
from .csv_export import csv_rows, stream_csv


class ManyCallsFilter(admin.SimpleListFilter):
    title = f"More than {MANY_CALLS_PER_TURN} calls in one turn"
    parameter_name = "many_calls"

    def lookups(self, request, model_admin):
        return (("yes", "Yes"), ("no", "No"))

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(many_calls=True)
        if self.value() == "no":
            return queryset.filter(many_calls=False)
        return queryset


def argument_text_filter(term: str) -> Q:
    """Records whose arguments (as proposed or applied, or the model's raw text) contain ``term``.

    JSON is compared as text: ``Cast(json, TextField())`` works on SQLite and PostgreSQL alike.
    SQLite stores the JSON Django wrote, with non-ASCII characters as ``\\uXXXX`` escapes, so the
    escaped spelling of the term is tried too."""
    spellings = {term, json.dumps(term)[1:-1]}
    query = Q(raw_arguments__icontains=term)
    for spelling in spellings:
        query |= Q(_arguments_text__icontains=spelling) | Q(_applied_text__icontains=spelling)
    return query


@admin.register(ToolCallRecord)
class ToolCallRecordAdmin(ScopedReadOnlyAdmin):
    list_display = (
        "when",
        "athlete",
        "tool",
        "kind",
        "status",
        "provider",
        "model",
        "tokens",
        "model_latency",
        "apply_latency",
        "many_calls",
    )
    list_display_links = ("when", "tool")
    list_filter = (
        "status",
        "guardrail",
        "tool",
        "kind",
        "provider",
        "model",
        ("athlete", admin.RelatedOnlyFieldListFilter),
        ManyCallsFilter,
    )
    list_select_related = ("athlete",)
    date_hierarchy = "created_at"
    show_facets = admin.ShowFacets.ALWAYS
    search_fields = ("athlete__username", "tool", "arguments")
    search_help_text = "Search by athlete username, tool name or the text of the arguments."
    list_per_page = 50
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "created_at",
                    "athlete",
                    "program",
                    "conversation_timeline",
                    "batch",
                    "tool",
                    "call_id",
                    "kind",
                    "category",
                    "sensitivity",
                    "status",
                    "decided_by",
                )
            },
        ),
        (
            "Arguments",
            {"fields": ("arguments_proposed", "arguments_applied", "raw_arguments")},
        ),
        ("Transitions", {"fields": ("transition_table",)}),
        ("Result", {"fields": ("result_view",)}),
        (
            "Model",
            {
                "fields": (
                    "provider",
                    "model",
                    "prompt_tokens",
                    "completion_tokens",
                    "model_latency_ms",
                    "apply_latency_ms",
                    "turn_call_count",
                    "many_calls",
                )
            },
        ),
    )
    readonly_fields = (
        "created_at",
        "athlete",
        "program",
        "conversation_timeline",
        "batch",
        "tool",
        "call_id",
        "kind",
        "category",
        "sensitivity",
        "status",
        "decided_by",
        "arguments_proposed",
        "arguments_applied",
        "raw_arguments",
        "transition_table",
        "result_view",
        "provider",
        "model",
        "prompt_tokens",
        "completion_tokens",
        "model_latency_ms",
        "apply_latency_ms",
        "turn_call_count",
        "many_calls",
    )

    # --- columns ---------------------------------------------------------------------------------

    @admin.display(description="when", ordering="created_at")
    def when(self, obj: ToolCallRecord):
        return obj.created_at

    @admin.display(description="tokens")
    def tokens(self, obj: ToolCallRecord) -> str:
        if obj.prompt_tokens is None and obj.completion_tokens is None:
            return "—"
        return f"{obj.prompt_tokens or 0} + {obj.completion_tokens or 0}"

    @admin.display(description="model latency", ordering="model_latency_ms")
    def model_latency(self, obj: ToolCallRecord) -> str:
        return "—" if obj.model_latency_ms is None else f"{obj.model_latency_ms} ms"

    @admin.display(description="apply latency", ordering="apply_latency_ms")
    def apply_latency(self, obj: ToolCallRecord) -> str:
        return "—" if obj.apply_latency_ms is None else f"{obj.apply_latency_ms} ms"

    # --- the detail page -------------------------------------------------------------------------

    @admin.display(description="conversation")
    def conversation_timeline(self, obj: ToolCallRecord) -> str:
        return timeline_link(obj.conversation_id)

    @admin.display(description="arguments as proposed")
    def arguments_proposed(self, obj: ToolCallRecord) -> str:
        return pretty_json(obj.arguments)

    @admin.display(description="arguments as applied")
    def arguments_applied(self, obj: ToolCallRecord) -> str:
        if obj.applied_arguments is None:
            return "— (not applied)"
        return pretty_json(obj.applied_arguments)

    @admin.display(description="every transition")
    def transition_table(self, obj: ToolCallRecord) -> str:
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (t.get("status", ""), t.get("at", ""), t.get("by") or "the system")
                for t in obj.transitions
            ),
        )
        return format_html(
            "<table><thead><tr><th>status</th><th>at</th><th>by</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            rows,
        )

    @admin.display(description="result or errors")
    def result_view(self, obj: ToolCallRecord) -> str:
        return pretty_json(obj.result)

    # --- search ----------------------------------------------------------------------------------

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet, search_term: str
    ) -> tuple[QuerySet, bool]:
        """Every word must match the athlete's username, the tool or the arguments' text."""
        terms = []
        for bit in smart_split(search_term):
            if bit.startswith(('"', "'")) and bit[0] == bit[-1]:
                bit = unescape_string_literal(bit)
            if bit:
                terms.append(bit)
        if not terms:
            return queryset, False
        queryset = queryset.alias(
            _arguments_text=Cast("arguments", TextField()),
            _applied_text=Cast("applied_arguments", TextField()),
        )
        for term in terms:
            queryset = queryset.filter(
                Q(athlete__username__icontains=term)
                | Q(tool__icontains=term)
                | argument_text_filter(term)
            )
        return queryset, False

    # --- the CSV export --------------------------------------------------------------------------

    def get_urls(self):
        return [
            path(
                "export.csv",
                self.admin_site.admin_view(self.export_csv),
                name="chat_toolcallrecord_export",
            ),
            *super().get_urls(),
        ]

    def export_csv(self, request: HttpRequest) -> HttpResponse:
        """The changelist as it is filtered, searched and ordered, streamed as CSV."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            changelist = self.get_changelist_instance(request)
        except IncorrectLookupParameters:
            self.message_user(
                request,
                "The export's filters are not valid; pick them again from the list.",
                messages.ERROR,
            )
            return redirect(reverse("admin:chat_toolcallrecord_changelist"))
        queryset = changelist.get_queryset(request)
        stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
        return stream_csv(csv_rows(queryset), filename=f"tool-call-audit-log-{stamp}.csv")
