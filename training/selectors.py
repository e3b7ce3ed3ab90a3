"""Reads of training data for pages and the coach's read tools: plain dicts and dataclasses out,
distances and paces in the athlete's units, every query scoped to one athlete.

The coach's tools call ``last_activity``, ``activity_on``, ``activities_between``,
``sleep_recent``, ``fitness_on`` and ``compare_activities``; pages also use ``fitness_series``.
"""

from __future__ import annotations

import datetime

from django.db.models import Min, Sum

from coach.vocabulary import METRES_PER_UNIT
from programs import workout_log

from . import fitness
from .fitness import FitnessDay
from .models import Activity, AthleteProfile, SleepRecord
from .services import athlete_today, profile_for
from .units import activity_summary

MAX_ROWS = 50


def _activities(athlete, sport: str | None):
    rows = Activity.objects.filter(athlete=athlete).select_related("session__week")
    return rows.filter(sport=sport.upper()) if sport else rows


def activity_of_athlete(*, athlete, activity_id: int) -> Activity:
    """The athlete's activity; ``Activity.DoesNotExist`` for anyone else's or a deleted one."""
    return _activities(athlete, None).get(pk=activity_id)


def last_activity(*, athlete, sport: str | None = None) -> dict | None:
    activity = _activities(athlete, sport).order_by("-start", "-pk").first()
    return activity_summary(activity, profile_for(athlete=athlete)) if activity else None


def activity_on(*, athlete, date: datetime.date, sport: str | None = None) -> list[dict]:
    profile = profile_for(athlete=athlete)
    rows = _activities(athlete, sport).filter(local_date=date).order_by("start", "pk")
    return [activity_summary(a, profile) for a in rows[:MAX_ROWS]]


def activities_between(
    *,
    athlete,
    start: datetime.date,
    end: datetime.date,
    sport: str | None = None,
    limit: int = MAX_ROWS,
) -> dict:
    """At most ``limit`` (≤ 50) activities, newest first, and totals over all of them."""
    limit = max(1, min(limit, MAX_ROWS))
    profile = profile_for(athlete=athlete)
    rows = _activities(athlete, sport).filter(local_date__gte=start, local_date__lte=end)
    totals = rows.aggregate(
        seconds=Sum("moving_s"), metres=Sum("distance_m"), load=Sum("training_load")
    )
    count = rows.count()
    shown = [activity_summary(a, profile) for a in rows.order_by("-start", "-pk")[:limit]]
    per_unit = METRES_PER_UNIT[profile.distance_unit]
    return {
        "start": start.isoformat(),
        "end": end.isoformat(),
        "count": count,
        "shown": len(shown),
        "more": max(0, count - len(shown)),
        "total_hours": round((totals["seconds"] or 0) / 3600, 1),
        f"total_distance_{profile.distance_unit}": round((totals["metres"] or 0) / per_unit, 1),
        "total_load": round(totals["load"] or 0, 1),
        "activities": shown,
    }


def sleep_recent(*, athlete, days: int = 7) -> dict:
    days = max(1, min(days, 90))
    profile = profile_for(athlete=athlete)
    today = athlete_today(profile=profile)
    rows = list(
        SleepRecord.objects.filter(
            athlete=athlete, night__gt=today - datetime.timedelta(days=days), night__lte=today
        ).order_by("-night")
    )

    def mean(values):
        values = [v for v in values if v is not None]
        return round(sum(values) / len(values), 1) if values else None

    return {
        "days": days,
        "nights": [
            {
                "night": r.night.isoformat(),
                "duration_h": round(r.duration_min / 60, 2) if r.duration_min else None,
                "score": r.score,
                "resting_hr": r.resting_hr,
                "hrv_ms": r.hrv_ms,
            }
            for r in rows
        ],
        "average": {
            "duration_h": mean([r.duration_min / 60 if r.duration_min else None for r in rows]),
            "score": mean([r.score for r in rows]),
            "resting_hr": mean([r.resting_hr for r in rows]),
            "hrv_ms": mean([r.hrv_ms for r in rows]),
        },
    }


def _origin(athlete, profile: AthleteProfile) -> tuple[datetime.date | None, float, float]:
    if profile.starting_date and (
        profile.starting_ctl is not None or profile.starting_atl is not None
    ):
        return (
            profile.starting_date + datetime.timedelta(days=1),
            profile.starting_ctl or 0.0,
            profile.starting_atl or 0.0,
        )
    first = Activity.objects.filter(athlete=athlete).aggregate(first=Min("local_date"))["first"]
    return first, 0.0, 0.0


def fitness_series(
    *,
    athlete,
    start: datetime.date,
    end: datetime.date,
    project_until: datetime.date | None = None,
) -> list[FitnessDay]:
    """Daily Fitness/Fatigue/Form from ``start`` to ``max(end, project_until)``; days after the
    athlete's today use the planned loads of the program's not-completed sessions (projected)."""
    profile = profile_for(athlete=athlete)
    today = athlete_today(profile=profile)
    last_day = max(end, project_until or end)
    origin, ctl0, atl0 = _origin(athlete, profile)
    if origin is None:
        # no activity yet: everything is 0 until the first planned load, so start where the
        # window or the plan ahead starts
        origin = min(start, today + datetime.timedelta(days=1))
    origin = min(origin, last_day)
    loads: dict[datetime.date, float] = dict(
        Activity.objects.filter(
            athlete=athlete, local_date__gte=origin, local_date__lte=min(last_day, today)
        )
        .values("local_date")
        .annotate(total=Sum("training_load"))
        .values_list("local_date", "total")
    )
    if last_day > today:
        for planned in workout_log.planned_sessions(
            athlete=athlete, start=today + datetime.timedelta(days=1), end=last_day
        ):
            loads[planned.date] = loads.get(planned.date, 0.0) + fitness.planned_load(
                cardio_type=planned.cardio_type,
                cardio_minutes=planned.cardio_minutes,
                working_sets=planned.working_sets,
            )
    series = fitness.pmc(
        loads=loads,
        first_day=origin,
        last_day=last_day,
        ctl0=ctl0,
        atl0=atl0,
        ctl_days=profile.ctl_days,
        atl_days=profile.atl_days,
        projected_from=today + datetime.timedelta(days=1),
    )
    before = [
        FitnessDay(
            date=start + datetime.timedelta(days=i), load=0.0, ctl=ctl0, atl=atl0, tsb=ctl0 - atl0
        )
        for i in range(max(0, (min(origin, last_day + datetime.timedelta(days=1)) - start).days))
    ]
    return before + [day for day in series if day.date >= start]


def _point(day: FitnessDay) -> dict:
    return {
        "date": day.date.isoformat(),
        "ctl": round(day.ctl, 1),
        "atl": round(day.atl, 1),
        "tsb": round(day.tsb, 1),
        "load": round(day.load, 1),
    }


def fitness_on(*, athlete, date: datetime.date | None = None) -> dict:
    """Fitness, fatigue and form on ``date`` (default: today), their change over 7 days, and the
    projection along the plan: the end of this week and the last planned session (≤ 12 weeks)."""
    profile = profile_for(athlete=athlete)
    today = athlete_today(profile=profile)
    date = date or today
    planned = workout_log.planned_sessions(
        athlete=athlete,
        start=today + datetime.timedelta(days=1),
        end=today + datetime.timedelta(weeks=12),
    )
    week_end = date + datetime.timedelta(days=6 - date.weekday())
    plan_end = max([p.date for p in planned], default=week_end)
    until = max(week_end, plan_end) if date >= today else date
    series = fitness_series(
        athlete=athlete, start=date - datetime.timedelta(days=7), end=date, project_until=until
    )
    by_day = {d.date: d for d in series}
    now, week_ago = by_day[date], by_day[date - datetime.timedelta(days=7)]
    projection = [
        {**_point(by_day[d]), "label": label}
        for d, label in ((week_end, "end of this week"), (plan_end, "end of the plan"))
        if d > date and d in by_day
    ]
    return {
        **_point(now),
        "labels": {"ctl": "Fitness", "atl": "Fatigue", "tsb": "Form"},
        "trend_7d": {
            "ctl": round(now.ctl - week_ago.ctl, 1),
            "atl": round(now.atl - week_ago.atl, 1),
            "tsb": round(now.tsb - week_ago.tsb, 1),
        },
        "projection": projection,
    }


def compare_activities(*, athlete, ids: list[int]) -> dict:
    """Side by side (2–10 of the athlete's activities, in the order asked) with each number's
    difference from the first. Ids that aren't the athlete's are listed as missing."""
    ids = list(dict.fromkeys(ids))[:10]
    profile = profile_for(athlete=athlete)
    found = {a.pk: a for a in _activities(athlete, None).filter(pk__in=ids)}
    rows = [activity_summary(found[i], profile) for i in ids if i in found]
    numeric = [k for k, v in (rows[0].items() if rows else []) if isinstance(v, int | float)]
    numeric = [k for k in numeric if k != "id"]
    differences = [
        {
            "id": row["id"],
            **{
                k: round(row[k] - rows[0][k], 2)
                for k in numeric
                if isinstance(row.get(k), int | float) and isinstance(rows[0].get(k), int | float)
            },
        }
        for row in rows[1:]
    ]
    return {
        "activities": rows,
        "differences_from_first": differences,
        "missing_ids": [i for i in ids if i not in found],
    }


def form_on_dates(*, athlete, dates: list[datetime.date]) -> dict[datetime.date, dict]:
    """Fitness, fatigue and form on each of ``dates``: done days from activities, days after
    today from the plan's planned loads. One series for all dates, read from the database as it
    is now, so a what-if can call it before a change and inside the rolled-back preview of it."""
    if not dates:
        return {}
    series = fitness_series(
        athlete=athlete, start=min(dates), end=min(dates), project_until=max(dates)
    )
    by_day = {d.date: d for d in series}
    return {
        day: {**_point(by_day[day]), "projected": by_day[day].projected}
        for day in dates
        if day in by_day
    }
