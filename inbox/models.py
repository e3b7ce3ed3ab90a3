"""What the inbox keeps of its own: how far each person has read a conversation's messages from
the other side, and each person's e-mail settings. The messages themselves are the chat's
(``chat.Message``: the coach's are ``role="coach"``), and the reviews are the chat's batches."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ReadMark(models.Model):
    """``user`` has read ``conversation``'s messages up to ``last_read_id`` (a message id): for
    the athlete, their coach's messages; for the coach, the athlete's replies."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    conversation = models.ForeignKey(
        "chat.Conversation", on_delete=models.CASCADE, related_name="+"
    )
    last_read_id = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "conversation"], name="inbox_one_mark")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} read {self.conversation_id} to {self.last_read_id}"


class NotificationSettings(models.Model):
    """One person's e-mails: each can be switched off here or by the signed one-click link in
    every such e-mail (``inbox.notify``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="inbox_settings"
    )
    coach_updates = models.BooleanField(
        default=True,
        help_text="Athletes: an e-mail when their coach writes to them or decides on changes.",
    )
    review_digest = models.BooleanField(
        default=True,
        help_text="Coaches: a digest of new changes waiting for their review (and new flags).",
    )
    digest_sent_at = models.DateTimeField(
        null=True, blank=True, help_text="The last digest covered what came before this time."
    )

    class Meta:
        verbose_name = "notification settings"
        verbose_name_plural = "notification settings"

    def __str__(self) -> str:
        return f"Notifications of {self.user_id}"
