"""A photo sent to be read into a recipe (``PhotoRead``): who sent it, where its reading stands,
what was read; and a photo kept with the recipe it became (``RecipePhoto``).

The photo's bytes are held only until the worker has read them (``photo`` is emptied when the read
ends, done or failed), unless the sender asked to keep it with the recipe (``keep``): then they
wait for the recipe's Apply (at most ``MEDIA_KEEP_HOURS``) and are emptied then. What is stored
with a recipe is never the file sent: it is the decoded pixels encoded again (``RecipePhoto``), so
no EXIF (a phone's GPS position, its serial number) is ever kept (docs/media.md).
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
    photo = models.BinaryField(
        null=True, blank=True, help_text="Held until read (or, kept, until Apply), then emptied."
    )
    keep = models.BooleanField(
        default=False, help_text="The sender asked to keep the photo with the recipe."
    )
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
    recipe = models.ForeignKey(
        "nutrition.Recipe",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The recipe Apply made of this read (one per read).",
    )
    change_set_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The journal's change set of that Apply (for Undo)."
    )

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


class RecipePhoto(models.Model):
    """The photo a recipe was read from, kept because its sender asked: the pixels encoded again
    as a JPEG without any metadata, at most ``MEDIA_KEEP_MAX_SIDE`` on its longer side. Only its
    owner fetches it; it goes with the recipe (deleted, or soft-deleted, ``media.signals``)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="recipe_photos"
    )
    recipe = models.OneToOneField(
        "nutrition.Recipe", on_delete=models.CASCADE, related_name="photo"
    )
    image = models.BinaryField(help_text="JPEG, re-encoded: no EXIF, no GPS.")
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Photo of recipe {self.recipe_id}"

    def get_owner_object(self):
        return self.owner
