"""The athlete's wellness log (seed 004): medications and supplements taken, mood, daily readiness,
care records (visits, injuries, physio) and reminders.

Every log belongs to one athlete and is soft-deleted (``deleted_at``): an Undo in the chat or a
delete on the page hides it, nothing is lost. ``objects`` gives the live rows, ``all_objects``
every row. Times the athlete gives are in their time zone (``training.AthleteProfile.time_zone``);
aware datetimes are stored in UTC, dates are the athlete's local dates.

A ``crisis`` mood raises a flag the athlete's coach sees in the admin until they mark it seen
(``flag_seen_at``).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q


class AliveManager(models.Manager):
    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().filter(deleted_at__isnull=True)


class WellnessLog(models.Model):
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = AliveManager()
    all_objects = models.Manager()  # noqa: DJ012 (two managers, not a field)

    class Meta:
        abstract = True
        base_manager_name = "all_objects"

    def get_owner_object(self):
        return self.athlete

    @property
    def owner_id(self) -> int:
        return self.athlete_id


class MedicationKind(models.TextChoices):
    MEDICATION = "medication", "Medication"
    SUPPLEMENT = "supplement", "Supplement"


class PartOfDay(models.TextChoices):
    MORNING = "morning", "Morning"
    AFTERNOON = "afternoon", "Afternoon"
    EVENING = "evening", "Evening"
    NIGHT = "night", "Night"


class MedicationLog(WellnessLog):
    """One dose the athlete said they took: on ``taken_on``, at ``taken_time`` when they gave one,
    else in ``part_of_day`` ("this morning") when they said that, else just that day."""

    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=12, choices=MedicationKind.choices)
    dose = models.CharField(max_length=60, blank=True)
    taken_on = models.DateField(help_text="The athlete's local date.")
    taken_time = models.TimeField(null=True, blank=True, help_text="Local time, when given.")
    part_of_day = models.CharField(max_length=10, choices=PartOfDay.choices, blank=True)

    class Meta:
        ordering = ["-taken_on", "-taken_time", "-pk"]
        indexes = [models.Index(fields=["athlete", "taken_on"])]

    def __str__(self) -> str:
        return f"{self.name} on {self.taken_on}"


class Mood(models.TextChoices):
    GREAT = "great", "Great"
    GOOD = "good", "Good"
    OKAY = "okay", "Okay"
    POOR = "poor", "Poor"
    CRISIS = "crisis", "Crisis"


class MoodLog(WellnessLog):
    mood = models.CharField(max_length=10, choices=Mood.choices)
    note = models.CharField(max_length=280, blank=True)
    logged_on = models.DateField(help_text="The athlete's local date.")
    flag_seen_at = models.DateTimeField(
        null=True, blank=True, help_text="A crisis flag: when the coach marked it seen."
    )
    flag_seen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-logged_on", "-pk"]
        indexes = [
            models.Index(fields=["athlete", "logged_on"]),
            models.Index(
                fields=["athlete"],
                condition=Q(mood="crisis", flag_seen_at__isnull=True, deleted_at__isnull=True),
                name="mood_open_crisis_idx",
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(mood__in=Mood.values), name="mood_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.get_mood_display()} on {self.logged_on}"

    @property
    def is_open_crisis(self) -> bool:
        return self.mood == Mood.CRISIS and self.flag_seen_at is None and self.deleted_at is None


SCALE = [MinValueValidator(1), MaxValueValidator(5)]


class ReadinessLog(WellnessLog):
    """How ready the athlete feels, each 1 to 5: ``sleep_quality`` (5 = slept very well),
    ``soreness`` (5 = very sore) and ``stress`` (5 = very stressed)."""

    logged_on = models.DateField(help_text="The athlete's local date.")
    sleep_quality = models.PositiveSmallIntegerField(validators=SCALE)
    soreness = models.PositiveSmallIntegerField(validators=SCALE)
    stress = models.PositiveSmallIntegerField(validators=SCALE)
    note = models.CharField(max_length=280, blank=True)

    class Meta:
        ordering = ["-logged_on", "-pk"]
        indexes = [models.Index(fields=["athlete", "logged_on"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    sleep_quality__range=(1, 5), soreness__range=(1, 5), stress__range=(1, 5)
                ),
                name="readiness_scale_1_5",
            ),
        ]

    def __str__(self) -> str:
        return f"Readiness on {self.logged_on}"


class CareType(models.TextChoices):
    VISIT = "visit", "Visit"
    INJURY = "injury", "Injury"
    PHYSIO = "physio", "Physio"


class CareLog(WellnessLog):
    """A care record (critical: written only after the athlete checked its date and time)."""

    log_type = models.CharField(max_length=10, choices=CareType.choices)
    title = models.CharField(max_length=120)
    occurred_at = models.DateTimeField(help_text="Aware; entered in the athlete's time zone.")
    notes = models.CharField(max_length=1000, blank=True)

    class Meta:
        ordering = ["-occurred_at", "-pk"]
        indexes = [models.Index(fields=["athlete", "occurred_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(log_type__in=CareType.values), name="care_type_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_log_type_display()}: {self.title}"


class Reminder(WellnessLog):
    """A reminder delivered in the chat at ``time`` (the athlete's local time) on ``days`` (ISO
    weekdays, 1 = Monday … 7 = Sunday)."""

    title = models.CharField(max_length=120)
    time = models.TimeField(help_text="Local time in the athlete's time zone.")
    days = models.JSONField(default=list, help_text="ISO weekdays, 1 = Monday … 7 = Sunday.")
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["time", "pk"]

    def __str__(self) -> str:
        return f"{self.title} at {self.time:%H:%M}"


class ReminderDelivery(models.Model):
    """One delivery of a reminder on one local date: the unique constraint makes each reminder fire
    at most once a day, whichever beat tick or worker gets there first."""

    reminder = models.ForeignKey(Reminder, on_delete=models.CASCADE, related_name="deliveries")
    local_date = models.DateField()
    delivered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-delivered_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["reminder", "local_date"], name="reminder_once_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.reminder} on {self.local_date}"
