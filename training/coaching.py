"""What the coach's workspace (``roster``) reads of the training family, declared here and found
by ``roster.discovery``: form (TSB) over the last 14 days, the last activity, very low form, a
jump in weekly load, the athlete's own words in activity notes, the compliance bands, and on the
athlete's page the calendar and the fitness chart with the plan's projection.

**Form for many athletes at once.** The roster reads the daily loads of every athlete's last
``HISTORY_DAYS`` (120) days in one query and runs the same ``fitness.pmc`` the fitness page runs,
starting from the profile's starting values when they fall in the window and from 0 otherwise.
Starting 120 days back instead of at the first activity leaves at most e^(−120/42) ≈ 6 % of a
start-of-window fitness unaccounted for; the athlete's page reads the full history.

**A weekly load jump** compares the last full week (Monday to Sunday) with the week before; a
week before of under ``MIN_LOAD_FOR_JUMP`` points (a rest week, a first week) is no baseline.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from typing import Any

from django.db.models import Max, Sum
from django.urls import reverse

from roster.discovery import Section
from roster.findings import Finding, Limits, pain_finding

from . import compliance, fitness, selectors
from .calendar import calendar_days
from .models import Activity, AthleteProfile

HISTORY_DAYS = 120
FORM_DAYS = 14
MIN_LOAD_FOR_JUMP = 50.0
CHART_DAYS = 90
PROJECTION_DAYS = 28
CALENDAR_WEEKS_BACK = 4

compliance_colour = compliance.duration_colour


def _series(
    athlete_ids: list[int], today: datetime.date, keep_from: datetime.date
) -> dict[int, list[fitness.FitnessDay]]:
    """Each athlete's PMC over the window, ending today, its days from ``keep_from`` (two
    queries for all)."""
    first = today - datetime.timedelta(days=HISTORY_DAYS)
    loads: dict[int, dict[datetime.date, float]] = defaultdict(dict)
    for athlete_id, day, total in (
        Activity.objects.filter(athlete_id__in=athlete_ids, local_date__gte=first)
        .values("athlete_id", "local_date")
        .annotate(total=Sum("training_load"))
        .values_list("athlete_id", "local_date", "total")
    ):
        loads[athlete_id][day] = total
    profiles = {p.athlete_id: p for p in AthleteProfile.objects.filter(athlete_id__in=athlete_ids)}
    out = {}
    for athlete_id in athlete_ids:
        profile = profiles.get(athlete_id)
        start, ctl0, atl0 = first, 0.0, 0.0
        ctl_days, atl_days = fitness.DEFAULT_CTL_DAYS, fitness.DEFAULT_ATL_DAYS
        if profile is not None:
            ctl_days, atl_days = profile.ctl_days, profile.atl_days
            if profile.starting_date and profile.starting_date >= first:
                start = profile.starting_date + datetime.timedelta(days=1)
                ctl0, atl0 = profile.starting_ctl or 0.0, profile.starting_atl or 0.0
        out[athlete_id] = fitness.pmc(
            loads=loads.get(athlete_id, {}),
            first_day=start,
            last_day=today,
            ctl0=ctl0,
            atl0=atl0,
            ctl_days=ctl_days,
            atl_days=atl_days,
            keep_from=keep_from,
        )
    return out


def facts(athlete_ids: list[int], today: datetime.date) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    keep_from = today - datetime.timedelta(days=FORM_DAYS - 1)
    for athlete_id, series in _series(athlete_ids, today, keep_from).items():
        out[athlete_id] = {"form": [round(day.tsb, 1) for day in series]}
    for athlete_id, last in (
        Activity.objects.filter(athlete_id__in=athlete_ids)
        .values("athlete_id")
        .annotate(last=Max("local_date"))
        .values_list("athlete_id", "last")
    ):
        out.setdefault(athlete_id, {}).update(last_workout=last, last_active=last)
    return out


def findings(athlete_ids: list[int], today: datetime.date, limits: Limits) -> list[Finding]:
    found: list[Finding] = []
    monday = today - datetime.timedelta(days=today.weekday())
    last_week = monday - datetime.timedelta(weeks=1)
    for athlete_id, series in _series(
        athlete_ids, today, last_week - datetime.timedelta(weeks=1)
    ).items():
        if series and series[-1].tsb < limits.form_below:
            run_start = series[-1].date
            for day in reversed(series):
                if day.tsb >= limits.form_below:
                    break
                run_start = day.date
            found.append(
                Finding(
                    athlete_id=athlete_id,
                    kind="form",
                    evidence_key=f"form:{run_start.isoformat()}",
                    summary=f"Form is {series[-1].tsb:.0f} (below {limits.form_below:.0f}) "
                    f"since {run_start:%a %d %b}",
                    occurred_on=run_start,
                    source="fitness",
                )
            )
        week = {day.date: day.load for day in series}
        before = sum(week.get(last_week - datetime.timedelta(days=7 - n), 0.0) for n in range(7))
        after = sum(week.get(last_week + datetime.timedelta(days=n), 0.0) for n in range(7))
        if before >= MIN_LOAD_FOR_JUMP and after > before * (1 + limits.load_jump_percent / 100):
            jump = round((after / before - 1) * 100)
            found.append(
                Finding(
                    athlete_id=athlete_id,
                    kind="load_jump",
                    evidence_key=f"load:{last_week.isoformat()}",
                    summary=f"Weekly load up {jump} % (week of {last_week:%d %b}: {after:.0f} "
                    f"points, week before: {before:.0f})",
                    occurred_on=last_week,
                    source="fitness",
                )
            )
    since = today - datetime.timedelta(days=limits.note_days)
    for row in (
        Activity.objects.filter(athlete_id__in=athlete_ids, local_date__gte=since)
        .exclude(notes="")
        .values("pk", "athlete_id", "name", "notes", "local_date")
    ):
        finding = pain_finding(
            athlete_id=row["athlete_id"],
            key=f"activity:{row['pk']}",
            text=f"{row['name']}: {row['notes']}" if row["name"] else row["notes"],
            source="workout note",
            on=row["local_date"],
            link=reverse("admin:training_activity_change", args=[row["pk"]]),
            limits=limits,
        )
        if finding:
            found.append(finding)
    return found


def sections(athlete: Any, today: datetime.date) -> list[Section]:
    """The calendar (the last four weeks, this one and the next, planned against done with the
    compliance colours) and the fitness chart with the plan's projection."""
    monday = today - datetime.timedelta(days=today.weekday())
    start = monday - datetime.timedelta(weeks=CALENDAR_WEEKS_BACK)
    days = list(
        calendar_days(
            athlete=athlete, start=start, end=monday + datetime.timedelta(days=13), today=today
        ).values()
    )
    series = selectors.fitness_series(
        athlete=athlete,
        start=today - datetime.timedelta(days=CHART_DAYS),
        end=today,
        project_until=today + datetime.timedelta(days=PROJECTION_DAYS),
    )
    chart = {
        "dates": [d.date.isoformat() for d in series],
        "load": [round(d.load, 1) for d in series],
        "ctl": [round(d.ctl, 1) for d in series],
        "atl": [round(d.atl, 1) for d in series],
        "tsb": [round(d.tsb, 1) for d in series],
        "projected": [d.projected for d in series],
    }
    return [
        Section(
            "Calendar",
            "training/coaching/calendar.html",
            {
                "weeks": [days[i : i + 7] for i in range(0, len(days), 7)],
                "calendar_url": reverse("training_coach:calendar", args=[athlete.pk]),
            },
            10,
        ),
        Section(
            "Fitness, fatigue and form", "training/coaching/fitness.html", {"chart": chart}, 20
        ),
    ]
