"""Which imported activities are already there.

An activity is identified by what it is, never by a label that differs between formats (the
same pool swim is "Swimming" in its FIT file and "Other" in its TCX file): its start to the
second, its duration and its distance, and its device where two files of one format name one.

- ``identity_key`` is the stored ``dedupe_key`` of a timed activity: start (UTC, to the second),
  duration, distance and device. The unique constraint on (athlete, dedupe_key) stops the very
  same file landing twice even from two imports at once.
- ``split_new`` also finds the same activity written differently: starts within
  ``START_TOLERANCE_S``, a duration within ``max(5 s, 2 %)`` (elapsed or moving, whichever both
  give) and a distance within ``max(50 m, 5 %)`` when both have one (a GPS track's distance is
  not the watch's). Two legs of a multisport file start at different seconds, so both import.
- An activity the file only dates (a CSV row without a time) keeps its importer's own key.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from .models import Activity

TIMED = "at:"
START_TOLERANCE_S = 1
DURATION_TOLERANCE = (5, 0.02)  # seconds, fraction
DISTANCE_TOLERANCE = (50.0, 0.05)  # metres, fraction


def identity_key(
    *,
    start: datetime.datetime,
    elapsed_s: int | None,
    moving_s: int | None,
    distance_m: float | None,
    device_id: str,
) -> str:
    moment = start.astimezone(datetime.UTC)
    seconds = elapsed_s or moving_s or 0
    metres = round(distance_m or 0)
    return f"{TIMED}{moment:%Y-%m-%dT%H:%M:%S}:{seconds}:{metres}:{device_id}"[:200]


@dataclass(frozen=True)
class _Identity:
    start: datetime.datetime
    elapsed_s: int | None
    moving_s: int | None
    distance_m: float | None
    device_id: str
    source_format: str

    @classmethod
    def of(cls, activity: Activity) -> _Identity:
        return cls(
            start=activity.start,
            elapsed_s=activity.elapsed_s,
            moving_s=activity.moving_s,
            distance_m=activity.distance_m,
            device_id=activity.device_id,
            source_format=activity.source_format,
        )


def _close(a: float, b: float, tolerance: tuple[float, float]) -> bool:
    least, fraction = tolerance
    return abs(a - b) <= max(least, fraction * max(a, b))


def same_activity(a: _Identity, b: _Identity) -> bool:
    if abs((a.start - b.start).total_seconds()) > START_TOLERANCE_S:
        return False
    one_format = a.source_format == b.source_format
    if one_format and a.device_id and b.device_id and a.device_id != b.device_id:
        return False
    mine = [x for x in (a.elapsed_s, a.moving_s) if x]
    theirs = [x for x in (b.elapsed_s, b.moving_s) if x]
    if mine and theirs and not any(_close(x, y, DURATION_TOLERANCE) for x in mine for y in theirs):
        return False
    if a.distance_m and b.distance_m:
        return _close(a.distance_m, b.distance_m, DISTANCE_TOLERANCE)
    return True


def _second(moment: datetime.datetime) -> int:
    return int(moment.timestamp())


def split_new(*, athlete, activities: list[Activity]) -> tuple[list[Activity], int]:
    """The activities not yet stored for ``athlete`` (nor twice in ``activities``), and how many
    were duplicates. Two queries, whatever the number of activities."""
    if not activities:
        return [], 0
    days = [a.local_date for a in activities]
    keys = set(
        Activity.all_objects.filter(
            athlete=athlete, local_date__gte=min(days), local_date__lte=max(days)
        ).values_list("dedupe_key", flat=True)
    )
    timed = [a for a in activities if a.dedupe_key.startswith(TIMED)]
    by_second: dict[int, list[_Identity]] = {}
    if timed:
        slack = datetime.timedelta(seconds=START_TOLERANCE_S + 1)
        rows = Activity.all_objects.filter(
            athlete=athlete,
            start__gte=min(a.start for a in timed) - slack,
            start__lte=max(a.start for a in timed) + slack,
        ).values("start", "elapsed_s", "moving_s", "distance_m", "device_id", "source_format")
        for row in rows:
            by_second.setdefault(_second(row["start"]), []).append(_Identity(**row))
    fresh: list[Activity] = []
    duplicates = 0
    for activity in activities:
        identity = _Identity.of(activity) if activity.dedupe_key.startswith(TIMED) else None
        if activity.dedupe_key in keys or (identity and _known(identity, by_second)):
            duplicates += 1
            continue
        keys.add(activity.dedupe_key)
        if identity:
            by_second.setdefault(_second(identity.start), []).append(identity)
        fresh.append(activity)
    return fresh, duplicates


def _known(identity: _Identity, by_second: dict[int, list[_Identity]]) -> bool:
    second = _second(identity.start)
    return any(
        same_activity(identity, other)
        for near in range(second - START_TOLERANCE_S - 1, second + START_TOLERANCE_S + 2)
        for other in by_second.get(near, ())
    )
