"""The conversation between an athlete and the coach, and the batch of changes waiting for a click.

A ``Conversation`` belongs to one athlete and one program (the program it is about). An athlete
has many: they start a new one whenever they like, and the older ones stay readable. Only the
conversations about the athlete's current program (their newest) take new messages and decisions;
the others are read-only (``chat.access``). Its ``Message``s are append-only:

* ``user``: what the athlete typed.
* ``assistant``: the coach's reply. It is created as a placeholder (``pending``) when the athlete
  sends a message and filled in by the Celery worker (``coach.agent.run_turn``).
* ``tool``: the answer to one tool call of an assistant message, sent back to the model, hidden in
  the UI.
* ``coach``: what the athlete's coach (the human, ``author``) posted from the admin. The athlete
  sees it marked as from their coach; the model reads it as the coach's words, quoted as data in a
  Spotter-written block (``chat.notes.coach_note``), never as instructions.
* ``event``: a decision on a batch (applied, cancelled, edited, undone, expired...), shown in the UI
  as a small centred line. Its ``decision`` is the structured record; what the model reads is
  rendered from that record (``chat.notes``), never from the displayed text.

A ``PendingToolBatch`` is the queue of write calls the model proposed (seed 000, "Confirmation Flow
Notes"). At most one batch per conversation is open (pending, failed, stale or awaiting the coach's
review) at a time; only ``chat.proposals`` writes batches, and only the athlete's click on Apply
Changes (or a coach's approval of it) runs one.

A ``BatchDecision`` is one decision on a batch, written with the change (who, when, the calls as
they stood, their results, the edits). A ``ToolCallRecord`` is the audit log staff read: one row per
tool call a model made, with every status transition.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Conversation(models.Model):
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    # The plan the conversation is about: a swappable model, as AUTH_USER_MODEL is for the
    # athlete (``settings.SPOTTER_PLAN_MODEL``; what chat needs of it comes from ``coach.plan``).
    program = models.ForeignKey(
        settings.SPOTTER_PLAN_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(
        max_length=80,
        blank=True,
        help_text="From the first message (the athlete's or their coach's), cut to 80 characters.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-pk"]
        indexes = [models.Index(fields=["athlete", "-updated_at"], name="conversation_recent_idx")]

    def __str__(self) -> str:
        return f"Conversation {self.pk} ({self.athlete})"

    def get_owner_object(self):
        return self.program


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user", "Athlete"
        ASSISTANT = "assistant", "Coach"
        TOOL = "tool", "Tool result"
        EVENT = "event", "Event"
        COACH = "coach", "Athlete's coach (a person)"

    class Status(models.TextChoices):
        PENDING = "pending", "Coach is thinking"
        RUNNING = "running", "Running"
        COMPLETE = "complete", "Complete"
        FAILED = "failed", "Failed"

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    content = models.TextField(
        blank=True,
        help_text="Display text; for assistant messages the suggested replies are stripped off.",
    )
    llm_content = models.TextField(
        blank=True,
        help_text="What the model sees for this message when it differs from the display text "
        "(the model's raw reply; an event's full results).",
    )
    tool_calls = models.JSONField(
        default=list, blank=True, help_text="ToolCall.to_dict() of each call the model made."
    )
    tool_call_extras = models.JSONField(
        default=dict,
        blank=True,
        help_text="Provider-specific fields of the tool calls, keyed by call id, echoed back.",
    )
    steps = models.JSONField(
        default=list,
        blank=True,
        help_text="The read-tool rounds before the final reply: "
        '[{"text", "tool_calls", "tool_call_extras", "results": [{"tool_call_id", "content", "is_error"}]}].',
    )
    tool_families = models.JSONField(
        default=list,
        blank=True,
        help_text="For a reply: the tool families loaded for its model calls besides the program "
        "tools (asked for with use_tools or by calling one of their tools, or still in use); "
        "chat.toolsets.",
    )
    decision = models.ForeignKey(
        "BatchDecision",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        help_text="For an event: the decision it reports (the model's text is rendered from it).",
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="For a coach message: the coach who wrote it.",
    )
    tool_call_id = models.CharField(max_length=200, blank=True)
    is_error = models.BooleanField(default=False)
    suggested_replies = models.JSONField(default=list, blank=True)
    provider = models.CharField(max_length=50, blank=True)
    model = models.CharField(max_length=200, blank=True)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.COMPLETE)
    error_code = models.CharField(
        max_length=50,
        blank=True,
        help_text="Why the reply failed (an LLMError kind, timeout, ...).",
    )
    reply_to = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="replies",
        help_text="The user or event message this assistant message answers.",
    )
    batch = models.ForeignKey(
        "PendingToolBatch",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="messages",
        help_text="The batch this message's proposals joined, or the batch an event reports on.",
    )
    attempt = models.PositiveSmallIntegerField(
        default=1,
        help_text="For a reply: which run of the agent is current. A task names its run; only "
        "the current one may claim and save the reply (chat.recovery re-queues with a new run).",
    )
    recoveries = models.PositiveSmallIntegerField(
        default=0, help_text="For a reply: times the sweep re-queued it (once at most)."
    )
    queued_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="For a reply: when its current run was handed to the broker; empty while the "
        "broker couldn't take it (the sweep sends it when the broker is back).",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    idempotency_key = models.UUIDField(
        null=True,
        blank=True,
        editable=False,
        help_text="For the athlete's message: the key the page sent it with (one per message it "
        "composed, kept when it sends the same text again). A second post with the key gets this "
        "message and its reply back instead of a copy (chat.services.message_send). Empty for "
        "messages sent without one.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            # What makes a re-sent post one message even when two web processes take it at once.
            models.UniqueConstraint(
                fields=["conversation", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="message_one_per_idempotency_key",
            )
        ]
        indexes = [
            models.Index(fields=["conversation", "created_at"]),
            # The recovery sweep reads the replies still waiting; they are few.
            models.Index(
                fields=["status"],
                condition=Q(status__in=["pending", "running"]),
                name="message_waiting_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()}: {self.content[:50]}"

    @property
    def is_visible(self) -> bool:
        """Shown in the chat: the athlete's and their coach's messages, events, and the model's replies once they
        are complete or failed and have something to say."""
        if self.role in (self.Role.USER, self.Role.EVENT, self.Role.COACH):
            return True
        if self.role == self.Role.ASSISTANT:
            return self.status in (self.Status.COMPLETE, self.Status.FAILED) and bool(self.content)
        return False

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.COMPLETE, self.Status.FAILED)

    def get_owner_object(self):
        return self.conversation.program


class PendingToolBatch(models.Model):
    class BatchStatus(models.TextChoices):
        PENDING = "pending", "Waiting for the athlete"
        AWAITING_REVIEW = "awaiting_review", "Waiting for the coach's review (still open)"
        APPLIED = "applied", "Applied"
        CANCELLED = "cancelled", "Cancelled"
        FAILED = "failed", "Apply failed (still open)"
        STALE = "stale", "Program changed; re-previewed (still open)"
        EXPIRED = "expired", "Expired"
        DECLINED = "declined", "Declined by the coach"
        UNDONE = "undone", "Applied, then undone"

    OPEN_STATUSES = (
        BatchStatus.PENDING,
        BatchStatus.FAILED,
        BatchStatus.STALE,
        BatchStatus.AWAITING_REVIEW,
    )

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="batches")
    status = models.CharField(
        max_length=20, choices=BatchStatus.choices, default=BatchStatus.PENDING
    )
    calls = models.JSONField(default=list, help_text="ToolCall dicts, in the order they will run.")
    revision = models.PositiveIntegerField(
        default=1,
        help_text="Increases whenever the batch changes (calls added, edited, re-previewed); an "
        "Apply click names the revision the athlete saw.",
    )
    preview = models.JSONField(default=dict, blank=True, help_text="The engine's preview dict.")
    program_version = models.PositiveIntegerField(help_text="The program version previewed on.")
    results = models.JSONField(
        default=list, blank=True, help_text="CallResult dicts of the last preview or apply."
    )
    error_message = models.TextField(
        blank=True, help_text="Which call failed and why, written for the athlete."
    )
    needs_review = models.BooleanField(
        default=False,
        help_text="The athlete clicked Apply, and a high or critical change waits for the coach.",
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(
        null=True, blank=True, help_text="An open batch expires then (PROPOSAL_TTL_DAYS)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = "pending tool batch"
        verbose_name_plural = "pending tool batches"
        constraints = [
            models.UniqueConstraint(
                fields=["conversation"],
                condition=Q(status__in=["pending", "failed", "stale", "awaiting_review"]),
                name="batch_one_open_per_conversation",
            ),
            models.CheckConstraint(condition=Q(revision__gte=1), name="batch_revision_gte_1"),
            models.CheckConstraint(
                condition=Q(
                    status__in=[
                        "pending",
                        "awaiting_review",
                        "applied",
                        "cancelled",
                        "failed",
                        "stale",
                        "expired",
                        "declined",
                        "undone",
                    ]
                ),
                name="batch_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Batch {self.pk} ({self.status}, {len(self.calls)} calls)"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES

    def get_owner_object(self):
        return self.conversation.program


class DecisionKind(models.TextChoices):
    """What was decided about a batch (``BatchDecision.kind``)."""

    APPLIED = "applied", "Applied"
    CANCELLED = "cancelled", "Cancelled"
    FAILED = "failed", "Apply failed"
    STALE = "stale", "Stale (re-previewed)"
    EXPIRED = "expired", "Expired"
    EDITED = "edited", "Edited"
    REMOVED = "removed", "Item removed"
    REVIEW_REQUESTED = "review_requested", "Sent to the coach for review"
    APPROVED = "approved", "Approved by the coach"
    DECLINED = "declined", "Declined by the coach"
    UNDONE = "undone", "Undone"
    # A low or high wellness log the athlete stated in their own words, written at once when the
    # guardrails passed (seed 004); it shows Undo in the chat like an applied batch.
    AUTO_APPLIED = "auto_applied", "Applied at once (stated by the athlete)"


class BatchDecision(models.Model):
    """One decision on a batch, stored as data (zulip's RealmAuditLog shape): what happened, who
    did it, when, the calls as they stood, their results and the edits. The note the model reads
    and the line the athlete sees are both rendered from this row (``chat.notes``)."""

    Kind = DecisionKind

    batch = models.ForeignKey(PendingToolBatch, on_delete=models.CASCADE, related_name="decisions")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who decided (empty for the system: expiry).",
    )
    batch_revision = models.PositiveIntegerField()
    calls = models.JSONField(default=list, help_text="The calls as they stood (ToolCall dicts).")
    proposed = models.JSONField(
        default=list, help_text="The calls as the model proposed them, before any edit."
    )
    results = models.JSONField(default=list, blank=True, help_text="CallResult dicts.")
    edits = models.JSONField(
        default=list,
        blank=True,
        help_text='[{"call_id", "name", "field", "before", "after"}] or [{"call_id", "name", '
        '"removed": true}].',
    )
    note = models.TextField(blank=True, help_text="The coach's note, or why it failed.")
    change_set = models.ForeignKey(
        "journal.ChangeSet",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The journal's change set that applied the batch (applied, approved, written "
        "at once: every write, the program's revision among its parts), or the one an undo put "
        "back.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=DecisionKind.values),
                name="decision_kind_valid",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} (batch {self.batch_id})"

    def get_owner_object(self):
        return self.batch.conversation.program
