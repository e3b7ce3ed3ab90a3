"""Strava's bulk export ``activities.csv``. Its header repeats names (two "Elapsed Time", two
"Distance", two "Max Heart Rate"…) with different units, so columns are read by position:

0 Activity ID, 1 Activity Date (UTC, "Jan 5, 2026, 7:12:34 AM"), 2 Activity Name, 3 Activity Type,
4 Activity Description, 15 Elapsed Time (s), 16 Moving Time (s), 17 Distance (m),
19 Average Speed (m/s), 20 Elevation Gain (m), 30 Max Heart Rate, 31 Average Heart Rate,
33 Average Watts, 34 Calories, 43 Perceived Exertion (1–10), 46 Weighted Average Power.
"""

from __future__ import annotations

import datetime

from .base import ActivityData, FileFormatError, Parsed, sport_from_text
from .csv_common import integer, number, rows

DATE_FORMATS = ("%b %d, %Y, %I:%M:%S %p", "%b %d, %Y %I:%M:%S %p", "%Y-%m-%d %H:%M:%S")


def is_strava(header: list[str]) -> bool:
    return len(header) > 17 and header[0] == "Activity ID" and header[1] == "Activity Date"


def _cell(row: list[str], index: int) -> str:
    return row[index].strip() if index < len(row) else ""


def _start(text: str, line: int) -> datetime.datetime:
    for fmt in DATE_FORMATS:
        try:
            return datetime.datetime.strptime(text, fmt).replace(tzinfo=datetime.UTC)
        except ValueError:
            continue
    raise FileFormatError(
        f"Activity Date {text!r} is not like 'Jan 5, 2026, 7:12:34 AM'", where=f"line {line}"
    )


def parse(name: str, data: bytes) -> Parsed:
    table = rows(data)
    parsed = Parsed(format="strava-csv")
    for line, row in enumerate(table[1:], start=2):
        if len(row) < 6:
            raise FileFormatError(f"only {len(row)} columns", where=f"line {line}")

        def num(index: int, field: str, low: float, high: float, *, row=row, line=line):
            return number(_cell(row, index), field=field, line=line, low=low, high=high)

        def whole(index: int, field: str, low: float, high: float, *, row=row, line=line):
            return integer(_cell(row, index), field=field, line=line, low=low, high=high)

        elapsed = whole(15, "Elapsed Time", 0, 1e6) or whole(5, "Elapsed Time", 0, 1e6)
        distance = num(17, "Distance", 0, 1e7)
        if distance is None and _cell(row, 6):
            km = num(6, "Distance", 0, 1e5)
            distance = km * 1000 if km is not None else None
        rpe = num(43, "Perceived Exertion", 0, 10)
        parsed.activities.append(
            ActivityData(
                sport=sport_from_text(_cell(row, 3)),
                start=_start(_cell(row, 1), line),
                name=_cell(row, 2)[:200],
                notes=_cell(row, 4),
                elapsed_s=elapsed,
                moving_s=whole(16, "Moving Time", 0, 1e6) or elapsed,
                distance_m=distance,
                avg_speed_mps=num(19, "Average Speed", 0, 100),
                elevation_gain_m=num(20, "Elevation Gain", 0, 20_000),
                max_hr=whole(30, "Max Heart Rate", 0, 250) or whole(7, "Max Heart Rate", 0, 250),
                avg_hr=whole(31, "Average Heart Rate", 0, 250),
                avg_power_w=whole(33, "Average Watts", 0, 3000),
                calories=whole(34, "Calories", 0, 20_000),
                rpe=round(rpe) if rpe else None,
                normalized_power_w=whole(46, "Weighted Average Power", 0, 3000),
                device_id=f"strava:{_cell(row, 0)}",
            )
        )
    return parsed
