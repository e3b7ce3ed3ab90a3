"""An athlete's training data: what they did (Activity), how they slept (SleepRecord), the numbers
the maths needs (AthleteProfile), and the uploads that bring files in (ImportJob, ImportFile).

Every model names its owner with ``get_owner_object()`` (the athlete user), so one permission check
serves views, admin and tools. Activities are soft-deleted (``deleted_at``); the default manager
hides deleted ones, ``Activity.all_objects`` sees them.
"""

from __future__ import annotations

import datetime
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from coach.vocabulary import DISTANCE_UNITS, SPORTS, WEIGHT_UNITS, text_choices

# RUNNING = "RUNNING" ("Running"), CYCLING, SWIMMING, STRENGTH, OTHER: stored upper-case, as the
# importers and the CSV columns write them (the library stores its sports lower-case).
Sport = text_choices(
    "Sport", ("running", "cycling", "swimming", "strength", "other"), SPORTS, stored_upper=True
)


class LoadMethod(models.TextChoices):
    FILE = "FILE", "From the file"
    POWER = "POWER", "From power (TSS)"
    HEART_RATE = "HEART_RATE", "From heart rate (hrTSS)"
    RPE = "RPE", "From session RPE"
    ESTIMATE = "ESTIMATE", "Sport default per hour"


class ActivityQuerySet(models.QuerySet):
    def alive(self) -> ActivityQuerySet:
        return self.filter(deleted_at__isnull=True)


class AliveActivityManager(models.Manager.from_queryset(ActivityQuerySet)):
    def get_queryset(self) -> ActivityQuerySet:
        return super().get_queryset().filter(deleted_at__isnull=True)


class Activity(models.Model):
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="activities"
    )
    sport = models.CharField(max_length=10, choices=Sport.choices)
    name = models.CharField(max_length=200, blank=True)
    start = models.DateTimeField(help_text="When it started (aware, stored in UTC).")
    local_date = models.DateField(
        help_text="The day it counts for, in the athlete's time zone (daily load, lists)."
    )
    moving_s = models.PositiveIntegerField(null=True, blank=True, help_text="Moving time, s.")
    elapsed_s = models.PositiveIntegerField(null=True, blank=True, help_text="Elapsed time, s.")
    distance_m = models.FloatField(null=True, blank=True)
    elevation_gain_m = models.FloatField(null=True, blank=True)
    avg_hr = models.PositiveSmallIntegerField(null=True, blank=True)
    max_hr = models.PositiveSmallIntegerField(null=True, blank=True)
    avg_speed_mps = models.FloatField(null=True, blank=True, help_text="Average speed, m/s.")
    avg_power_w = models.PositiveSmallIntegerField(null=True, blank=True)
    normalized_power_w = models.PositiveSmallIntegerField(null=True, blank=True)
    calories = models.PositiveIntegerField(null=True, blank=True)
    rpe = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text="Session RPE, 1 (very easy) to 10 (maximal).",
    )
    notes = models.TextField(blank=True)
    training_load = models.FloatField(
        default=0, help_text="Training stress of the session (TSS-like points)."
    )
    load_method = models.CharField(max_length=10, choices=LoadMethod.choices)
    session = models.ForeignKey(
        "programs.Session",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="activities",
        help_text="The planned session this activity fulfils.",
    )
    source_format = models.CharField(max_length=20, blank=True, help_text="fit, gpx, tcx, …")
    source_file = models.CharField(max_length=255, blank=True)
    device_id = models.CharField(max_length=100, blank=True)
    dedupe_key = models.CharField(
        max_length=200, help_text="Importing the same activity again finds this key and skips it."
    )
    streams = models.JSONField(
        null=True,
        blank=True,
        help_text='Parallel arrays ≤ 2,000 points: {"t": [s], "hr": [], "speed": [m/s], '
        '"power": [W], "alt": [m]}.',
    )
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = AliveActivityManager()
    all_objects = ActivityQuerySet.as_manager()

    class Meta:
        ordering = ["-start", "-pk"]
        verbose_name_plural = "activities"
        base_manager_name = "all_objects"
        constraints = [
            models.UniqueConstraint(
                fields=["athlete", "dedupe_key"], name="activity_unique_dedupe_key"
            ),
            models.CheckConstraint(condition=Q(sport__in=Sport.values), name="activity_sport"),
            models.CheckConstraint(
                condition=Q(load_method__in=LoadMethod.values), name="activity_load_method"
            ),
            models.CheckConstraint(condition=Q(training_load__gte=0), name="activity_load_gte_0"),
            models.CheckConstraint(
                condition=Q(rpe__isnull=True) | Q(rpe__gte=1, rpe__lte=10),
                name="activity_rpe_1_to_10",
            ),
        ]
        indexes = [models.Index(fields=["athlete", "local_date"], name="activity_athlete_day")]

    def __str__(self) -> str:
        return f"{self.get_sport_display()} {self.local_date}: {self.name or 'activity'}"

    def get_owner_object(self):
        return self.athlete

    @property
    def owner_id(self) -> int:
        return self.athlete_id

    @property
    def duration_s(self) -> int:
        return self.moving_s or self.elapsed_s or 0


class SleepRecord(models.Model):
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sleep_records"
    )
    night = models.DateField(help_text="The date the athlete woke up.")
    duration_min = models.PositiveIntegerField(null=True, blank=True)
    score = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(100)], help_text="0–100."
    )
    resting_hr = models.PositiveSmallIntegerField(null=True, blank=True)
    hrv_ms = models.FloatField(null=True, blank=True, help_text="Overnight HRV (RMSSD), ms.")
    source = models.CharField(max_length=50, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-night"]
        constraints = [
            models.UniqueConstraint(fields=["athlete", "night"], name="sleep_unique_night"),
            models.CheckConstraint(
                condition=Q(score__isnull=True) | Q(score__lte=100), name="sleep_score_lte_100"
            ),
        ]

    def __str__(self) -> str:
        return f"Sleep {self.night}"

    def get_owner_object(self):
        return self.athlete

    @property
    def owner_id(self) -> int:
        return self.athlete_id


WeightUnit = text_choices("WeightUnit", WEIGHT_UNITS)  # KG = "kg", LB = "lb"
DistanceUnit = text_choices("DistanceUnit", DISTANCE_UNITS)  # KM = "km", MI = "mi"


def _valid_time_zone(value: str) -> None:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(f"{value!r} is not a time zone (e.g. Europe/Paris).") from exc


class AthleteProfile(models.Model):
    """The numbers load estimation and fitness need; one per user, created on first use."""

    athlete = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="athlete_profile"
    )
    threshold_hr = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(80), MaxValueValidator(230)]
    )
    max_hr = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(100), MaxValueValidator(240)]
    )
    ftp_w = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(50), MaxValueValidator(600)],
        help_text="Functional threshold power, W.",
    )
    threshold_pace_s_per_km = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(120), MaxValueValidator(900)],
        help_text="Threshold running pace, seconds per km.",
    )
    weight_unit = models.CharField(max_length=2, choices=WeightUnit.choices, default="kg")
    distance_unit = models.CharField(max_length=2, choices=DistanceUnit.choices, default="km")
    time_zone = models.CharField(max_length=64, default="UTC", validators=[_valid_time_zone])
    ctl_days = models.PositiveSmallIntegerField(
        default=42,
        validators=[MinValueValidator(7), MaxValueValidator(84)],
        help_text="Fitness (CTL) time constant, days.",
    )
    atl_days = models.PositiveSmallIntegerField(
        default=7,
        validators=[MinValueValidator(2), MaxValueValidator(21)],
        help_text="Fatigue (ATL) time constant, days.",
    )
    starting_ctl = models.FloatField(
        null=True, blank=True, validators=[MinValueValidator(0), MaxValueValidator(250)]
    )
    starting_atl = models.FloatField(
        null=True, blank=True, validators=[MinValueValidator(0), MaxValueValidator(250)]
    )
    starting_date = models.DateField(
        null=True,
        blank=True,
        help_text="The day the starting values hold (the series starts the day after).",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(ctl_days__gte=1), name="profile_ctl_days_gte_1"),
            models.CheckConstraint(condition=Q(atl_days__gte=1), name="profile_atl_days_gte_1"),
        ]

    def __str__(self) -> str:
        return f"Profile of {self.athlete}"

    def get_owner_object(self):
        return self.athlete

    @property
    def owner_id(self) -> int:
        return self.athlete_id

    @property
    def tz(self) -> datetime.tzinfo:
        return zoneinfo.ZoneInfo(self.time_zone)


class ImportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"


class ImportJob(models.Model):
    """One upload of several files; a Celery task imports them and records a line per file."""

    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs"
    )
    status = models.CharField(
        max_length=10, choices=ImportStatus.choices, default=ImportStatus.QUEUED
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    summary = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Import {self.pk} ({self.status})"

    def get_owner_object(self):
        return self.athlete


class ImportFile(models.Model):
    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(max_length=255)
    data = models.BinaryField(help_text="The uploaded bytes, emptied once imported.")
    done = models.BooleanField(default=False)
    ok = models.BooleanField(default=False)
    message = models.TextField(blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name

    def get_owner_object(self):
        return self.job.athlete


class UnavailableDay(models.Model):
    """A day the athlete marked on their calendar as one they can't train on. The coach sees it on
    their calendar, and the dry run of any change warns when it puts a session on it (the schedule
    family's rule, ``training.availability``); it never refuses the change."""

    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="unavailable_days"
    )
    date = models.DateField()
    note = models.CharField(max_length=120, blank=True, help_text="Why, in the athlete's words.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["date"]
        constraints = [
            models.UniqueConstraint(fields=["athlete", "date"], name="one_unavailable_mark_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.athlete} can't train on {self.date.isoformat()}"

    def get_owner_object(self):
        return self.athlete
