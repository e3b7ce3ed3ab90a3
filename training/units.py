"""Numbers as an athlete reads them: distance in km or mi, pace per km or mile, speed in km/h or
mph, elevation in m or ft, durations as h:mm:ss."""

from __future__ import annotations

from coach.vocabulary import FEET_PER_METRE, METRES_PER_UNIT

from .models import Activity, AthleteProfile


def clock(seconds: float | None) -> str:
    if not seconds:
        return ""
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def distance(metres: float | None, unit: str) -> float | None:
    return None if metres is None else round(metres / METRES_PER_UNIT[unit], 2)


def pace(metres: float | None, seconds: float | None, unit: str) -> str:
    """Time per km or mile, e.g. ``5:23 /km``."""
    if not metres or not seconds:
        return ""
    per_unit = seconds / (metres / METRES_PER_UNIT[unit])
    return f"{clock(per_unit)} /{unit}"


def speed(mps: float | None, unit: str) -> float | None:
    if not mps:
        return None
    return round(mps * 3600 / METRES_PER_UNIT[unit], 1)


def elevation(metres: float | None, unit: str) -> float | None:
    if metres is None:
        return None
    return round(metres * FEET_PER_METRE) if unit == "mi" else round(metres)


def activity_summary(activity: Activity, profile: AthleteProfile) -> dict:
    """The plain numbers of one activity in the athlete's units (what the coach's tools read)."""
    unit = profile.distance_unit
    seconds = activity.duration_s
    summary = {
        "id": activity.pk,
        "sport": activity.sport,
        "name": activity.name,
        "date": activity.local_date.isoformat(),
        "start": activity.start.astimezone(profile.tz).strftime("%Y-%m-%d %H:%M"),
        "duration": clock(seconds),
        "duration_s": seconds,
        f"distance_{unit}": distance(activity.distance_m, unit),
        f"elevation_gain_{'ft' if unit == 'mi' else 'm'}": elevation(
            activity.elevation_gain_m, unit
        ),
        "avg_hr": activity.avg_hr or None,  # 0 is a missing strap, not a heart rate
        "max_hr": activity.max_hr or None,
        "avg_power_w": activity.avg_power_w,
        "normalized_power_w": activity.normalized_power_w,
        "calories": activity.calories,
        "rpe": activity.rpe,
        "load": round(activity.training_load, 1),
        "load_method": activity.load_method,
        "notes": activity.notes,
    }
    if activity.sport in ("RUNNING", "SWIMMING", "OTHER"):
        summary["pace"] = pace(activity.distance_m, seconds, unit)
    else:
        summary[f"speed_{'mph' if unit == 'mi' else 'kmh'}"] = speed(
            activity.avg_speed_mps
            or ((activity.distance_m / seconds) if activity.distance_m and seconds else None),
            unit,
        )
    if activity.session_id:
        summary["session"] = activity.session.ref
    return {k: v for k, v in summary.items() if v not in (None, "")}


LABELS = {
    "duration": "Duration",
    "distance_km": "Distance (km)",
    "distance_mi": "Distance (mi)",
    "pace": "Pace",
    "speed_kmh": "Speed (km/h)",
    "speed_mph": "Speed (mph)",
    "elevation_gain_m": "Elevation gain (m)",
    "elevation_gain_ft": "Elevation gain (ft)",
    "avg_hr": "Average heart rate",
    "max_hr": "Max heart rate",
    "avg_power_w": "Average power (W)",
    "normalized_power_w": "Normalized power (W)",
    "calories": "Calories",
    "rpe": "RPE",
    "load": "Load",
    "session": "Planned session",
}


def display_rows(summary: dict) -> list[tuple[str, object]]:
    """(label, value) pairs of a summary for a page, in a fixed order."""
    return [(label, summary[key]) for key, label in LABELS.items() if key in summary]
