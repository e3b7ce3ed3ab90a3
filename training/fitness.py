"""Fitness, fatigue and form, load estimation and planned load: pure functions over plain data
(no ORM), in the spirit of GoldenCheetah's PMC. Selectors feed them rows; charts and tools only
read what they return.

Fitness (CTL), fatigue (ATL) and form (TSB), as TrainingPeaks defines them, for a daily load
``load_t`` (the sum of the day's activities' loads, 0 on a day without)::

    CTL_t = CTL_{t-1} + (load_t - CTL_{t-1}) / ctl_days      (default 42)
    ATL_t = ATL_{t-1} + (load_t - ATL_{t-1}) / atl_days      (default 7)
    TSB_t = CTL_{t-1} - ATL_{t-1}                           (form uses yesterday's values)

The series starts from CTL = ATL = 0 on the day before the first activity, unless the coach set
starting values (then they hold on the profile's starting date).

Load of an activity that brings none, first rule that applies:

1. power, when normalized (or average) power and FTP are known:
   ``TSS = duration_s × NP × IF / (FTP × 3600) × 100`` with ``IF = NP / FTP``;
2. heart rate, when average and threshold heart rate are known:
   ``hrTSS = hours × (avg_hr / threshold_hr)² × 100``;
3. session RPE, when the athlete gave one: ``minutes × RPE × 0.2`` (so an hour at RPE 8 is 96,
   close to an hour at threshold, 100);
4. a per-sport default per hour: running 60, cycling 50, swimming 55, strength 40, other 30.

Planned load of a planned session: its cardio block at a per-hour rate by type (zone 2: 50,
intervals: 80, sweet spot: 77, threshold: 90, VO2 max: 85) plus 3 points per planned working set
of the exercises not skipped.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass

SRPE_FACTOR = 0.2
SPORT_LOAD_PER_HOUR = {
    "RUNNING": 60.0,
    "CYCLING": 50.0,
    "SWIMMING": 55.0,
    "STRENGTH": 40.0,
    "OTHER": 30.0,
}
CARDIO_LOAD_PER_HOUR = {
    "zone2": 50.0,
    "intervals": 80.0,
    "sweetspot": 77.0,
    "threshold": 90.0,
    "vo2max": 85.0,
}
LOAD_PER_WORKING_SET = 3.0
DEFAULT_CTL_DAYS = 42
DEFAULT_ATL_DAYS = 7


@dataclass(frozen=True)
class FitnessDay:
    date: datetime.date
    load: float
    ctl: float
    atl: float
    tsb: float
    projected: bool = False


def pmc(
    *,
    loads: Mapping[datetime.date, float],
    first_day: datetime.date,
    last_day: datetime.date,
    ctl0: float = 0.0,
    atl0: float = 0.0,
    ctl_days: int = DEFAULT_CTL_DAYS,
    atl_days: int = DEFAULT_ATL_DAYS,
    projected_from: datetime.date | None = None,
    keep_from: datetime.date | None = None,
) -> list[FitnessDay]:
    """The series from ``first_day`` to ``last_day`` inclusive; ``ctl0``/``atl0`` hold on the day
    before ``first_day``. Days on or after ``projected_from`` are marked projected (their loads
    are planned ones). With ``keep_from``, only the days from it on are returned (the days
    before still count: the coach's roster wants two weeks of form for 200 athletes at once)."""
    if last_day < first_day:
        return []
    ctl, atl = float(ctl0), float(atl0)
    k_ctl, k_atl = 1.0 / ctl_days, 1.0 / atl_days
    days = (last_day - first_day).days + 1
    out: list[FitnessDay] = []
    append = out.append
    one = datetime.timedelta(days=1)
    day = first_day
    get = loads.get
    for _ in range(days):
        load = float(get(day, 0.0))
        tsb = ctl - atl
        ctl += (load - ctl) * k_ctl
        atl += (load - atl) * k_atl
        if keep_from is not None and day < keep_from:
            day += one
            continue
        append(
            FitnessDay(
                date=day,
                load=load,
                ctl=ctl,
                atl=atl,
                tsb=tsb,
                projected=projected_from is not None and day >= projected_from,
            )
        )
        day += one
    return out


def power_tss(*, duration_s: float, power_w: float, ftp_w: float) -> float:
    intensity = power_w / ftp_w
    return duration_s * power_w * intensity / (ftp_w * 3600) * 100


def hr_tss(*, duration_s: float, avg_hr: float, threshold_hr: float) -> float:
    return duration_s / 3600 * (avg_hr / threshold_hr) ** 2 * 100


def rpe_load(*, duration_s: float, rpe: float) -> float:
    return duration_s / 60 * rpe * SRPE_FACTOR


def default_load(*, sport: str, duration_s: float) -> float:
    return duration_s / 3600 * SPORT_LOAD_PER_HOUR.get(sport, SPORT_LOAD_PER_HOUR["OTHER"])


def estimate_load(
    *,
    sport: str,
    duration_s: float,
    file_load: float | None = None,
    power_w: float | None = None,
    ftp_w: float | None = None,
    avg_hr: float | None = None,
    threshold_hr: float | None = None,
    rpe: float | None = None,
) -> tuple[float, str]:
    """(load, method) by the first rule that applies; method is a ``LoadMethod`` value."""
    if file_load is not None and file_load >= 0:
        return round(float(file_load), 1), "FILE"
    if power_w and ftp_w and duration_s:
        return round(power_tss(duration_s=duration_s, power_w=power_w, ftp_w=ftp_w), 1), "POWER"
    if avg_hr and threshold_hr and duration_s:
        load = hr_tss(duration_s=duration_s, avg_hr=avg_hr, threshold_hr=threshold_hr)
        return round(load, 1), "HEART_RATE"
    if rpe and duration_s:
        return round(rpe_load(duration_s=duration_s, rpe=rpe), 1), "RPE"
    return round(default_load(sport=sport, duration_s=duration_s or 0), 1), "ESTIMATE"


def planned_load(
    *, cardio_type: str | None, cardio_minutes: float | None, working_sets: int
) -> float:
    load = 0.0
    if cardio_type and cardio_minutes:
        load += cardio_minutes / 60 * CARDIO_LOAD_PER_HOUR.get(cardio_type, 50.0)
    load += max(working_sets, 0) * LOAD_PER_WORKING_SET
    return round(load, 1)
