"""GPX tracks read with gpxpy: one activity per track; heart rate, cadence and power from the
Garmin TrackPointExtension (``gpxtpx:hr``) or any extension element named ``hr``/``power``.
The XML is checked with defusedxml first (no entity expansion).

- Distance is measured on the ground (2D, gpxpy's ``length_2d``): a watch's or Strava's
  distance is horizontal, and GPS elevation noise of a few metres a point, counted as 3D
  distance, adds hundreds of metres to a run and more than doubles a short track.
- The duration is the span from the earliest to the latest time, whatever the order of the
  points (a device's clock can step back), and moving time never exceeds it; the path (and so
  the distance) keeps the file's order, which is the order the device recorded positions in.
- A track with no timed point is skipped with a note; the file fails only if no track is left.
- Strava writes ``<type>`` as a number: a name such as "Morning Swim" says the sport then.
"""

from __future__ import annotations

import datetime
import itertools

import defusedxml.ElementTree as SafeET
import gpxpy
import gpxpy.gpx

from .base import ActivityData, FileFormatError, Parsed, downsample, sport_from_text

# Strava's numeric activity types in its GPX export, as its own files pair them with names
# ("Morning Swim" 16, "Zwift Session" 17 VirtualRide) and other readers of these files map them.
# Other codes fall back to the name, and a clear name wins over any code.
STRAVA_TYPES = {"1": "CYCLING", "9": "RUNNING", "16": "SWIMMING", "17": "CYCLING"}


def xml_start(data: bytes) -> bytes:
    """The document from its first ``<``: whitespace (or a byte-order mark followed by
    whitespace) before the XML declaration is a common export slip every device tool reads
    past, while an XML parser refuses the file for it."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.lstrip(b" \t\r\n")


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


def _sport(track, gpx) -> str:
    kind = (track.type or "").strip()
    names = " ".join(x for x in (track.name, gpx.name) if x)
    if kind and not kind.isdigit():
        sport = sport_from_text(kind)
        return sport if sport != "OTHER" else sport_from_text(names)
    sport = sport_from_text(names)
    return sport if sport != "OTHER" else STRAVA_TYPES.get(kind, "OTHER")


def _heart_rate(value: float | None) -> float | None:
    return value if value else None  # 0: no strap


def parse(name: str, data: bytes) -> Parsed:
    data = xml_start(data)
    check_xml(data, "GPX")
    try:
        gpx = gpxpy.parse(data.decode("utf-8-sig"))
    except (gpxpy.gpx.GPXException, UnicodeDecodeError, ValueError) as exc:
        raise FileFormatError(f"not a readable GPX file ({exc})", where="file") from exc
    parsed = Parsed(format="gpx")
    for number, track in enumerate(gpx.tracks, start=1):
        timed = sorted(
            (p for segment in track.segments for p in segment.points if p.time is not None),
            key=lambda p: p.time,
        )
        if not timed:
            parsed.notes.append(f"track {number} has no timed points and was skipped")
            continue
        start = timed[0].time
        if start.tzinfo is None:
            start = start.replace(tzinfo=datetime.UTC)
        elapsed = (timed[-1].time - timed[0].time).total_seconds()
        moving = track.get_moving_data()
        uphill = track.get_uphill_downhill().uphill
        distance = track.length_2d()
        hrs = [_heart_rate(_extension_value(p, ("hr", "heartrate"))) for p in timed]
        powers = [_extension_value(p, ("power", "watts")) for p in timed]
        speeds: list[float | None] = [None]
        for before, after in itertools.pairwise(timed):
            seconds = (after.time - before.time).total_seconds()
            metres = after.distance_2d(before) or 0.0
            speeds.append(round(metres / seconds, 2) if seconds > 0 else None)
        known_hr = [h for h in hrs if h is not None]
        known_power = [p for p in powers if p is not None]
        moving_s = round(elapsed)
        if moving and moving.moving_time:
            moving_s = min(round(moving.moving_time), moving_s)
        parsed.activities.append(
            ActivityData(
                sport=_sport(track, gpx),
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
        if gpx.tracks:
            raise FileFormatError("no track of the GPX file has timed points", where="file")
        raise FileFormatError("the GPX file has no track", where="file")
    return parsed
