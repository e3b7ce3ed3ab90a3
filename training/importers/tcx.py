"""TCX files (Garmin Training Center) read with defusedxml: one activity per ``Activity``, its
laps summed, its trackpoints as streams (heart rate, speed and watts from the ``TPX`` extension,
altitude). The start is the first lap's StartTime (the Id may be cut to the minute), else the
Id. Whitespace before the XML declaration is read past; a heart rate of 0 (no strap) is no
value."""

from __future__ import annotations

import datetime
import itertools

import defusedxml.ElementTree as SafeET

from .base import ActivityData, FileFormatError, Parsed, downsample, sport_from_text
from .gpx import check_xml, xml_start


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(element, name: str):
    for child in element:
        if _local(child.tag) == name:
            return child
    return None


def _children(element, name: str) -> list:
    return [child for child in element if _local(child.tag) == name]


def _descendant_text(element, *path: str) -> str | None:
    node = element
    for name in path:
        node = _child(node, name) if node is not None else None
    return node.text.strip() if node is not None and node.text else None


def _float(element, *path: str, where: str) -> float | None:
    text = _descendant_text(element, *path)
    if text is None:
        return None
    try:
        return float(text)
    except ValueError as exc:
        raise FileFormatError(f"{'/'.join(path)} {text!r} is not a number", where=where) from exc


def _time(text: str | None, where: str) -> datetime.datetime:
    if not text:
        raise FileFormatError("missing time", where=where)
    try:
        value = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise FileFormatError(f"time {text!r} is not ISO 8601", where=where) from exc
    return value if value.tzinfo else value.replace(tzinfo=datetime.UTC)


def _extension(point, name: str) -> float | None:
    extensions = _child(point, "Extensions")
    if extensions is None:
        return None
    for element in extensions.iter():
        if _local(element.tag) == name and element.text:
            try:
                return float(element.text)
            except ValueError:
                return None
    return None


def parse(name: str, data: bytes) -> Parsed:
    data = xml_start(data)
    check_xml(data, "TCX")
    root = SafeET.fromstring(data)
    activities = _child(root, "Activities")
    if _local(root.tag) != "TrainingCenterDatabase" or activities is None:
        raise FileFormatError("not a TCX file (no TrainingCenterDatabase/Activities)", where="file")
    parsed = Parsed(format="tcx")
    for number, activity in enumerate(_children(activities, "Activity"), start=1):
        where = f"activity {number}"
        laps = _children(activity, "Lap")
        lap_starts = [
            _time(lap.get("StartTime"), f"{where}, lap {n}")
            for n, lap in enumerate(laps, start=1)
            if lap.get("StartTime")
        ]
        # Garmin Connect writes the Id cut to the minute (11:11:00 for a start at 11:11:03);
        # the first lap's StartTime is when the activity began
        start = min(lap_starts) if lap_starts else _time(_descendant_text(activity, "Id"), where)
        totals = {"time": 0.0, "distance": 0.0, "calories": 0.0}
        max_hr = None
        hr_weighted = 0.0
        hr_seconds = 0.0
        lap_end = 0.0  # seconds from the start to the end of the latest lap
        points: list = []
        for lap_number, lap in enumerate(laps, start=1):
            lap_where = f"{where}, lap {lap_number}"
            seconds = _float(lap, "TotalTimeSeconds", where=lap_where) or 0.0
            totals["time"] += seconds
            if lap.get("StartTime"):
                lap_start = _time(lap.get("StartTime"), lap_where)
                lap_end = max(lap_end, (lap_start - start).total_seconds() + seconds)
            totals["distance"] += _float(lap, "DistanceMeters", where=lap_where) or 0.0
            totals["calories"] += _float(lap, "Calories", where=lap_where) or 0.0
            lap_avg = _float(lap, "AverageHeartRateBpm", "Value", where=lap_where)
            if lap_avg:  # a lap without a strap (no value, or 0) leaves the average alone
                hr_weighted += lap_avg * seconds
                hr_seconds += seconds
            lap_max = _float(lap, "MaximumHeartRateBpm", "Value", where=lap_where)
            if lap_max:
                max_hr = max(max_hr or 0, lap_max)
            for track in _children(lap, "Track"):
                points.extend(_children(track, "Trackpoint"))
        rows = []
        for point_number, point in enumerate(points, start=1):
            point_where = f"{where}, trackpoint {point_number}"
            rows.append(
                {
                    "t": (
                        _time(_descendant_text(point, "Time"), point_where) - start
                    ).total_seconds(),
                    "hr": _float(point, "HeartRateBpm", "Value", where=point_where) or None,
                    "alt": _float(point, "AltitudeMeters", where=point_where),
                    "speed": _extension(point, "Speed"),
                    "power": _extension(point, "Watts"),
                }
            )
        known_hr = [r["hr"] for r in rows if r["hr"] is not None]
        known_power = [r["power"] for r in rows if r["power"] is not None]
        avg_hr = hr_weighted / hr_seconds if hr_weighted and hr_seconds else None
        if avg_hr is None and known_hr:
            avg_hr = sum(known_hr) / len(known_hr)
        if max_hr is None and known_hr:
            max_hr = max(known_hr)
        # the latest trackpoint or lap end, whatever the order; the laps' sum without either
        elapsed = max(max((r["t"] for r in rows), default=0), lap_end) or totals["time"]
        moving = min(totals["time"], elapsed) if elapsed else totals["time"]
        gain = 0.0
        alts = [r["alt"] for r in rows if r["alt"] is not None]
        for before, after in itertools.pairwise(alts):
            gain += max(0.0, after - before)
        parsed.activities.append(
            ActivityData(
                sport=sport_from_text(activity.get("Sport", "")),
                start=start,
                name=f"{activity.get('Sport', 'Activity')}",
                moving_s=round(moving) or None,
                elapsed_s=round(elapsed) or None,
                distance_m=round(totals["distance"], 1) or None,
                elevation_gain_m=round(gain, 1) if alts else None,
                avg_hr=round(avg_hr) if avg_hr else None,
                max_hr=round(max_hr) if max_hr else None,
                avg_speed_mps=round(totals["distance"] / totals["time"], 3)
                if totals["time"] and totals["distance"]
                else None,
                avg_power_w=round(sum(known_power) / len(known_power)) if known_power else None,
                calories=round(totals["calories"]) or None,
                device_id=(_descendant_text(activity, "Creator", "Name") or "")[:100],
                streams=downsample({key: [r[key] for r in rows] for key in rows[0]})
                if rows
                else None,
            )
        )
    if not parsed.activities:
        raise FileFormatError("the TCX file has no activity", where="file")
    return parsed
