"""The undo journal: what one applied batch created or changed outside the program's own revision
history (``programs.history``), so that it can be put back (``journal.services``).

A ``ChangeSet`` is one batch's writes for one athlete; each ``Change`` is one object created or
updated, by content type and id, with the fields it wrote (``after``) and, for an update, the values
they had before (``before``). The journal depends on no app of ours: any data app whose models have
a nullable ``deleted_at`` can be journaled.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q


class ChangeSet(models.Model):
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="journal_change_sets"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    summary = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Change set {self.pk}: {self.summary}"

    def get_owner_object(self):
        return self.athlete


class ChangeAction(models.TextChoices):
    CREATED = "created", "Created"
    UPDATED = "updated", "Updated"


class Change(models.Model):
    Action = ChangeAction

    change_set = models.ForeignKey(ChangeSet, on_delete=models.CASCADE, related_name="changes")
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.PositiveBigIntegerField()
    action = models.CharField(max_length=10, choices=ChangeAction.choices)
    before = models.JSONField(null=True, blank=True, help_text="Updated fields before (updates).")
    after = models.JSONField(null=True, blank=True, help_text="The fields as this change wrote.")

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=ChangeAction.values), name="journal_change_action_valid"
            )
        ]
        indexes = [models.Index(fields=["content_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.action} {self.content_type.model} {self.object_id}"
