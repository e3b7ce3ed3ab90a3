"""What every importer returns: plain records (no ORM), and the error a bad file raises.

An importer is a function ``parse(name, data: bytes) -> Parsed``. It either returns every record
of the file or raises ``FileFormatError`` naming the line or record; the import service then keeps
all of the file or none of it.
"""

from __future__ import annotations

import datetime
import math
import unicodedata
from dataclasses import dataclass, field

MAX_STREAM_POINTS = 2000


class FileFormatError(ValueError):
    """The file can't be read; ``where`` says the line or record ("line 7", "record 12")."""

    def __init__(self, message: str, *, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


@dataclass
class ActivityData:
    sport: str
    start: datetime.datetime | None = None  # aware; None when only the date is known
    day: datetime.date | None = None  # the date, when the file gives no time of day
    name: str = ""
    moving_s: int | None = None
    elapsed_s: int | None = None
    distance_m: float | None = None
    elevation_gain_m: float | None = None
    avg_hr: int | None = None
    max_hr: int | None = None
    avg_speed_mps: float | None = None
    avg_power_w: int | None = None
    normalized_power_w: int | None = None
    calories: int | None = None
    rpe: int | None = None
    notes: str = ""
    file_load: float | None = None
    device_id: str = ""
    streams: dict | None = None
    key: str = ""  # set by importers whose rows have no time of day


@dataclass
class SleepData:
    night: datetime.date
    duration_min: int | None = None
    score: int | None = None
    resting_hr: int | None = None
    hrv_ms: float | None = None


@dataclass
class Parsed:
    format: str
    activities: list[ActivityData] = field(default_factory=list)
    sleep: list[SleepData] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was skipped, for the file's report line


SPORT_WORDS = (
    ("SWIMMING", ("swim", "schwimm", "natac", "natat", "nuoto", "zwem")),
    ("STRENGTH", ("strength", "weight", "kraft", "fuerza", "muscul", "forca", "forza", "gym")),
    (
        "CYCLING",
        ("cycl", "bik", "ride", "radfahr", "rad ", "cicl", "velo", "fiets", "spin", "biking"),
    ),
    ("RUNNING", ("run", "lauf", "carrera", "course", "corrida", "corsa", "hardlo", "jog")),
)


def sport_from_text(text: str) -> str:
    """Map a sport or activity type name in any of the usual languages to a ``Sport`` value."""
    word = fold(text)
    if word.upper() in {"RUNNING", "CYCLING", "SWIMMING", "STRENGTH", "OTHER"}:
        return word.upper()
    for sport, stems in SPORT_WORDS:
        if any(stem in word for stem in stems):
            return sport
    return "OTHER"


def fold(text: str) -> str:
    """Lower case without accents, for matching localized names."""
    normal = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in normal if not unicodedata.combining(c)).strip().lower()


def downsample(streams: dict[str, list], *, max_points: int = MAX_STREAM_POINTS) -> dict | None:
    """Parallel arrays cut to at most ``max_points`` by averaging buckets (``t`` takes the
    bucket's first time); series with no values at all are dropped; values are rounded."""
    times = streams.get("t") or []
    n = len(times)
    if n == 0:
        return None
    kept = {k: v for k, v in streams.items() if k != "t" and any(x is not None for x in v)}
    step = max(1, math.ceil(n / max_points))
    out: dict[str, list] = {"t": [int(times[i]) for i in range(0, n, step)]}
    for key, values in kept.items():
        series = []
        for i in range(0, n, step):
            bucket = [x for x in values[i : i + step] if x is not None]
            series.append(round(sum(bucket) / len(bucket), 2) if bucket else None)
        out[key] = series
    return out
