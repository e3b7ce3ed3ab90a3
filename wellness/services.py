"""Writes of the wellness log: each function validates (naming the real bounds), then saves.

Callers pass plain values already parsed (the coach's tools parse the model's arguments, the
pages their forms); a value out of bounds raises ``WellnessError`` before anything is written.
Local dates and times are in the athlete's time zone (``training``'s profile). Deletes are soft.
Each log created inside a chat batch is recorded in the undo journal (``journal.created``), so the
batch's Undo soft-deletes it.

Reminder delivery is two steps so this app never needs the chat: ``due_reminders(now)`` lists what
is due, ``claim_delivery`` records one delivery (at most once per reminder and local day, by a
unique constraint); the chat posts the message (``chat.reminders``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from journal import services as journal
from training.services import profile_for

from .models import (
    CareLog,
    MedicationLog,
    Mood,
    MoodLog,
    ReadinessLog,
    Reminder,
    ReminderDelivery,
    WellnessLog,
)

MAX_DAYS_BACK = 90  # a log is about the last 90 days; older belongs in the care records
MAX_CARE_YEARS_BACK = 5
REMINDER_GRACE = datetime.timedelta(minutes=30)  # a beat late by up to this still delivers
MAX_REMINDERS = 20


class WellnessError(ValueError):
    """A value out of bounds; ``field`` names the argument."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def athlete_tz(athlete) -> datetime.tzinfo:
    return profile_for(athlete=athlete).tz


def local_now(athlete, now: datetime.datetime | None = None) -> datetime.datetime:
    return (now or timezone.now()).astimezone(athlete_tz(athlete))


def _check_day(athlete, day: datetime.date, field: str) -> None:
    today = local_now(athlete).date()
    if day > today:
        raise WellnessError(
            f"{field} can't be in the future (today is {today.isoformat()}).", field
        )
    if day < today - datetime.timedelta(days=MAX_DAYS_BACK):
        raise WellnessError(
            f"{field} must be within the last {MAX_DAYS_BACK} days "
            f"(from {(today - datetime.timedelta(days=MAX_DAYS_BACK)).isoformat()}).",
            field,
        )


def _save(obj: WellnessLog) -> WellnessLog:
    obj.full_clean()
    obj.save()
    journal.created(obj)  # a chat batch's Undo soft-deletes it (no-op outside a capture)
    return obj


@transaction.atomic
def log_medication(
    *,
    athlete,
    name: str,
    kind: str,
    dose: str = "",
    taken_on: datetime.date | None = None,
    taken_time: datetime.time | None = None,
    part_of_day: str = "",
) -> MedicationLog:
    now = local_now(athlete)
    day = taken_on or now.date()
    _check_day(athlete, day, "date")
    if taken_time is not None and day == now.date() and taken_time > now.time():
        raise WellnessError(
            f"time can't be later than now ({now:%H:%M} in the athlete's time zone).", "time"
        )
    return _save(
        MedicationLog(
            athlete=athlete,
            name=name.strip(),
            kind=kind,
            dose=dose.strip(),
            taken_on=day,
            taken_time=taken_time,
            part_of_day=part_of_day,
        )
    )


@transaction.atomic
def log_mood(
    *, athlete, mood: str, note: str = "", logged_on: datetime.date | None = None
) -> MoodLog:
    day = logged_on or local_now(athlete).date()
    _check_day(athlete, day, "date")
    return _save(MoodLog(athlete=athlete, mood=mood, note=note.strip(), logged_on=day))


@transaction.atomic
def log_readiness(
    *,
    athlete,
    sleep_quality: int,
    soreness: int,
    stress: int,
    note: str = "",
    logged_on: datetime.date | None = None,
) -> ReadinessLog:
    day = logged_on or local_now(athlete).date()
    _check_day(athlete, day, "date")
    return _save(
        ReadinessLog(
            athlete=athlete,
            logged_on=day,
            sleep_quality=sleep_quality,
            soreness=soreness,
            stress=stress,
            note=note.strip(),
        )
    )


@transaction.atomic
def create_care_log(
    *, athlete, log_type: str, title: str, occurred_at: datetime.datetime, notes: str = ""
) -> CareLog:
    """``occurred_at`` naive means the athlete's local time."""
    tz = athlete_tz(athlete)
    when = occurred_at if occurred_at.tzinfo else occurred_at.replace(tzinfo=tz)
    now = timezone.now()
    if when > now:
        raise WellnessError(
            f"occurred_at can't be in the future (now is {now.astimezone(tz):%Y-%m-%dT%H:%M} "
            "in the athlete's time zone).",
            "occurred_at",
        )
    oldest = now - datetime.timedelta(days=365 * MAX_CARE_YEARS_BACK)
    if when < oldest:
        raise WellnessError(
            f"occurred_at must be within the last {MAX_CARE_YEARS_BACK} years.", "occurred_at"
        )
    return _save(
        CareLog(
            athlete=athlete,
            log_type=log_type,
            title=title.strip(),
            occurred_at=when,
            notes=notes.strip(),
        )
    )


@transaction.atomic
def create_reminder(*, athlete, title: str, time: datetime.time, days: list[int]) -> Reminder:
    if not days or any(d not in range(1, 8) for d in days):
        raise WellnessError("days must be ISO weekdays from 1 (Monday) to 7 (Sunday).", "days")
    if len(set(days)) != len(days):
        raise WellnessError("days must not repeat a day.", "days")
    count = Reminder.objects.filter(athlete=athlete).count()
    if count >= MAX_REMINDERS:
        raise WellnessError(
            f"An athlete can have at most {MAX_REMINDERS} reminders; this one has {count}.", "title"
        )
    return _save(
        Reminder(
            athlete=athlete,
            title=title.strip(),
            time=time.replace(second=0, microsecond=0),
            days=sorted(days),
        )
    )


def soft_delete(obj: WellnessLog) -> None:
    if obj.deleted_at is None:
        obj.deleted_at = timezone.now()
        obj.save(update_fields=["deleted_at"])


def mark_flag_seen(*, log: MoodLog, by) -> None:
    """The coach has seen a crisis flag."""
    if log.mood == Mood.CRISIS and log.flag_seen_at is None:
        log.flag_seen_at = timezone.now()
        log.flag_seen_by = by
        log.save(update_fields=["flag_seen_at", "flag_seen_by"])


# --- reminders -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Due:
    reminder: Reminder
    local_date: datetime.date
    local_time: datetime.time


def due_reminders(now: datetime.datetime | None = None) -> list[Due]:
    """The live, active reminders whose local time has come today (up to ``REMINDER_GRACE``
    late), not yet delivered today, and created before that moment (a reminder made at 10:00 for
    09:00 first fires tomorrow)."""
    now = now or timezone.now()
    out = []
    reminders = Reminder.objects.filter(active=True).select_related("athlete__athlete_profile")
    delivered = set(
        ReminderDelivery.objects.filter(
            delivered_at__gte=now - datetime.timedelta(days=2)
        ).values_list("reminder_id", "local_date")
    )
    for reminder in reminders:
        tz = athlete_tz(reminder.athlete)
        local = now.astimezone(tz)
        if local.isoweekday() not in reminder.days:
            continue
        moment = datetime.datetime.combine(local.date(), reminder.time, tzinfo=tz)
        if not (moment <= local < moment + REMINDER_GRACE):
            continue
        if reminder.created_at > moment or (reminder.pk, local.date()) in delivered:
            continue
        out.append(Due(reminder=reminder, local_date=local.date(), local_time=reminder.time))
    return out


def claim_delivery(*, reminder: Reminder, local_date: datetime.date) -> bool:
    """Record today's delivery; False when it was already delivered (another tick got there)."""
    try:
        with transaction.atomic():
            ReminderDelivery.objects.create(reminder=reminder, local_date=local_date)
    except IntegrityError:
        return False
    return True
