"""Read-only admins for conversations (with their timeline), messages and batch decisions, and
the coach's post: on a conversation's timeline the athlete's own coach writes to the athlete
(``chat.services.coach_post``). Staff readers, other coaches and superusers who aren't the coach
see the timeline without the form, and a post from them is refused (403)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from .. import services
from ..access import is_read_only, may_post_as_coach
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
            path(
                "<path:object_id>/post/",
                self.admin_site.admin_view(require_POST(self.post_view)),
                name="chat_conversation_post",
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
            "may_post": may_post_as_coach(request.user, conversation),
            "read_only": is_read_only(conversation),
            "post_url": reverse("admin:chat_conversation_post", args=[conversation.pk]),
            "post_limit": services.MAX_MESSAGE_CHARS,
        }
        return TemplateResponse(request, "admin/chat/timeline.html", context)

    def post_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The coach's message to the athlete, posted into this conversation."""
        conversation = self.get_object_in_scope(request, object_id)
        if conversation is None:
            raise Http404("No such conversation.")
        if not may_post_as_coach(request.user, conversation):
            raise PermissionDenied(
                "Only the athlete's coach can post into this conversation, and only while it is "
                "about the athlete's current program."
            )
        back = HttpResponseRedirect(
            reverse("admin:chat_conversation_timeline", args=[conversation.pk])
        )
        try:
            services.coach_post(
                conversation=conversation, coach=request.user, text=request.POST.get("text", "")
            )
        except ValidationError as exc:
            self.message_user(
                request, " ".join(exc.messages) + " Nothing was posted.", messages.ERROR
            )
            return back
        self.message_user(request, "Posted: the athlete sees it as from you.", messages.SUCCESS)
        return back


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
