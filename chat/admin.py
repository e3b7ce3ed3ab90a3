"""A read-only view of conversations, messages and batches, for staff reviewing what the coach
said and proposed. Nobody edits them here: messages are append-only and batches are decided only
by the athlete's click. A superuser sees every conversation; other staff (coaches) see only the
conversations about programs they coach."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import Conversation, Message, PendingToolBatch


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        user = request.user
        if not (user.is_active and user.is_staff):
            return False
        if obj is None or user.is_superuser:
            return True
        return obj.get_owner_object().coach_id == user.pk

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    program_path = "program"

    def get_queryset(self, request: HttpRequest):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.program_path}__coach": request.user})


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


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyAdmin):
    list_display = ("id", "athlete", "program", "created_at", "updated_at")
    list_select_related = ("athlete", "program")
    search_fields = ("athlete__username", "program__name")
    inlines = [MessageInline]


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    program_path = "conversation__program"
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

    @admin.display(description="content")
    def short_content(self, obj: Message) -> str:
        return obj.content[:80]


@admin.register(PendingToolBatch)
class PendingToolBatchAdmin(ReadOnlyAdmin):
    program_path = "conversation__program"
    list_display = (
        "id",
        "conversation",
        "status",
        "revision",
        "program_version",
        "decided_by",
        "decided_at",
        "created_at",
    )
    list_filter = ("status",)
    list_select_related = ("conversation__athlete", "decided_by")
