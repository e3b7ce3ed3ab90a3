"""A photo sent to be read into a recipe (``PhotoRead``): who sent it, where its reading stands,
what was read. The photo's bytes are held only until the worker has read them (``photo`` is
emptied when the read ends, done or failed) and are never shown again: Spotter keeps the text and
the recipe found in it, not the picture, so no EXIF (a phone's GPS position, its serial number) is
ever kept (docs/media.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class PhotoRead(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        READING = "reading"
        DONE = "done"
        FAILED = "failed"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="photo_reads"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    photo = models.BinaryField(null=True, blank=True, help_text="Held until read, then emptied.")
    content_type = models.CharField(max_length=20)
    byte_size = models.PositiveIntegerField()
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    text = models.TextField(blank=True, help_text="Every line read, in reading order.")
    reading = models.JSONField(
        default=dict, blank=True, help_text="The recipe found (media.recipe_text.Reading)."
    )
    error = models.CharField(max_length=300, blank=True, help_text="Why it failed, for a person.")
    seconds = models.FloatField(null=True, blank=True, help_text="Decoding and reading time.")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["owner", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["queued", "reading", "done", "failed"]),
                name="photoread_status_valid",
            )
        ]

    def __str__(self) -> str:
        return f"Photo {self.pk} of {self.owner_id} ({self.status})"

    def get_owner_object(self):
        return self.owner

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
