"""GPX tracks read with gpxpy: one activity per track; heart rate, cadence and power from the
Garmin TrackPointExtension (``gpxtpx:hr``) or any extension element named ``hr``/``power``.
The XML is checked with defusedxml first (no entity expansion)."""

from __future__ import annotations

import datetime
import itertools

import defusedxml.ElementTree as SafeET
import gpxpy
import gpxpy.gpx

from .base import ActivityData, FileFormatError, Parsed, downsample, sport_from_text


def check_xml(data: bytes, kind: str) -> None:
    try:
        SafeET.fromstring(data)
    except SafeET.ParseError as exc:
        line, column = getattr(exc, "position", (None, None))
        raise FileFormatError(
            f"not well-formed {kind} XML ({exc.msg if hasattr(exc, 'msg') else exc})",
            where=f"line {line}, column {column}" if line else "",
        ) from exc
    except Exception as exc:  # defusedxml forbids entities and DTDs
        raise FileFormatError(f"unsafe or unreadable {kind} XML ({exc})", where="file") from exc


def _extension_value(point, names: tuple[str, ...]) -> float | None:
    for extension in point.extensions:
        for element in extension.iter():
            tag = element.tag.rsplit("}", 1)[-1].lower()
            if tag in names and element.text:
                try:
                    return float(element.text)
                except ValueError:
                    return None
    return None


def parse(name: str, data: bytes) -> Parsed:
    check_xml(data, "GPX")
    try:
        gpx = gpxpy.parse(data.decode("utf-8-sig"))
    except (gpxpy.gpx.GPXException, UnicodeDecodeError, ValueError) as exc:
        raise FileFormatError(f"not a readable GPX file ({exc})", where="file") from exc
    parsed = Parsed(format="gpx")
    for number, track in enumerate(gpx.tracks, start=1):
        points = [p for segment in track.segments for p in segment.points]
        timed = [p for p in points if p.time is not None]
        if not timed:
            raise FileFormatError("the track has no timed points", where=f"track {number}")
        start = timed[0].time
        if start.tzinfo is None:
            start = start.replace(tzinfo=datetime.UTC)
        elapsed = (timed[-1].time - timed[0].time).total_seconds()
        moving = track.get_moving_data()
        uphill = track.get_uphill_downhill().uphill
        distance = track.length_3d() if any(p.elevation is not None for p in points) else None
        distance = distance or track.length_2d()
        hrs = [_extension_value(p, ("hr", "heartrate")) for p in timed]
        powers = [_extension_value(p, ("power", "watts")) for p in timed]
        speeds: list[float | None] = [None]
        for before, after in itertools.pairwise(timed):
            seconds = (after.time - before.time).total_seconds()
            metres = after.distance_2d(before) or 0.0
            speeds.append(round(metres / seconds, 2) if seconds > 0 else None)
        known_hr = [h for h in hrs if h is not None]
        known_power = [p for p in powers if p is not None]
        moving_s = round(moving.moving_time) if moving and moving.moving_time else round(elapsed)
        parsed.activities.append(
            ActivityData(
                sport=sport_from_text(track.type or gpx.name or track.name or ""),
                start=start,
                name=(track.name or gpx.name or "")[:200],
                moving_s=moving_s,
                elapsed_s=round(elapsed),
                distance_m=round(distance, 1) if distance else None,
                elevation_gain_m=round(uphill, 1) if uphill else None,
                avg_hr=round(sum(known_hr) / len(known_hr)) if known_hr else None,
                max_hr=round(max(known_hr)) if known_hr else None,
                avg_speed_mps=round(distance / moving_s, 3) if distance and moving_s else None,
                avg_power_w=round(sum(known_power) / len(known_power)) if known_power else None,
                streams=downsample(
                    {
                        "t": [(p.time - timed[0].time).total_seconds() for p in timed],
                        "hr": hrs,
                        "speed": speeds,
                        "power": powers,
                        "alt": [p.elevation for p in timed],
                    }
                ),
            )
        )
    if not parsed.activities:
        raise FileFormatError("the GPX file has no track", where="file")
    return parsed
