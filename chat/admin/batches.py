"""Batches in the admin, read-only, with the coach's decisions on them: Approve or Decline a batch
waiting for review (with a note), and Undo an applied one. Every decision goes through
``chat.proposals``; the admin only authorises, calls and reports the ``Decision``'s outcome.
Staff see every batch and decide none; a coach decides only for the programs they coach."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_POST

from .. import proposals
from ..access import may_review
from ..cards import card_items
from ..models import PendingToolBatch
from ..templatetags.chat_tags import humanize_field, show_value
from .base import ScopedReadOnlyAdmin, timeline_link

Status = PendingToolBatch.BatchStatus
NOTE_LIMIT = 2000

_OUTCOME_MESSAGES = {
    "approved": (messages.SUCCESS, "Approved: the changes were applied and the athlete is told."),
    "declined": (messages.SUCCESS, "Declined: nothing was changed and the athlete is told."),
    "undone": (messages.SUCCESS, "Undone: the program is back to how it was before the batch."),
    "already_decided": (messages.WARNING, "This batch was already decided; nothing was done."),
    "stale": (
        messages.WARNING,
        "The program changed since the athlete previewed these changes, so nothing was applied. "
        "The batch was re-previewed and goes back to the athlete.",
    ),
}


def _detail_text(detail: dict) -> str:
    """One change of a call as the card reads it: "Working sets: 3 → 4; Reps: 8 → 5"."""
    if detail.get("fields"):
        return "; ".join(
            f"{humanize_field(f.get('field'))}: {show_value(f.get('oldValue'))} → "
            f"{show_value(f.get('newValue'))}"
            for f in detail["fields"]
        )
    before, after = detail.get("before"), detail.get("after")
    if detail.get("type") == "add" and after:
        return str(after)
    if detail.get("type") == "remove" and before:
        return str(before)
    if before or after:
        return f"{show_value(before)} → {show_value(after)}"
    return ""


def changes_html(batch: PendingToolBatch) -> str:
    """The batch's changes in words, escaped (``format_html``), as an ordered list."""
    items = card_items(batch)
    if not items:
        return format_html("{}", "—")
    rows = []
    for item in items:
        details = format_html_join(
            "",
            "<li>{} {}{}</li>",
            (
                (d["kind_label"], d.get("target", ""), f": {text}" if text else "")
                for d in item["details"]
                for text in [_detail_text(d)]
            ),
        )
        problem = (
            format_html('<p class="errornote">Can\'t be applied: {}</p>', item["problem"])
            if not item["ok"]
            else ""
        )
        rows.append(
            format_html(
                "<li><strong>{}</strong><ul>{}</ul>{}</li>", item["label"], details, problem
            )
        )
    return format_html(
        '<ol class="spotter-changes">{}</ol>', format_html_join("", "{}", ((r,) for r in rows))
    )


class AwaitingReviewFilter(admin.SimpleListFilter):
    """The review queue: batches waiting for the coach's decision."""

    title = "review"
    parameter_name = "review"

    def lookups(self, request, model_admin):
        return (("pending", "Pending reviews"),)

    def queryset(self, request, queryset):
        if self.value() == "pending":
            return queryset.filter(status=Status.AWAITING_REVIEW)
        return queryset


@admin.register(PendingToolBatch)
class PendingToolBatchAdmin(ScopedReadOnlyAdmin):
    list_display = (
        "id",
        "athlete",
        "status",
        "call_count",
        "revision",
        "program_version",
        "decided_by",
        "decided_at",
        "created_at",
    )
    list_filter = (AwaitingReviewFilter, "status", "needs_review")
    list_select_related = ("conversation__athlete", "decided_by")
    search_fields = ("conversation__athlete__username",)
    date_hierarchy = "created_at"
    fields = (
        "conversation",
        "conversation_timeline",
        "status",
        "needs_review",
        "revision",
        "program_version",
        "error_message",
        "decided_by",
        "decided_at",
        "expires_at",
        "created_at",
        "changes_view",
    )
    readonly_fields = fields

    @admin.display(description="athlete", ordering="conversation__athlete__username")
    def athlete(self, obj: PendingToolBatch) -> str:
        return obj.conversation.athlete.username

    @admin.display(description="calls")
    def call_count(self, obj: PendingToolBatch) -> int:
        return len(obj.calls)

    @admin.display(description="timeline")
    def conversation_timeline(self, obj: PendingToolBatch) -> str:
        return timeline_link(obj.conversation_id)

    @admin.display(description="changes, in order")
    def changes_view(self, obj: PendingToolBatch) -> str:
        """What the athlete's card shows, in words: each change, before → after, and why one
        can't be applied (the calls' arguments are in the audit log)."""
        return changes_html(obj)

    # --- the coach's decisions -------------------------------------------------------------------

    def change_view(self, request, object_id, form_url="", extra_context=None):
        batch = self.get_object_in_scope(request, object_id)
        extra_context = dict(extra_context or {})
        if batch is not None:
            decides = may_review(request.user, batch.conversation)
            extra_context.update(
                may_decide=decides and batch.status == Status.AWAITING_REVIEW,
                may_undo=decides and batch.status == Status.APPLIED,
                review_url=reverse("admin:chat_pendingtoolbatch_review", args=[batch.pk]),
                undo_url=reverse("admin:chat_pendingtoolbatch_undo", args=[batch.pk]),
                note_limit=NOTE_LIMIT,
            )
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        return [
            path(
                "<path:object_id>/review/",
                self.admin_site.admin_view(require_POST(self.review_view)),
                name="chat_pendingtoolbatch_review",
            ),
            path(
                "<path:object_id>/undo/",
                self.admin_site.admin_view(require_POST(self.undo_view)),
                name="chat_pendingtoolbatch_undo",
            ),
            *super().get_urls(),
        ]

    def _batch_to_decide(self, request: HttpRequest, object_id: str) -> PendingToolBatch:
        batch = self.get_object_in_scope(request, object_id)
        if batch is None:
            raise Http404("No such batch.")
        if not may_review(request.user, batch.conversation):
            raise PermissionDenied("Only the athlete's coach can decide on these changes.")
        return batch

    def _back(self, batch: PendingToolBatch) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("admin:chat_pendingtoolbatch_change", args=[batch.pk]))

    def _report(self, request: HttpRequest, decision: proposals.Decision) -> None:
        level, text = _OUTCOME_MESSAGES.get(decision.outcome, (messages.ERROR, ""))
        if decision.outcome == "failed":
            text = decision.batch.error_message or "Applying the changes failed."
        elif decision.outcome == "undo_refused":
            text = f"Undo refused: {decision.message}"
        elif decision.outcome == "already_decided" and decision.message:
            text = f"These changes expired instead: {decision.message}"
        self.message_user(request, text or f"Outcome: {decision.outcome}.", level)

    def review_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        batch = self._batch_to_decide(request, object_id)
        action = request.POST.get("action", "")
        note = request.POST.get("note", "")
        if action not in ("approve", "decline"):
            self.message_user(request, "Choose Approve or Decline.", messages.ERROR)
            return self._back(batch)
        if len(note) > NOTE_LIMIT:
            self.message_user(
                request,
                f"The note can be at most {NOTE_LIMIT} characters (it has {len(note)}); "
                "nothing was decided.",
                messages.ERROR,
            )
            return self._back(batch)
        decide = proposals.approve if action == "approve" else proposals.decline
        decision = decide(batch_id=batch.pk, coach=request.user, note=note)
        self._report(request, decision)
        return self._back(batch)

    def undo_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        batch = self._batch_to_decide(request, object_id)
        decision = proposals.undo(batch_id=batch.pk, user=request.user)
        self._report(request, decision)
        return self._back(batch)
