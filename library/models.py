"""The workout library and the athlete's calendar feed.

A ``LibraryWorkout`` is a reusable template session (strength exercises and/or one cardio block,
stored as JSON and validated by ``library.schemas.WorkoutTemplate``) with the words people search
by. It belongs to one user: an athlete's workouts are private to them (their coaches may read
them); a coach's are shared with every athlete of the programs they coach. Deleting one is soft:
``deleted_at`` is set and the row drops out of ``LibraryWorkout.objects``.

``CalendarFeed`` holds the secret token of an athlete's iCal feed; ``FeedEvent`` remembers, per
session that ever appeared in the feed, the date and ``SEQUENCE`` it was last published with, so a
moved session gets a higher sequence and a removed one stays as a cancelled event (a tombstone).
"""

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q

from coach.vocabulary import CARDIO_TYPES, SPORTS, text_choices

__all__ = [
    "CalendarFeed",
    "CardioType",
    "FeedEvent",
    "Intensity",
    "LibraryWorkout",
    "Scope",
    "Sport",
]


# The cardio block kinds, the same words as a session's (``coach.vocabulary``).
CardioType = text_choices("CardioType", CARDIO_TYPES, CARDIO_TYPES)

# STRENGTH = "strength" ("Strength"), RUNNING, CYCLING, ROWING, SWIMMING, CONDITIONING, MOBILITY.
Sport = text_choices(
    "Sport",
    ("strength", "running", "cycling", "rowing", "swimming", "conditioning", "mobility"),
    SPORTS,
)


class Intensity(models.TextChoices):
    EASY = "easy", "Easy"
    MODERATE = "moderate", "Moderate"
    HARD = "hard", "Hard"
    MAX = "max", "Max effort"


class Scope(models.TextChoices):
    PRIVATE = "private", "Private to its owner (an athlete)"
    SHARED = "shared", "Shared with the owner's athletes (a coach)"


class AliveWorkouts(models.Manager):
    """Workouts that were not deleted."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(deleted_at__isnull=True)


class AllWorkouts(models.Manager):
    """Every workout, deleted ones included (the admin's history, the demo seed)."""


class LibraryWorkout(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="library_workouts"
    )
    scope = models.CharField(
        max_length=10,
        choices=Scope.choices,
        default=Scope.PRIVATE,
        help_text="Private: only the owner (and their coaches, read-only). Shared: every athlete "
        "of a program the owner coaches.",
    )
    title = models.CharField(max_length=200)
    sport = models.CharField(max_length=20, choices=Sport.choices)
    tags = models.JSONField(
        default=list, blank=True, help_text='Lower-case words, e.g. ["legs", "squat"].'
    )
    duration_minutes = models.PositiveIntegerField(help_text="Planned minutes, 5 to 600.")
    intensity = models.CharField(max_length=10, choices=Intensity.choices)
    description = models.TextField(blank=True)
    template = models.JSONField(
        help_text='{"exercises": [{"name", "sets", "reps", "load", "rest_seconds", ...}], '
        '"cardio": {"type", "duration", "modality", "instructions"} | null, "warmup": [...]}'
    )
    search_document = SearchVectorField(
        null=True,
        editable=False,
        help_text="PostgreSQL only: kept by a database trigger (migration 0002); NULL on SQLite.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = AliveWorkouts()
    all_objects = AllWorkouts()

    class Meta:
        ordering = ["title", "pk"]
        base_manager_name = "all_objects"
        constraints = [
            models.CheckConstraint(
                condition=Q(duration_minutes__gte=5, duration_minutes__lte=600),
                name="libraryworkout_duration_5_to_600",
            ),
            models.CheckConstraint(
                condition=Q(scope__in=Scope.values), name="libraryworkout_scope_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def get_owner_object(self):
        return self.owner


class CalendarFeed(models.Model):
    """The secret address of an athlete's calendar: anyone with the token can read the feed, so
    the athlete can rotate it (the old address stops working at once)."""

    athlete = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    rotated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Calendar feed of {self.athlete}"

    def get_owner_object(self):
        return self.athlete


class FeedEvent(models.Model):
    """What the feed last published for one session. ``session_pk`` is not a foreign key on
    purpose: the row outlives the session and becomes a cancelled event (``cancelled_at`` set)."""

    feed = models.ForeignKey(CalendarFeed, on_delete=models.CASCADE, related_name="events")
    session_pk = models.PositiveBigIntegerField()
    date = models.DateField(help_text="The date last published.")
    summary = models.CharField(max_length=200)
    sequence = models.PositiveIntegerField(default=0)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(help_text="When the published event last changed.")

    class Meta:
        ordering = ["date", "session_pk"]
        constraints = [
            models.UniqueConstraint(fields=["feed", "session_pk"], name="feedevent_unique_session")
        ]

    def __str__(self) -> str:
        return f"{self.summary} on {self.date} (#{self.sequence})"

    def get_owner_object(self):
        return self.feed.athlete
