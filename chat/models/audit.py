"""The tool-call audit log: one row per tool call a model made, reads and writes alike.

Rows are written only by the conversation layer's lifecycle code (``chat.agent`` for reads and
proposals, ``chat.proposals`` for every later transition), in the same transaction as the change,
so the log can't disagree with the data. ``transitions`` keeps every status with its time and who
caused it; ``status`` is the latest.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .conversation import Conversation, Message, PendingToolBatch

MANY_CALLS_PER_TURN = 5  # seed 003's monitoring rule: more than this in one turn is flagged


class ToolCallStatus(models.TextChoices):
    """Where a tool call stands; ``ToolCallRecord.transitions`` keeps every step."""

    PROPOSED = "proposed", "Proposed (waiting for Apply)"
    REFUSED = "refused", "Refused at proposal (invalid)"
    AWAITING_REVIEW = "awaiting_review", "Waiting for the coach"
    APPLIED = "applied", "Applied"
    CANCELLED = "cancelled", "Cancelled"
    FAILED = "failed", "Apply failed"
    STALE = "stale", "Stale"
    EXPIRED = "expired", "Expired"
    DECLINED = "declined", "Declined by the coach"
    REMOVED = "removed", "Removed from the batch by the athlete"
    UNDONE = "undone", "Undone"
    EXECUTED = "executed", "Read: executed"
    READ_FAILED = "read_failed", "Read: failed"


class GuardrailReason(models.TextChoices):
    """Why a guardrail refused a call (``coach.guardrails.Reason``), stored as data."""

    LOW_CONFIDENCE = "low_confidence", "Confidence below the threshold"
    NOT_STATED = "not_stated", "Not stated by the athlete"
    CRISIS_ONLY = "crisis_only", "Crisis: only the mood is logged"


class ToolCallRecord(models.Model):
    Status = ToolCallStatus
    Guardrail = GuardrailReason

    class Kind(models.TextChoices):
        READ = "read", "Read"
        WRITE = "write", "Write"

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="tool_call_records"
    )
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tool_call_records"
    )
    program = models.ForeignKey(
        settings.SPOTTER_PLAN_MODEL,  # the conversation's plan, as Conversation.program
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tool_call_records",
    )
    batch = models.ForeignKey(
        PendingToolBatch,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tool_call_records",
    )
    message = models.ForeignKey(
        Message,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tool_call_records",
        help_text="The coach reply that made the call.",
    )
    tool = models.CharField(max_length=100, db_index=True)
    call_id = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    category = models.CharField(max_length=50, blank=True)
    sensitivity = models.CharField(max_length=20, blank=True)
    arguments = models.JSONField(default=dict, blank=True, help_text="As the model proposed them.")
    raw_arguments = models.TextField(
        blank=True, help_text="The model's text when its arguments were not valid JSON."
    )
    applied_arguments = models.JSONField(
        null=True, blank=True, help_text="As applied, after the athlete's edits."
    )
    status = models.CharField(max_length=20, choices=Status.choices, db_index=True)
    transitions = models.JSONField(
        default=list, help_text='[{"status", "at", "by"}] in order, the first one "proposed".'
    )
    result = models.JSONField(
        default=dict, blank=True, help_text="The last CallResult dict: summary or errors."
    )
    guardrail = models.CharField(
        max_length=20,
        choices=GuardrailReason.choices,
        blank=True,
        db_index=True,
        help_text="The guardrail that refused the call (seed 004), if one did.",
    )
    provider = models.CharField(max_length=50, blank=True)
    model = models.CharField(max_length=200, blank=True)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    model_latency_ms = models.PositiveIntegerField(null=True, blank=True)
    apply_latency_ms = models.PositiveIntegerField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    turn_call_count = models.PositiveSmallIntegerField(
        default=1, help_text="How many tool calls the athlete's message led to in all."
    )
    many_calls = models.BooleanField(
        default=False,
        db_index=True,
        help_text=f"The turn made more than {MANY_CALLS_PER_TURN} tool calls (seed 003).",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "tool call"
        verbose_name_plural = "tool call audit log"
        indexes = [models.Index(fields=["athlete", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=ToolCallStatus.values), name="toolcall_status_valid"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tool} {self.call_id} ({self.status})"

    def get_owner_object(self):
        return self.conversation.program
