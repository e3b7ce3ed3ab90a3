"""Files shaped like the real device files the importers got wrong (issue 18), written in the
tests: each builder names the public file it mirrors and the structure it reproduces.

The public test files themselves (fitparse/fitdecode ``tests/files``, gpxpy ``test_files``,
python-tcxparser ``tests/files``) were read while fixing the importers; their measured
figures are in the tests that mirror them.
"""

from __future__ import annotations

import datetime
import struct
from dataclasses import dataclass

from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.messages.session_message import SessionMessage
from fit_tool.profile.profile_type import FileType, Manufacturer
from fitdecode.utils import compute_crc

UTC = datetime.UTC
FIT_EPOCH = datetime.datetime(1989, 12, 31, tzinfo=UTC)


def _ms(moment: datetime.datetime) -> int:
    return round(moment.timestamp() * 1000)


@dataclass
class Leg:
    sport: object  # fit_tool Sport, or a raw sport number
    start: datetime.datetime
    seconds: int
    metres: float
    hr: int | None = 140  # None: no strap (the device then writes 0)
    timer_s: int | None = None  # the time not paused, when less than ``seconds``


def fit_sessions(
    legs: list[Leg],
    *,
    serial: int = 3915525118,
    maker=Manufacturer.GARMIN,
    start_time: bool = True,
    summary: bool = True,
    file_type=FileType.ACTIVITY,
) -> bytes:
    """A FIT activity with one session per leg and a record every 5 s.

    ``hr=None`` writes heart rate 0 in records and session, as Zwift does without a strap
    (fitparse ``tests/files/null_compressed_speed_dist.fit``: avg_heart_rate 0, max 0).
    Several legs are a multisport file (fitparse ``sample_mulitple_header.fit``: swim,
    transition, bike, transition, run). ``start_time=False`` leaves the session's start_time
    out, so only its records say when it began. ``summary=False`` writes no session at all, as
    a recording cut off before its summary (fitparse ``tests/files/nick.fit``, a Sigma ROX
    ride of 113.5 km: 14391 records, no session, no checksum)."""
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    file_id = FileIdMessage()
    file_id.type = file_type
    file_id.manufacturer = maker.value
    file_id.product = 1
    file_id.serial_number = serial
    file_id.time_created = _ms(legs[0].start)
    builder.add(file_id)
    for leg in legs:
        for second in range(0, leg.seconds + 1, 5):
            record = RecordMessage()
            record.timestamp = _ms(leg.start + datetime.timedelta(seconds=second))
            record.heart_rate = 0 if leg.hr is None else leg.hr
            record.distance = leg.metres * second / leg.seconds
            builder.add(record)
        if not summary:
            continue
        session = SessionMessage()
        session.timestamp = _ms(leg.start + datetime.timedelta(seconds=leg.seconds))
        if start_time:
            session.start_time = _ms(leg.start)
        session.sport = leg.sport
        session.total_elapsed_time = leg.seconds
        session.total_timer_time = leg.timer_s or leg.seconds
        session.total_distance = leg.metres
        session.avg_heart_rate = 0 if leg.hr is None else leg.hr
        session.max_heart_rate = 0 if leg.hr is None else leg.hr + 10
        builder.add(session)
    return builder.build().to_bytes()


# --- a FIT file of an old watch: times on the device's clock, compressed record headers -------


def _definition(local: int, global_number: int, fields: list[tuple[int, int, int]]) -> bytes:
    out = struct.pack("<BBBHB", 0x40 | local, 0, 0, global_number, len(fields))
    return out + b"".join(struct.pack("<BBB", *field) for field in fields)


UINT8, ENUM, UINT16, UINT32, UINT32Z = 0x02, 0x00, 0x84, 0x86, 0x8C


def fit_device_clock(
    *,
    power_on_local: datetime.datetime,
    start_s: int = 17217864,
    seconds: int = 3883,
    metres: float = 10248.67,
    hr: int = 170,
    fix_at_s: int | None = None,
) -> bytes:
    """Like fitparse ``tests/files/compressed-speed-distance.fit`` (Forerunner 70): every time
    counts seconds of the device's clock (below 0x10000000; there 17217864 at the start), the
    records after the first carry only a 5-bit compressed time offset in their header, and the
    only date is the ``activity`` message's local wall-clock time at its timestamp.
    ``power_on_local`` is the local wall-clock time of device second 0. From ``fix_at_s`` on,
    records carry real (UTC) times, as a device writes once it has a satellite fix."""
    body = bytearray()
    body += _definition(0, 0, [(0, 1, ENUM), (1, 2, UINT16), (3, 4, UINT32Z), (4, 4, UINT32)])
    body += struct.pack("<BBHII", 0, 4, 1, 1215347, start_s)
    # local 1: a record with its time; local 2: a record whose time is in its header
    body += _definition(1, 20, [(253, 4, UINT32), (3, 1, UINT8), (5, 4, UINT32)])
    body += _definition(2, 20, [(3, 1, UINT8), (5, 4, UINT32)])
    body += struct.pack("<BIBI", 1, start_s, hr, 0)
    for second in range(5, seconds + 1, 5):
        stamp = start_s + second
        distance = round(metres * second / seconds * 100)
        if fix_at_s is not None and second >= fix_at_s:
            real_time = power_on_local.replace(tzinfo=UTC) + datetime.timedelta(seconds=stamp)
            absolute = round((real_time - FIT_EPOCH).total_seconds())
            body += struct.pack("<BIBI", 1, absolute, hr, distance)
        else:
            body += struct.pack("<BBI", 0x80 | (2 << 5) | (stamp & 0x1F), hr, distance)
    end_s = start_s + seconds
    body += _definition(
        3,
        18,
        [
            (253, 4, UINT32),
            (2, 4, UINT32),
            (7, 4, UINT32),
            (8, 4, UINT32),
            (9, 4, UINT32),
            (5, 1, ENUM),
            (16, 1, UINT8),
            (17, 1, UINT8),
        ],
    )
    body += struct.pack(
        "<BIIIIIBBB",
        3,
        end_s,
        start_s,
        seconds * 1000,
        (seconds - 110) * 1000,
        round(metres * 100),
        1,  # running
        hr,
        hr + 20,
    )
    local_end = power_on_local + datetime.timedelta(seconds=end_s)
    local_value = round((local_end.replace(tzinfo=datetime.UTC) - FIT_EPOCH).total_seconds())
    body += _definition(4, 34, [(253, 4, UINT32), (5, 4, UINT32), (1, 2, UINT16)])
    body += struct.pack("<BIIH", 4, end_s, local_value, 1)
    header = struct.pack("<BBHI4s", 14, 0x10, 2093, len(body), b".FIT")
    header += struct.pack("<H", compute_crc(header))
    data = header + bytes(body)
    return data + struct.pack("<H", compute_crc(data))


# --- TCX and GPX ------------------------------------------------------------------------------


def _iso(moment: datetime.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def tcx_pool_swim(
    *, start: datetime.datetime, laps: list[tuple[int, float]], hr: int = 142, rest_s: int = 0
):
    """A pool swim as Garmin Connect exports it to TCX: ``Sport="Other"`` (TCX knows only
    Running, Biking and Other), one Lap per length set with its time and distance and no
    trackpoint positions, and its ``Id`` cut to the minute while the first lap's StartTime has
    the second (Garmin Connect's exports of a Forerunner 935 pool swim: Id 11:11:00, first lap
    11:11:03; python-tcxparser ``tests/files/sup_activity_1.tcx`` shows the same Sport="Other"
    for a non-running, non-biking activity). ``rest_s`` is the pause between
    laps: a lap's time leaves it out, its next StartTime counts it."""
    out = []
    moment = start
    for seconds, metres in laps:
        out.append(
            f'<Lap StartTime="{_iso(moment)}"><TotalTimeSeconds>{seconds}</TotalTimeSeconds>'
            f"<DistanceMeters>{metres}</DistanceMeters><Calories>40</Calories>"
            f"<AverageHeartRateBpm><Value>{hr}</Value></AverageHeartRateBpm>"
            "<Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod></Lap>"
        )
        moment += datetime.timedelta(seconds=seconds + rest_s)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">'
        f'<Activities><Activity Sport="Other"><Id>{_iso(start.replace(second=0))}</Id>'
        f"{''.join(out)}"
        "<Creator><Name>Forerunner 935</Name></Creator></Activity></Activities>"
        "</TrainingCenterDatabase>\n"
    ).encode()


def gpx_track(
    points: list[tuple[float, float, float | None, datetime.datetime | None]],
    *,
    name: str = "Morning Run",
    type_: str | None = "running",
    creator: str = "StravaGPX",
    hr: int | None = None,
) -> str:
    """One ``<trk>`` of (lat, lon, elevation, time) points, as Strava's export writes it."""
    rows = []
    for lat, lon, ele, moment in points:
        parts = [f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}">']
        if ele is not None:
            parts.append(f"<ele>{ele}</ele>")
        if moment is not None:
            parts.append(f"<time>{moment.strftime('%Y-%m-%dT%H:%M:%SZ')}</time>")
        if hr is not None:
            parts.append(
                "<extensions><gpxtpx:TrackPointExtension>"
                f"<gpxtpx:hr>{hr}</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>"
            )
        rows.append("".join(parts) + "</trkpt>")
    kind = f"<type>{type_}</type>" if type_ is not None else ""
    return f"<trk><name>{name}</name>{kind}<trkseg>{''.join(rows)}</trkseg></trk>"


def gpx(*tracks: str, creator: str = "StravaGPX") -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<gpx creator="{creator}" version="1.1" xmlns="http://www.topografix.com/GPX/1/1" '
        'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">'
        + "".join(tracks)
        + "</gpx>\n"
    ).encode()
