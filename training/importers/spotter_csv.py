"""Spotter's own activity CSV and the sleep CSV.

Activities: ``date,sport,name,duration_s,distance_m,avg_hr,max_hr,elevation_m,load``; ``date`` is
an ISO date or date-time (a naive one is in the athlete's time zone), ``sport`` one of RUNNING,
CYCLING, SWIMMING, STRENGTH, OTHER, ``load`` may be empty (then it is estimated).

Sleep: ``date,duration_min,score,resting_hr,hrv`` (``date`` is the morning the athlete woke up).
"""

from __future__ import annotations

from .base import ActivityData, FileFormatError, Parsed, SleepData
from .csv_common import integer, iso_date_or_datetime, number, rows

ACTIVITY_HEADER = [
    "date",
    "sport",
    "name",
    "duration_s",
    "distance_m",
    "avg_hr",
    "max_hr",
    "elevation_m",
    "load",
]
SLEEP_HEADER = ["date", "duration_min", "score", "resting_hr", "hrv"]
SPORTS = ("RUNNING", "CYCLING", "SWIMMING", "STRENGTH", "OTHER")


def _cells(row: list[str], width: int, line: int) -> list[str]:
    if len(row) != width:
        raise FileFormatError(f"expected {width} columns, found {len(row)}", where=f"line {line}")
    return [cell.strip() for cell in row]


def parse_activities(name: str, data: bytes) -> Parsed:
    table = rows(data)
    parsed = Parsed(format="spotter-csv")
    for line, row in enumerate(table[1:], start=2):
        day_text, sport, title, duration, distance, avg_hr, max_hr, elevation, load = _cells(
            row, len(ACTIVITY_HEADER), line
        )
        if sport.upper() not in SPORTS:
            raise FileFormatError(
                f"sport {sport!r} is not one of {', '.join(SPORTS)}", where=f"line {line}"
            )
        day, start = iso_date_or_datetime(day_text, line=line)
        seconds = integer(duration, field="duration_s", line=line, low=1, high=172_800)
        if seconds is None:
            raise FileFormatError("duration_s is required", where=f"line {line}")
        activity = ActivityData(
            sport=sport.upper(),
            start=start,
            day=day,
            name=title[:200],
            moving_s=seconds,
            elapsed_s=seconds,
            distance_m=number(distance, field="distance_m", line=line, low=0, high=1_000_000),
            avg_hr=integer(avg_hr, field="avg_hr", line=line, low=25, high=250),
            max_hr=integer(max_hr, field="max_hr", line=line, low=25, high=250),
            elevation_gain_m=number(elevation, field="elevation_m", line=line, low=0, high=20_000),
            file_load=number(load, field="load", line=line, low=0, high=2_000),
        )
        if day is not None:
            activity.key = f"day:{day}:{activity.sport}:{activity.name}:{seconds}"
        parsed.activities.append(activity)
    return parsed


def parse_sleep(name: str, data: bytes) -> Parsed:
    table = rows(data)
    parsed = Parsed(format="sleep-csv")
    for line, row in enumerate(table[1:], start=2):
        day_text, duration, score, resting_hr, hrv = _cells(row, len(SLEEP_HEADER), line)
        night, moment = iso_date_or_datetime(day_text, line=line)
        parsed.sleep.append(
            SleepData(
                night=night or moment.date(),
                duration_min=integer(duration, field="duration_min", line=line, low=0, high=1440),
                score=integer(score, field="score", line=line, low=0, high=100),
                resting_hr=integer(resting_hr, field="resting_hr", line=line, low=20, high=150),
                hrv_ms=number(hrv, field="hrv", line=line, low=1, high=400),
            )
        )
    return parsed
