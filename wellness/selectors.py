"""Reads of the wellness log: always through the athlete (someone else's log is "not found"),
live rows only."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import QuerySet

from access.policy import visible

from .models import CareLog, MedicationLog, MoodLog, ReadinessLog, Reminder

KINDS = {
    "medication": MedicationLog,
    "mood": MoodLog,
    "readiness": ReadinessLog,
    "care": CareLog,
    "reminder": Reminder,
}


def log_of_athlete(*, athlete, kind: str, pk: int):
    """One live log of ``athlete``; ``DoesNotExist`` for anyone else's, a deleted one or none."""
    return KINDS[kind].objects.get(athlete=athlete, pk=pk)


def logs_since(*, athlete, since: datetime.date) -> dict[str, list[Any]]:
    """The athlete's live logs from ``since`` (a local date), newest first, by kind."""
    return {
        "medication": list(MedicationLog.objects.filter(athlete=athlete, taken_on__gte=since)),
        "mood": list(MoodLog.objects.filter(athlete=athlete, logged_on__gte=since)),
        "readiness": list(ReadinessLog.objects.filter(athlete=athlete, logged_on__gte=since)),
        "care": list(CareLog.objects.filter(athlete=athlete, occurred_at__date__gte=since)),
    }


def reminders_of(*, athlete) -> QuerySet[Reminder]:
    return Reminder.objects.filter(athlete=athlete)


def visible_logs(model: type, user: Any) -> QuerySet:
    """The live rows of ``model`` a user may read in the admin: staff readers all of them, a coach
    their athletes', anyone else their own."""
    return visible(model.objects.all(), user, lookup="athlete")


def open_crisis_flags(user: Any) -> QuerySet[MoodLog]:
    return visible_logs(MoodLog, user).filter(mood="crisis", flag_seen_at__isnull=True)
