"""The training reads in words, for the athlete (``Outcome.spoken``): what the offline coach shows
when asked "show my last run" or "sleep 7". The model keeps reading the compact JSON of
``training_reads``; a person reads "Easy run (running), 2026-11-24: 29:00, 5.64 km, pace 5:08 /km,
average heart rate 136 bpm, load 31.7" instead of ``{"avg_hr":136,...}``.
"""

from __future__ import annotations

from typing import Any

from coach.render import plain
from programs.models import Session
from training.units import LABELS

# How a number reads after its label: "5.64 km", "136 bpm"; labels come from ``training.units``
# (the activity page's), without the unit in brackets.
UNITS = {
    "distance_km": "km",
    "distance_mi": "mi",
    "speed_kmh": "km/h",
    "speed_mph": "mph",
    "elevation_gain_m": "m",
    "elevation_gain_ft": "ft",
    "avg_hr": "bpm",
    "max_hr": "bpm",
    "avg_power_w": "W",
    "normalized_power_w": "W",
}
HIDDEN = {"id", "sport", "name", "date", "start", "duration_s", "load_method", "notes"}


NOUNS = {"RUNNING": "run", "CYCLING": "ride", "SWIMMING": "swim", "STRENGTH": "strength session"}


LAST_WORDS = {"RUNNING": "run", "CYCLING": "ride", "SWIMMING": "swim", "STRENGTH": "workout"}


def looking_at_last(arguments: dict[str, Any]) -> str:
    """The bubble's words while ``get_last_activity`` runs: "Looking at your last ride…" (with no
    sport asked for, the run most people mean)."""
    sport = str(arguments.get("activity_type") or "").upper()
    return f"Looking at your last {LAST_WORDS.get(sport, 'run' if not sport else 'activity')}…"


def noun(sport: str | None) -> str:
    """ "run" for RUNNING; "activity" for any sport."""
    return NOUNS.get((sport or "").upper(), (sport or "activity").lower())


def _label(key: str) -> str:
    label = LABELS.get(key) or key.replace("_", " ")
    return label.split(" (")[0].lower()


def _number(key: str, value: Any) -> str:
    unit = UNITS.get(key)
    return f"{value:g} {unit}" if unit and isinstance(value, int | float) else f"{value}"


def numbers_text(numbers: dict[str, Any]) -> str:
    """``{"distance_km": 5.64, "avg_hr": 136}`` → "distance 5.64 km, average heart rate 136 bpm"."""
    return ", ".join(
        f"{_label(key)} {_number(key, value)}"
        for key, value in numbers.items()
        if key not in HIDDEN and value not in (None, "")
    )


def activity_words(summary: dict[str, Any]) -> str:
    """One activity: its name, sport and date, its numbers, its page, its notes."""
    sport = str(summary.get("sport", "activity")).lower()
    line = f"{plain(summary.get('name') or 'Activity', limit=80)} ({sport}, {summary.get('date')})"
    numbers = numbers_text(summary)
    line += f": {numbers}" if numbers else ""
    line += f" — page /training/activities/{summary['id']}/"
    if summary.get("notes"):
        line += f"\n  notes: {plain(summary['notes'])}"
    return line


def activities_words(head: str, rows: list[dict[str, Any]]) -> str:
    return "\n".join([head, *(f"- {activity_words(r)}" for r in rows)])


def range_words(data: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    totals = numbers_text(
        {
            k.removeprefix("total_"): v
            for k, v in data.items()
            if k.startswith("total_") and k != "total_hours"
        }
    )
    hours = data.get("total_hours")
    head = (
        f"{data['count']} activit{'y' if data['count'] == 1 else 'ies'} from {data['start']} to "
        f"{data['end']}"
        + (f" ({hours:g} hours; {totals})" if hours is not None else f" ({totals})")
        + ":"
    )
    text = activities_words(head, rows)
    if data.get("more"):
        text += f"\n({data['more']} older ones are not listed; the totals count all of them.)"
    return text


def plan_words(session: Session) -> str:
    """ "Week 2, session 1 — Monday 2026-11-23: Lower Body A, 4 exercises"."""
    when = " ".join(
        p
        for p in (session.day_of_week, session.scheduled_date and str(session.scheduled_date))
        if p
    )
    parts = [plain(session.name, limit=80)]
    cardio = getattr(session, "cardio", None)
    if cardio is not None:
        parts.append(f"{cardio.get_type_display()} {cardio.duration} min {cardio.modality}".strip())
    if session.exercise_count:
        parts.append(f"{session.exercise_count} exercises")
    if not session.exercise_count and cardio is None:
        parts.append("rest day")
    if session.completed:
        parts.append("done" + (f" {session.completed_date}" if session.completed_date else ""))
    if session.skipped:
        parts.append(f"skipped: {plain(session.skip_reason, limit=100)}")
    where = f"Week {session.week.position}, session {session.position}"
    return f"- {where} — {when or 'no date'}: {', '.join(parts)}"


def sleep_words(data: dict[str, Any]) -> str:
    def night(values: dict[str, Any]) -> str:
        parts = []
        if values.get("duration_h") is not None:
            parts.append(f"{values['duration_h']:g} h")
        if values.get("score") is not None:
            parts.append(f"score {values['score']:g}")
        if values.get("resting_hr") is not None:
            parts.append(f"resting heart rate {values['resting_hr']:g} bpm")
        if values.get("hrv_ms") is not None:
            parts.append(f"HRV {values['hrv_ms']:g} ms")
        return ", ".join(parts) or "no numbers"

    nights = data["nights"]
    if data["days"] == 1 and len(nights) == 1:
        return f"Last night (to {nights[0]['night']}): {night(nights[0])}."
    lines = [f"Sleep, the last {data['days']} nights: on average {night(data['average'])}."]
    lines += [f"- night to {n['night']}: {night(n)}" for n in nights]
    return "\n".join(lines)


def fitness_words(data: dict[str, Any]) -> str:
    def scores(values: dict[str, Any]) -> str:
        return f"fitness {values['ctl']:g}, fatigue {values['atl']:g}, form {values['tsb']:+g}"

    trend = data.get("trend_7d") or {}
    lines = [f"On {data['date']}: {scores(data)}."]
    if trend:
        lines.append(
            f"Over the last 7 days: fitness {trend['ctl']:+g}, fatigue {trend['atl']:+g}, "
            f"form {trend['tsb']:+g}."
        )
    lines += [f"- {p['label']} ({p['date']}): {scores(p)}" for p in data.get("projection") or []]
    lines.append("Form is yesterday's fitness minus fatigue. The chart: /training/fitness/")
    return "\n".join(lines)


def compare_words(data: dict[str, Any]) -> str:
    rows = data["activities"]
    lines = ["Side by side (the first is the reference):"]
    lines += [f"- {activity_words(a)}" for a in rows]
    names = {a["id"]: plain(a.get("name") or "Activity", limit=80) for a in rows}
    for diff in data.get("differences_from_first") or []:
        changes = ", ".join(
            f"{_label(k)} {'+' if v > 0 else ''}{_number(k, v)}"
            for k, v in diff.items()
            if k not in HIDDEN and isinstance(v, int | float)
        )
        lines.append(f"{names.get(diff['id'], diff['id'])} against the first: {changes or 'same'}.")
    if data.get("missing_ids"):
        lines.append("Not found: " + ", ".join(str(i) for i in data["missing_ids"]) + ".")
    return "\n".join(lines)
