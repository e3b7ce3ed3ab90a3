"""The journal: the one record of applied changes, each undone by the one undo
(``journal.services.undo``).

A ``ChangeSet`` is one applied change for one athlete: a chat batch (confirmed, approved by the
coach, or written at once), or a change made outside a batch (a coach's admin edit, a restore, an
undo). Each ``Change`` is one part of it, by content type and id:

* ``created`` / ``updated``: one object written, with the fields it wrote (``after``) and, for an
  update, the values they had before (``before``); any model with a nullable ``deleted_at`` can be
  journaled this way;
* ``part``: a record a family kept of its own (the program's ``ProgramRevision``, a diff of the
  whole program tree), undone by the undoer that family registered with the journal
  (``journal.services.register_undoer``, at its ``AppConfig.ready()``).

The journal depends on no app of ours. ``undoes`` links the change set an undo wrote (its parts'
own records, e.g. the program's undo revision) to the one it undid, so a history reads both.
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
    undoes = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="undone_by",
        help_text="The change set this one undid (its parts are the undo's own records).",
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Change set {self.pk}: {self.summary}"

    def get_owner_object(self):
        return self.athlete


class ChangeAction(models.TextChoices):
    CREATED = "created", "Created"
    UPDATED = "updated", "Updated"
    PART = "part", "Part recorded by a family"


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
