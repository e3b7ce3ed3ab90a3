"""FIT files (Garmin, Wahoo, Coros…) read with fitdecode: one activity per ``session`` message,
with the ``record`` messages inside its time span as streams; sleep from ``sleep_level``,
``sleep_assessment``, ``hrv_status_summary`` and ``monitoring`` messages where present."""

from __future__ import annotations

import datetime
import io

import fitdecode

from .base import ActivityData, FileFormatError, Parsed, SleepData, downsample, sport_from_text

SPORTS = {
    "running": "RUNNING",
    "cycling": "CYCLING",
    "swimming": "SWIMMING",
    "training": "STRENGTH",
    "fitness_equipment": "OTHER",
}


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


def _sport(value) -> str:
    if value is None:
        return "OTHER"
    text = str(value).lower()
    return SPORTS.get(text) or sport_from_text(text)


def parse(name: str, data: bytes) -> Parsed:
    sessions: list[dict] = []
    records: list[dict] = []
    sleep_levels: list[datetime.datetime] = []
    sleep: dict = {}
    device = ""
    index = 0
    try:
        with fitdecode.FitReader(io.BytesIO(data), check_crc=fitdecode.CrcCheck.RAISE) as reader:
            for frame in reader:
                if not isinstance(frame, fitdecode.FitDataMessage):
                    continue
                index += 1
                if frame.name == "file_id":
                    serial = _value(frame, "serial_number")
                    maker = _value(frame, "manufacturer")
                    device = " ".join(str(x) for x in (maker, serial) if x is not None)
                elif frame.name == "session":
                    sessions.append({f.name: f.value for f in frame.fields})
                elif frame.name == "record":
                    records.append(
                        {
                            "ts": _aware(_value(frame, "timestamp")),
                            "hr": _value(frame, "heart_rate"),
                            "speed": _value(frame, "enhanced_speed", "speed"),
                            "power": _value(frame, "power"),
                            "alt": _value(frame, "enhanced_altitude", "altitude"),
                        }
                    )
                elif frame.name == "sleep_level":
                    ts = _aware(_value(frame, "timestamp"))
                    if ts is not None:
                        sleep_levels.append(ts)
                elif frame.name == "sleep_assessment":
                    sleep["score"] = _int(_value(frame, "overall_sleep_score"))
                elif frame.name == "hrv_status_summary":
                    sleep["hrv_ms"] = _value(frame, "last_night_average")
                elif frame.name == "monitoring" and _value(frame, "resting_heart_rate"):
                    sleep["resting_hr"] = _int(_value(frame, "resting_heart_rate"))
    except Exception as exc:  # fitdecode raises FitError, struct and value errors alike
        raise FileFormatError(
            f"not a readable FIT file ({exc})", where=f"record {index + 1}"
        ) from exc
    parsed = Parsed(format="fit")
    for number, session in enumerate(sessions, start=1):
        parsed.activities.append(_activity(session, records, device, number))
    if sleep_levels:
        first, last = min(sleep_levels), max(sleep_levels)
        parsed.sleep.append(
            SleepData(
                night=last.date(),
                duration_min=round((last - first).total_seconds() / 60),
                score=sleep.get("score"),
                resting_hr=sleep.get("resting_hr"),
                hrv_ms=sleep.get("hrv_ms"),
            )
        )
    if not parsed.activities and not parsed.sleep:
        raise FileFormatError("the FIT file has no session and no sleep data", where="file")
    return parsed


def _activity(session: dict, records: list[dict], device: str, number: int) -> ActivityData:
    start = _aware(session.get("start_time"))
    if start is None:
        raise FileFormatError("the session has no start time", where=f"session {number}")
    elapsed = session.get("total_elapsed_time")
    moving = session.get("total_timer_time") or elapsed
    end = start + datetime.timedelta(seconds=float(elapsed or moving or 0))
    mine = [r for r in records if r["ts"] is not None and start <= r["ts"] <= end]
    streams = None
    if mine:
        streams = downsample(
            {
                "t": [(r["ts"] - start).total_seconds() for r in mine],
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
        avg_hr=_int(session.get("avg_heart_rate")),
        max_hr=_int(session.get("max_heart_rate")),
        avg_speed_mps=speed,
        avg_power_w=_int(session.get("avg_power")),
        normalized_power_w=_int(session.get("normalized_power")),
        calories=_int(session.get("total_calories")),
        file_load=session.get("training_stress_score"),
        device_id=device[:100],
        streams=streams,
    )
