"""Per-athlete settings of the conversation layer that a coach switches in the admin."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class CoachReview(models.Model):
    """Coach review mode for one athlete (seed 004): while it is on, a batch containing a high or
    critical change waits for the coach's approval after the athlete clicks Apply Changes."""

    athlete = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coach_review"
    )
    enabled = models.BooleanField(
        default=True, help_text="High and critical changes wait for the coach's approval."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "coach review mode"
        verbose_name_plural = "coach review mode"

    def __str__(self) -> str:
        return f"Coach review for {self.athlete} ({'on' if self.enabled else 'off'})"
