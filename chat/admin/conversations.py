"""Read-only admins for conversations (with their timeline), messages and batch decisions."""

from __future__ import annotations

from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.html import format_html

from ..models import BatchDecision, Conversation, Message
from .base import ScopedReadOnlyAdmin, pretty_json, timeline_link
from .timeline import conversation_timeline


class MessageInline(admin.TabularInline):
    model = Message
    fields = ("created_at", "role", "status", "content", "tool_call_id", "is_error")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Conversation)
class ConversationAdmin(ScopedReadOnlyAdmin):
    conversation_path = ""
    list_display = ("id", "athlete", "program", "created_at", "updated_at", "timeline")
    list_select_related = ("athlete", "program")
    search_fields = ("athlete__username", "program__name")
    readonly_fields = ("athlete", "program", "created_at", "updated_at", "timeline")
    fields = readonly_fields
    inlines = [MessageInline]

    @admin.display(description="timeline")
    def timeline(self, obj: Conversation) -> str:
        return timeline_link(obj.pk)

    def get_urls(self):
        return [
            path(
                "<path:object_id>/timeline/",
                self.admin_site.admin_view(self.timeline_view),
                name="chat_conversation_timeline",
            ),
            *super().get_urls(),
        ]

    def timeline_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        conversation = self.get_object_in_scope(request, object_id)
        if conversation is None or not self.has_view_permission(request):
            raise Http404("No such conversation.")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Timeline of conversation {conversation.pk}",
            "conversation": conversation,
            "entries": conversation_timeline(conversation=conversation),
        }
        return TemplateResponse(request, "admin/chat/timeline.html", context)


@admin.register(Message)
class MessageAdmin(ScopedReadOnlyAdmin):
    list_display = (
        "id",
        "conversation",
        "role",
        "status",
        "short_content",
        "provider",
        "model",
        "prompt_tokens",
        "completion_tokens",
        "latency_ms",
        "created_at",
    )
    list_filter = ("role", "status", "provider")
    list_select_related = ("conversation__athlete",)
    search_fields = ("content",)
    exclude = ("reply_to", "batch", "decision")
    readonly_fields = ("conversation_timeline",)

    @admin.display(description="content")
    def short_content(self, obj: Message) -> str:
        return obj.content[:80]

    @admin.display(description="timeline")
    def conversation_timeline(self, obj: Message) -> str:
        return timeline_link(obj.conversation_id)


@admin.register(BatchDecision)
class BatchDecisionAdmin(ScopedReadOnlyAdmin):
    conversation_path = "batch__conversation"
    list_display = ("created_at", "kind", "batch", "actor", "athlete", "batch_revision")
    list_filter = ("kind",)
    list_select_related = ("actor", "batch__conversation__athlete")
    search_fields = ("batch__conversation__athlete__username", "actor__username", "note")
    date_hierarchy = "created_at"
    fields = (
        "created_at",
        "kind",
        "batch",
        "actor",
        "batch_revision",
        "note",
        "conversation_timeline",
        "calls_view",
        "proposed_view",
        "edits_view",
        "results_view",
        "program_revision",
        "change_set",
    )
    readonly_fields = fields

    @admin.display(description="athlete")
    def athlete(self, obj: BatchDecision) -> str:
        return obj.batch.conversation.athlete.username

    @admin.display(description="timeline")
    def conversation_timeline(self, obj: BatchDecision) -> str:
        return timeline_link(obj.batch.conversation_id)

    @admin.display(description="calls as they stood")
    def calls_view(self, obj: BatchDecision) -> str:
        return pretty_json(obj.calls)

    @admin.display(description="calls as proposed")
    def proposed_view(self, obj: BatchDecision) -> str:
        return pretty_json(obj.proposed)

    @admin.display(description="edits")
    def edits_view(self, obj: BatchDecision) -> str:
        return pretty_json(obj.edits) if obj.edits else format_html("{}", "none")

    @admin.display(description="results")
    def results_view(self, obj: BatchDecision) -> str:
        return pretty_json(obj.results)
