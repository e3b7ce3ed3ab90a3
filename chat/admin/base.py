"""What every chat admin shares: the access rule and read-only-ness, and small rendering helpers.

Who sees what is decided by the access policy (``access.policy``, through ``chat.access``), never
here: a superuser and the Staff group read every row, a coach (``is_staff``) the rows whose
conversation's program they can see, and a user who is not ``is_staff`` never gets past the admin
login. Nobody adds, changes or deletes a conversation, a message, a batch, a decision or an audit
record through the admin's forms: they are written only by the proposal lifecycle and the chat's
services. Deciding (approve, decline, undo) goes through ``chat.proposals`` from the batch page;
the coach's post to the athlete through ``chat.services.coach_post`` from the timeline.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from ..access import visible_conversation_filter


def may_use_admin(user: Any) -> bool:
    return bool(getattr(user, "is_active", False) and getattr(user, "is_staff", False))


def scoped(queryset: QuerySet, user: Any, *, conversation_path: str) -> QuerySet:
    """``queryset`` narrowed to the rows whose conversation (reached through
    ``conversation_path``, "" for a conversation itself) ``user`` may read."""
    prefix = f"{conversation_path}__" if conversation_path else ""
    scope = visible_conversation_filter(user, prefix=prefix)
    return queryset if scope is None else queryset.filter(scope)


class ScopedReadOnlyAdmin(admin.ModelAdmin):
    """A read-only admin whose rows are scoped by the conversation they belong to."""

    conversation_path = "conversation"

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_module_permission(self, request: HttpRequest) -> bool:
        return may_use_admin(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        if not may_use_admin(request.user):
            return False
        if obj is None:
            return True
        return self.scoped(request, type(obj)._default_manager.filter(pk=obj.pk)).exists()

    def scoped(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return scoped(queryset, request.user, conversation_path=self.conversation_path)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return self.scoped(request, super().get_queryset(request))

    def get_object_in_scope(self, request: HttpRequest, object_id: str) -> Any:
        """The object for a custom admin view, or None when it doesn't exist or isn't
        ``request.user``'s to read (the caller answers 404 either way)."""
        try:
            pk = int(object_id)
        except (TypeError, ValueError):
            return None
        return self.get_queryset(request).filter(pk=pk).first()


def pretty_json(value: Any) -> str:
    """JSON indented for a person, escaped, in a ``<pre>``."""
    if value is None or value == "":
        return "—"
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=str)
    return format_html('<pre class="spotter-json">{}</pre>', text)


def timeline_url(conversation_id: int) -> str:
    return reverse("admin:chat_conversation_timeline", args=[conversation_id])


def timeline_link(conversation_id: int | None) -> str:
    if conversation_id is None:
        return "—"
    return format_html(
        '<a href="{}">the conversation\'s timeline</a>', timeline_url(conversation_id)
    )
