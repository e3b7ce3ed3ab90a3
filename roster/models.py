"""Needs-attention flags: what the roster asks a coach to look at, kept as rows.

A ``Flag`` is one thing found about one athlete (``kind``) with its evidence: a record of the
athlete's own (``evidence_key`` names it, ``excerpt`` quotes their words, ``link`` opens it). The
same evidence never raises a second flag (a unique constraint on athlete, kind and key), so the
periodic computation is idempotent and a resolved flag stays resolved. Every resolve, snooze,
wake-up and clearing is a ``FlagAction`` row with who (empty: Spotter itself) and when.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FlagKind(models.TextChoices):
    CRISIS = "crisis", "Crisis path triggered"
    PAIN = "pain", "Pain, injury or illness mentioned"
    MISSED = "missed", "Sessions missed"
    FORM = "form", "Form very low"
    LOAD_JUMP = "load_jump", "Weekly load jump"
    READINESS = "readiness", "Low readiness"
    REVIEW = "review", "Proposal waiting for the coach"
    INACTIVE = "inactive", "No activity"


class FlagStatus(models.TextChoices):
    OPEN = "open", "Open"
    SNOOZED = "snoozed", "Snoozed"
    RESOLVED = "resolved", "Resolved"
    CLEARED = "cleared", "Cleared (no longer true)"


class Flag(models.Model):
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=FlagKind.choices)
    evidence_key = models.CharField(
        max_length=200, help_text='What it rests on, e.g. "session:12" or "readiness:2026-11-20".'
    )
    summary = models.CharField(max_length=300)
    source = models.CharField(
        max_length=60, blank=True, help_text='Where the words were: "workout note", "chat message".'
    )
    excerpt = models.TextField(blank=True, help_text="The athlete's own words, in context.")
    link = models.CharField(max_length=500, blank=True, help_text="Where the evidence is shown.")
    occurred_on = models.DateField()
    status = models.CharField(max_length=10, choices=FlagStatus.choices, default=FlagStatus.OPEN)
    snoozed_until = models.DateField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-occurred_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["athlete", "kind", "evidence_key"], name="flag_once_per_evidence"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=FlagKind.values), name="flag_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=FlagStatus.values), name="flag_status_valid"
            ),
        ]
        indexes = [models.Index(fields=["athlete", "status"], name="flag_athlete_status")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.summary}"

    def get_owner_object(self):
        return self.athlete


class FlagAction(models.Model):
    class Action(models.TextChoices):
        RESOLVED = "resolved", "Resolved"
        SNOOZED = "snoozed", "Snoozed"
        WOKE = "woke", "Snooze ended"
        CLEARED = "cleared", "Cleared: no longer true"

    flag = models.ForeignKey(Flag, on_delete=models.CASCADE, related_name="actions")
    action = models.CharField(max_length=10, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who did it (empty: Spotter itself).",
    )
    note = models.CharField(max_length=500, blank=True)
    until = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} by {self.actor or 'Spotter'}"

    def get_owner_object(self):
        return self.flag.athlete
