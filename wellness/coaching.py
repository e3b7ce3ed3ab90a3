"""What the coach's workspace (``roster``) reads of the wellness log, declared here and found by
``roster.discovery``: the readiness trend, the crisis path, low readiness days running, and the
athlete's own words in their readiness, mood and care notes.

**Readiness score** of one day, 1 (poor) to 5 (great): the mean of sleep quality, 6 − soreness
and 6 − stress (soreness and stress are 5 when worst). **Low readiness** is a score below
``ROSTER_READINESS_BELOW`` on ``ROSTER_READINESS_DAYS`` logged days running, up to the last log.

**The crisis path**: a mood logged as crisis that no coach has marked seen. The athlete was shown
the deployment's care resources (``WELLNESS_CRISIS_MESSAGE``), never the model's words; the flag
shows the coach the same text.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone

from roster.discovery import Section
from roster.findings import Finding, Limits, pain_finding

from .models import CareLog, Mood, MoodLog, ReadinessLog

TREND_DAYS = 7
RECENT_DAYS = 14


def score(*, sleep_quality: int, soreness: int, stress: int) -> float:
    return round((sleep_quality + (6 - soreness) + (6 - stress)) / 3, 2)


def facts(athlete_ids: list[int], today: datetime.date) -> dict[int, dict[str, Any]]:
    first = today - datetime.timedelta(days=TREND_DAYS - 1)
    days: dict[int, dict[datetime.date, float]] = {}
    for row in ReadinessLog.objects.filter(
        athlete_id__in=athlete_ids, logged_on__gte=first, logged_on__lte=today
    ).values("athlete_id", "logged_on", "sleep_quality", "soreness", "stress"):
        days.setdefault(row["athlete_id"], {})[row["logged_on"]] = score(
            sleep_quality=row["sleep_quality"], soreness=row["soreness"], stress=row["stress"]
        )
    out: dict[int, dict[str, Any]] = {
        athlete_id: {
            "readiness": [by_day.get(first + datetime.timedelta(days=n)) for n in range(TREND_DAYS)]
        }
        for athlete_id, by_day in days.items()
    }
    for model, field in ((ReadinessLog, "logged_on"), (MoodLog, "logged_on")):
        for athlete_id, last in (
            model.objects.filter(athlete_id__in=athlete_ids)
            .values("athlete_id")
            .annotate(last=Max(field))
            .values_list("athlete_id", "last")
        ):
            entry = out.setdefault(athlete_id, {})
            entry["last_active"] = max(filter(None, [entry.get("last_active"), last]))
    return out


def findings(athlete_ids: list[int], today: datetime.date, limits: Limits) -> list[Finding]:
    found: list[Finding] = []
    for log in MoodLog.objects.filter(
        athlete_id__in=athlete_ids, mood=Mood.CRISIS, flag_seen_at__isnull=True
    ):
        found.append(
            Finding(
                athlete_id=log.athlete_id,
                kind="crisis",
                evidence_key=f"moodlog:{log.pk}",
                summary=f"Logged their mood as crisis on {log.logged_on:%a %d %b}; they were "
                "shown the care resources",
                occurred_on=log.logged_on,
                source="wellness log",
                excerpt=log.note,
                link=reverse("admin:wellness_moodlog_change", args=[log.pk]),
            )
        )
    since = today - datetime.timedelta(days=limits.note_days)
    readiness: dict[int, list[ReadinessLog]] = {}
    for log in ReadinessLog.objects.filter(
        athlete_id__in=athlete_ids, logged_on__gte=since, logged_on__lte=today
    ).order_by("logged_on", "pk"):
        readiness.setdefault(log.athlete_id, []).append(log)
        finding = pain_finding(
            athlete_id=log.athlete_id,
            key=f"readinesslog:{log.pk}",
            text=log.note,
            source="wellness log",
            on=log.logged_on,
            link=reverse("admin:wellness_readinesslog_change", args=[log.pk]),
            limits=limits,
        )
        if finding:
            found.append(finding)
    for athlete_id, logs in readiness.items():
        run: list[ReadinessLog] = []
        for log in reversed(logs):
            value = score(sleep_quality=log.sleep_quality, soreness=log.soreness, stress=log.stress)
            if value >= limits.readiness_below:
                break
            run.append(log)
        if len(run) >= limits.readiness_days:
            first = run[-1]
            found.append(
                Finding(
                    athlete_id=athlete_id,
                    kind="readiness",
                    evidence_key=f"readiness:{first.logged_on.isoformat()}",
                    summary=f"Readiness below {limits.readiness_below} on {len(run)} logged days "
                    f"running, since {first.logged_on:%a %d %b}",
                    occurred_on=first.logged_on,
                    source="wellness log",
                    excerpt=" · ".join(log.note for log in reversed(run) if log.note),
                    link=reverse("admin:wellness_readinesslog_changelist")
                    + f"?athlete__id__exact={athlete_id}",
                )
            )
    for model, text in ((MoodLog, ("note",)), (CareLog, ("title", "notes"))):
        date_field = "logged_on" if model is MoodLog else "occurred_at__date"
        for log in model.objects.filter(
            athlete_id__in=athlete_ids, **{f"{date_field}__gte": since}
        ):
            on = log.logged_on if model is MoodLog else timezone.localdate(log.occurred_at)
            finding = pain_finding(
                athlete_id=log.athlete_id,
                key=f"{model._meta.model_name}:{log.pk}",
                text=": ".join(filter(None, (getattr(log, name) for name in text))),
                source="wellness log",
                on=on,
                link=reverse(f"admin:wellness_{model._meta.model_name}_change", args=[log.pk]),
                limits=limits,
            )
            if finding:
                found.append(finding)
    return found


def crisis_message() -> str:
    """The care resources the athlete was shown on the crisis path."""
    return settings.WELLNESS_CRISIS_MESSAGE


def sections(athlete: Any, today: datetime.date) -> list[Section]:
    since = today - datetime.timedelta(days=RECENT_DAYS)
    readiness = [
        (log, score(sleep_quality=log.sleep_quality, soreness=log.soreness, stress=log.stress))
        for log in ReadinessLog.objects.filter(athlete=athlete, logged_on__gte=since)
    ]
    moods = list(MoodLog.objects.filter(athlete=athlete, logged_on__gte=since))
    care = list(CareLog.objects.filter(athlete=athlete, occurred_at__date__gte=since))
    return [
        Section(
            "Wellness logs",
            "wellness/coaching/recent.html",
            {"readiness": readiness, "moods": moods, "care": care},
            40,
        )
    ]
