"""FIT files (Garmin, Wahoo, Coros, Zwift…) read with fitdecode: one activity per ``session``
message, with the ``record`` messages inside its time span as streams; sleep from
``sleep_level``, ``sleep_assessment``, ``hrv_status_summary`` and ``monitoring`` messages where
present.

Read as tolerantly as the device makers' own tools read them:

- A time below 0x10000000 is relative to the device's clock (older watches, such as the
  Forerunner 70, write every time so, and compress most record headers). It is placed on the
  calendar with a ``timestamp_correlation`` message, else the ``activity`` message's local
  wall-clock time (then the start is in the athlete's time zone).
- A session without ``start_time`` starts at its first record (else at its end less its elapsed
  time).
- A heart rate of 0 is what a device writes with no strap: no value, not zero.
- An activity file without a session (a recording stopped before its summary) is computed
  from its records, with a note, when all its data is there (a file cut inside its data is
  refused: what is missing is unknown).
- A file damaged after its sessions (cut short, a wrong checksum, an undefined message) keeps
  what was read before the damage, with a note, as Garmin's own decoder returns it; a file
  damaged before any session is refused with the place of the damage.
"""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass, field

import fitdecode

from .base import ActivityData, FileFormatError, Parsed, SleepData, downsample, sport_from_text

SPORTS = {
    "running": "RUNNING",
    "cycling": "CYCLING",
    "swimming": "SWIMMING",
    "training": "STRENGTH",
    "fitness_equipment": "OTHER",
}

RELATIVE_LIMIT = 0x10000000  # FIT: a date_time below this counts seconds of the device's clock


def _value(frame, *names):
    for name in names:
        if frame.has_field(name):
            value = frame.get_value(name, fallback=None)
            if value is not None:
                return value
    return None


def _aware(value) -> datetime.datetime | None:
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.UTC)
    return None


def _int(value) -> int | None:
    return None if value is None else round(float(value))


def _heart_rate(value) -> int | None:
    """0 (or 255, FIT's "invalid" that some writers leave unmasked) means no strap."""
    rate = _int(value)
    return rate if rate and 0 < rate < 255 else None


def _sport(value) -> str:
    if value is None:
        return "OTHER"
    text = str(value).lower()
    return SPORTS.get(text) or sport_from_text(text)


class _Clock:
    """Turns a FIT time (an aware datetime, or seconds of the device's clock) into a datetime:
    aware when the file ties its clock to UTC, naive local wall-clock time when it only gives
    its local time (the athlete's time zone is then assumed), None when it gives neither."""

    def __init__(self) -> None:
        self.utc_offset: datetime.datetime | None = None  # absolute time at device second 0
        self.local_offset: datetime.datetime | None = None  # local wall time at device second 0

    def see(self, frame) -> None:
        if frame.name == "timestamp_correlation":
            absolute = _aware(_value(frame, "timestamp"))
            system = _value(frame, "system_timestamp")
            if absolute is not None and isinstance(system, int | float):
                self.utc_offset = absolute - datetime.timedelta(seconds=system)
        elif frame.name == "activity":
            local = _value(frame, "local_timestamp")
            stamp = _value(frame, "timestamp")
            relative = isinstance(stamp, int | float) and stamp < RELATIVE_LIMIT
            if relative and isinstance(local, datetime.datetime) and local.year > 1990:
                naive = local.replace(tzinfo=None)
                self.local_offset = naive - datetime.timedelta(seconds=stamp)

    def when(self, value) -> datetime.datetime | None:
        if isinstance(value, datetime.datetime):  # fitdecode's are aware; naive ones are ours
            return value
        if isinstance(value, int | float) and 0 <= value < RELATIVE_LIMIT:
            if self.utc_offset is not None:
                return self.utc_offset + datetime.timedelta(seconds=value)
            if self.local_offset is not None:
                return self.local_offset + datetime.timedelta(seconds=value)
        return None


@dataclass
class _Contents:
    sessions: list[dict] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)
    sleep_levels: list[datetime.datetime] = field(default_factory=list)
    sleep: dict = field(default_factory=dict)
    device: str = ""
    file_type: str | None = None
    sport: object = None  # the ``sport`` message's, for a file without a session
    clock: _Clock = field(default_factory=_Clock)
    damage: FileFormatError | None = None  # where and how the file stopped being readable
    whole: bool = False  # every data byte the header announces is there (a checksum may not be)


def _read(data: bytes) -> _Contents:
    """Every message up to the end, or up to the damage: Garmin's own decoder returns the
    messages it read before an error along with the error (a file cut short, with a wrong
    checksum or an undefined message after its sessions still holds them)."""
    out = _Contents()
    if len(data) >= 12:
        out.whole = len(data) >= data[0] + int.from_bytes(data[4:8], "little")
    index = 0
    try:
        with fitdecode.FitReader(io.BytesIO(data), check_crc=fitdecode.CrcCheck.RAISE) as reader:
            for frame in reader:
                if not isinstance(frame, fitdecode.FitDataMessage):
                    continue
                index += 1
                out.clock.see(frame)
                _take(frame, out)
    except Exception as exc:  # fitdecode raises FitError, struct and value errors alike
        out.damage = FileFormatError(
            f"not a readable FIT file ({exc})", where=f"record {index + 1}"
        )
    return out


def _take(frame, out: _Contents) -> None:
    if frame.name == "file_id":
        serial = _value(frame, "serial_number")
        maker = _value(frame, "manufacturer")
        out.device = " ".join(str(x) for x in (maker, serial) if x is not None)
        out.file_type = str(_value(frame, "type") or "") or None
    elif frame.name == "session":
        out.sessions.append({f.name: f.value for f in frame.fields})
    elif frame.name == "sport":
        out.sport = _value(frame, "sport")
    elif frame.name == "record":
        out.records.append(
            {
                "ts": _value(frame, "timestamp"),
                "hr": _heart_rate(_value(frame, "heart_rate")),
                "speed": _value(frame, "enhanced_speed", "speed"),
                "power": _value(frame, "power"),
                "alt": _value(frame, "enhanced_altitude", "altitude"),
                "distance": _value(frame, "distance"),
            }
        )
    elif frame.name == "sleep_level":
        ts = _aware(_value(frame, "timestamp"))
        if ts is not None:
            out.sleep_levels.append(ts)
    elif frame.name == "sleep_assessment":
        out.sleep["score"] = _int(_value(frame, "overall_sleep_score"))
    elif frame.name == "hrv_status_summary":
        out.sleep["hrv_ms"] = _value(frame, "last_night_average")
    elif frame.name == "monitoring" and _value(frame, "resting_heart_rate"):
        out.sleep["resting_hr"] = _int(_value(frame, "resting_heart_rate"))


def _session_from_records(records: list[dict], sport) -> dict:
    """What a session would say, from the records of an activity file that has none (a
    recording cut off before its summary, as a Sigma ROX left a 113 km ride)."""
    first, last = records[0]["ts"], records[-1]["ts"]
    rates = [r["hr"] for r in records if r["hr"] is not None]
    distances = [r["distance"] for r in records if r["distance"] is not None]
    return {
        "start_time": first,
        "total_elapsed_time": (last - first).total_seconds(),
        "total_distance": max(distances) if distances else None,
        "avg_heart_rate": round(sum(rates) / len(rates)) if rates else None,
        "max_heart_rate": max(rates) if rates else None,
        "sport": sport,
    }


def parse(name: str, data: bytes) -> Parsed:
    found = _read(data)
    for record in found.records:
        record["ts"] = found.clock.when(record["ts"])
    records = [r for r in found.records if r["ts"] is not None]
    if any(r["ts"].tzinfo for r in records):  # device-clock records beside real times: the
        records = [r for r in records if r["ts"].tzinfo]  # real times alone are certain
    records.sort(key=lambda r: r["ts"])
    parsed = Parsed(format="fit")
    sessions = found.sessions
    recorded = found.damage is None or found.whole  # a file cut inside its data is refused
    if not sessions and recorded and found.file_type in (None, "activity") and len(records) > 1:
        sessions = [_session_from_records(records, found.sport)]
        parsed.notes.append(
            f"the file has no session summary: the activity is computed from its "
            f"{len(records)} records"
        )
    if found.damage is not None:
        if not sessions and not found.sleep_levels:
            raise found.damage
        kept = f"{len(sessions)} session(s)" if sessions else "the sleep data"
        parsed.notes.insert(0, f"{found.damage}; kept what was read before it: {kept}")
    previous_end = None
    for number, session in enumerate(sessions, start=1):
        activity = _activity(session, records, found.device, number, found.clock, previous_end)
        parsed.activities.append(activity)
        previous_end = activity.start + datetime.timedelta(seconds=activity.elapsed_s or 0)
    if found.sleep_levels:
        first, last = min(found.sleep_levels), max(found.sleep_levels)
        parsed.sleep.append(
            SleepData(
                night=last.date(),
                duration_min=round((last - first).total_seconds() / 60),
                score=found.sleep.get("score"),
                resting_hr=found.sleep.get("resting_hr"),
                hrv_ms=found.sleep.get("hrv_ms"),
            )
        )
    if not parsed.activities and not parsed.sleep:
        raise FileFormatError("the FIT file has no session and no sleep data", where="file")
    return parsed


def _start(session: dict, records: list[dict], clock: _Clock, previous_end, number: int):
    start = clock.when(session.get("start_time"))
    if start is not None:
        return start
    end = clock.when(session.get("timestamp"))
    mine = [
        r["ts"]
        for r in records
        if (end is None or _comparable(r["ts"], end) <= end)
        and (previous_end is None or _comparable(r["ts"], previous_end) >= previous_end)
    ]
    if mine:
        return min(mine)
    elapsed = session.get("total_elapsed_time") or session.get("total_timer_time")
    if end is not None and elapsed:
        return end - datetime.timedelta(seconds=float(elapsed))
    if any(isinstance(session.get(k), int) for k in ("start_time", "timestamp")):
        raise FileFormatError(
            "the session's times count from the device's power-on and the file gives no date "
            "to place them (no timestamp_correlation or activity local time)",
            where=f"session {number}",
        )
    raise FileFormatError(
        "the session has no start time, no timed records and no end time", where=f"session {number}"
    )


def _comparable(value: datetime.datetime, other: datetime.datetime) -> datetime.datetime:
    """Both aware or both naive (one file uses one clock, but stay safe)."""
    if (value.tzinfo is None) == (other.tzinfo is None):
        return value
    return value.replace(tzinfo=other.tzinfo)


def _activity(session: dict, records: list[dict], device: str, number: int, clock, previous_end):
    start = _start(session, records, clock, previous_end, number)
    elapsed = session.get("total_elapsed_time")
    moving = session.get("total_timer_time") or elapsed
    if elapsed and moving and moving > elapsed:  # Zwift writes a timer 1 s past the elapsed time
        moving = elapsed
    end = start + datetime.timedelta(seconds=float(elapsed or moving or 0))
    mine = [r for r in records if start <= _comparable(r["ts"], start) <= end]
    streams = None
    if mine:
        streams = downsample(
            {
                "t": [(_comparable(r["ts"], start) - start).total_seconds() for r in mine],
                "hr": [r["hr"] for r in mine],
                "speed": [r["speed"] for r in mine],
                "power": [r["power"] for r in mine],
                "alt": [r["alt"] for r in mine],
            }
        )
    speed = session.get("enhanced_avg_speed") or session.get("avg_speed")
    return ActivityData(
        sport=_sport(session.get("sport")),
        start=start,
        name=str(session.get("sport") or "").replace("_", " ").title(),
        moving_s=_int(moving),
        elapsed_s=_int(elapsed),
        distance_m=session.get("total_distance"),
        elevation_gain_m=session.get("total_ascent"),
        avg_hr=_heart_rate(session.get("avg_heart_rate")),
        max_hr=_heart_rate(session.get("max_heart_rate")),
        avg_speed_mps=speed,
        avg_power_w=_int(session.get("avg_power")),
        normalized_power_w=_int(session.get("normalized_power")),
        calories=_int(session.get("total_calories")),
        file_load=session.get("training_stress_score"),
        device_id=device[:100],
        streams=streams,
    )
