"""Demo training data: 12 weeks of runs, rides, strength sessions and sleep up to ``today``, so the
fitness chart and its projection show something real.

``seed_training_demo`` is idempotent: every demo activity has a fixed dedupe key and every night
is unique per athlete, so a second run adds nothing. The numbers come from a seeded random
generator: the same ``today`` gives the same data. The profile's thresholds are filled in only
where the athlete left them empty.
"""

from __future__ import annotations

import datetime
import math
import random
from dataclasses import dataclass

from django.db import transaction

from coach.plan import DemoSeed

from .importers.base import ActivityData, downsample
from .models import Activity, AthleteProfile, SleepRecord, UnavailableDay
from .services import build_activity, profile_for

WEEKS = 12
# weekday → (sport, name, minutes, intensity as a fraction of threshold heart rate)
WEEK_PLAN = {
    0: ("STRENGTH", "Strength: lower body", 50, 0.78),
    1: ("RUNNING", "Easy run", 45, 0.82),
    2: ("CYCLING", "Endurance ride", 75, 0.80),
    3: ("RUNNING", "Tempo run", 50, 0.92),
    4: ("STRENGTH", "Strength: upper body", 45, 0.75),
    5: ("CYCLING", "Long ride", 120, 0.80),
    6: ("RUNNING", "Long run", 90, 0.84),
}
THRESHOLD_HR = 168


@dataclass(frozen=True)
class DemoResult:
    activities: int
    sleep: int


def _streams(rng: random.Random, *, minutes: int, hr: int, speed: float, power: int | None):
    points = minutes * 6  # one point every 10 s
    t, hrs, speeds, powers, alts = [], [], [], [], []
    for i in range(points):
        warm = min(1.0, i / 60)
        t.append(i * 10)
        hrs.append(round(hr * (0.85 + 0.15 * warm) + rng.uniform(-3, 3)))
        speeds.append(round(speed * (0.95 + 0.1 * math.sin(i / 30)) + rng.uniform(-0.2, 0.2), 2))
        powers.append(round(power * (0.9 + 0.2 * math.sin(i / 20))) if power else None)
        alts.append(round(120 + 25 * math.sin(i / 90), 1))
    return downsample({"t": t, "hr": hrs, "speed": speeds, "power": powers, "alt": alts})


def _activity(rng: random.Random, day: datetime.date, week_index: int) -> ActivityData | None:
    sport, name, minutes, intensity = WEEK_PLAN[day.weekday()]
    if week_index % 4 == 3:  # every fourth week is a lighter one
        minutes = round(minutes * 0.7)
    if rng.random() < 0.08:  # a missed day now and then
        return None
    minutes = max(20, round(minutes * rng.uniform(0.9, 1.1)))
    hr = round(THRESHOLD_HR * intensity * rng.uniform(0.98, 1.02))
    start = datetime.datetime.combine(day, datetime.time(7 if sport != "CYCLING" else 9))
    data = ActivityData(
        sport=sport,
        start=start,
        name=name,
        moving_s=minutes * 60,
        elapsed_s=minutes * 60 + rng.randint(30, 300),
        avg_hr=hr,
        max_hr=hr + rng.randint(12, 22),
        key=f"demo:{day}:{sport}",
    )
    if sport == "RUNNING":
        speed = 1000 / (rng.uniform(290, 330) - (intensity - 0.8) * 300)  # m/s from s/km
        data.distance_m = round(speed * minutes * 60, 1)
        data.elevation_gain_m = round(rng.uniform(20, 160))
        data.avg_speed_mps = round(speed, 3)
        data.streams = _streams(rng, minutes=minutes, hr=hr, speed=speed, power=None)
    elif sport == "CYCLING":
        speed = rng.uniform(7.5, 8.8)
        power = round(240 * (intensity - 0.1) * rng.uniform(0.97, 1.03))
        data.distance_m = round(speed * minutes * 60, 1)
        data.elevation_gain_m = round(rng.uniform(150, 900))
        data.avg_speed_mps = round(speed, 3)
        data.avg_power_w = power
        data.normalized_power_w = round(power * 1.05)
        data.streams = _streams(rng, minutes=minutes, hr=hr, speed=speed, power=power)
    else:
        data.rpe = rng.choice((6, 7, 7, 8))
        data.avg_hr = None
        data.max_hr = None
    return data


def seed_training_demo(*, athlete, today: datetime.date) -> DemoResult:
    """12 weeks of activities and sleep ending yesterday (today's session is for the athlete)."""
    rng = random.Random(f"spotter-demo-{today.isoformat()}")
    first = today - datetime.timedelta(weeks=WEEKS)
    with transaction.atomic():
        profile = profile_for(athlete=athlete)
        defaults = {
            "threshold_hr": THRESHOLD_HR,
            "max_hr": 188,
            "ftp_w": 240,
            "threshold_pace_s_per_km": 270,
        }
        missing = {k: v for k, v in defaults.items() if getattr(profile, k) is None}
        if missing:
            AthleteProfile.objects.filter(pk=profile.pk).update(**missing)
            profile.refresh_from_db()
        known = set(
            Activity.all_objects.filter(
                athlete=athlete, dedupe_key__startswith="demo:"
            ).values_list("dedupe_key", flat=True)
        )
        nights = set(SleepRecord.objects.filter(athlete=athlete).values_list("night", flat=True))
        activities, sleep = [], []
        for offset in range(WEEKS * 7):
            day = first + datetime.timedelta(days=offset)
            data = _activity(rng, day, offset // 7)
            if data is not None and data.key not in known:
                activities.append(
                    build_activity(
                        athlete=athlete, profile=profile, data=data, source_format="demo"
                    )
                )
            night = day + datetime.timedelta(days=1)
            # draw every number whether or not it is kept, so a re-run sees the same sequence
            hours = rng.uniform(6.2, 8.4)
            record = SleepRecord(
                athlete=athlete,
                night=night,
                duration_min=round(hours * 60),
                score=min(100, round(55 + (hours - 6) * 14 + rng.uniform(-6, 6))),
                resting_hr=round(rng.uniform(46, 54)),
                hrv_ms=round(rng.uniform(48, 72), 1),
                source="demo",
            )
            if night <= today and night not in nights:
                sleep.append(record)
        Activity.objects.bulk_create(activities, batch_size=200)
        SleepRecord.objects.bulk_create(sleep, batch_size=200)
    return DemoResult(activities=len(activities), sleep=len(sleep))


def demo(seed: DemoSeed) -> None:
    """``seed_demo``'s part of this family (``DEMO`` in ``training.tools``)."""
    training = seed_training_demo(athlete=seed.people["athlete"], today=seed.today)
    seed.lines.append(
        f"Training data: {training.activities} new activities, {training.sleep} new nights "
        "of sleep (12 weeks up to yesterday)."
    )
    # A day the athlete can't train (training.availability): the coming Saturday, at least two
    # days ahead, so a move onto it shows the warning on the card and the coach's calendar.
    saturday = seed.today + datetime.timedelta(days=(5 - seed.today.weekday()) % 7 or 7)
    if saturday - seed.today < datetime.timedelta(days=2):
        saturday += datetime.timedelta(weeks=1)
    UnavailableDay.objects.get_or_create(
        athlete=seed.people["athlete"], date=saturday, defaults={"note": "Friend's wedding"}
    )
    seed.lines.append(f"Marked {saturday:%a %d %b} as a day the athlete can't train.")
