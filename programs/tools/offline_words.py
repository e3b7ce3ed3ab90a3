"""The words and small parsers of the program family's offline commands (``offline``): positional
refs, the exercise fields a command may set, and how a change's fields read ("sets → 4")."""

from __future__ import annotations

import re
from typing import Any

from coach.llm.offline.grammar import CommandError, Parsed, parse_day, parse_position
from coach.render import cardio_text

NUM = r"(\d+)"
EX_REF = r"(\d+)\.(\d+)\.(\d+)"
SES_REF = r"(\d+)\.(\d+)"
WHEN = r"(?:\s+on\s+(?P<day>[a-z]+))?(?:\s+at\s+(?:position\s+)?(?P<pos>\d+|end))?"
DEFAULT_WEEK_SESSIONS = 3

_CARDIO_NAMES = {
    "zone2": "Zone 2 Cardio",
    "intervals": "Interval Cardio",
    "sweetspot": "Sweet Spot Cardio",
    "threshold": "Threshold Cardio",
    "vo2max": "VO2max Cardio",
}


def cardio_name(cardio_type: str) -> str:
    return _CARDIO_NAMES[cardio_type]


def iso_date(raw: str) -> str:
    value = raw.strip()
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise CommandError(f'Dates are written YYYY-MM-DD, e.g. 2026-12-01 (got "{raw}").')
    return value


def _seconds(raw: str) -> int:
    match = re.fullmatch(
        r"(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?)?", raw.strip(), re.IGNORECASE
    )
    if not match:
        raise CommandError(f'Rest must be a number of seconds, like "rest 90" (got "{raw}").')
    value = int(match.group(1))
    unit = (match.group(2) or "s").lower()
    return value * 60 if unit.startswith("m") else value


def _int(raw: str, what: str) -> int:
    if not re.fullmatch(r"\d+", raw.strip()):
        raise CommandError(f'{what} must be a whole number (got "{raw}").')
    return int(raw)


_EXERCISE_FIELDS = {
    "reps": "reps",
    "rep": "reps",
    "sets": "workingSets",
    "working sets": "workingSets",
    "set": "workingSets",
    "warmup sets": "warmupSets",
    "warmups": "warmupSets",
    "warmup": "warmupSets",
    "load": "targetLoad",
    "weight": "targetLoad",
    "target load": "targetLoad",
    "rest": "restSeconds",
    "group": "groupLabel",
    "notes": "notes",
    "note": "notes",
    "name": "name",
}
_FIELD_RE = re.compile(
    r"\b(warm-?up sets|working sets|target load|warm-?ups?|reps?|sets?|load|weight|rest|group|notes?|name)\b\s*[:=]?\s*",
    re.IGNORECASE,
)


def _field_key(keyword: str) -> str:
    return _EXERCISE_FIELDS[keyword.lower().replace("-", "")]


def exercise_updates(rest: str) -> dict[str, Any]:
    """``reps 10-12 sets 4 notes ...`` → camelCase updates. ``notes``/``name`` take the rest."""
    updates: dict[str, Any] = {}
    position = 0
    matches: list[re.Match[str]] = []
    while position < len(rest):
        match = _FIELD_RE.search(rest, position)
        if match is None:
            break
        if not matches and rest[position : match.start()].strip():
            break  # the command must start with a field name
        matches.append(match)
        if _field_key(match.group(1)) in ("notes", "name"):
            break
        position = match.end()
    if not matches:
        raise CommandError(
            "Say which field to set: reps, sets, warmup, load, rest, group, notes or name."
        )
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(rest)
        value = rest[match.end() : end].strip().strip('"').strip()
        field = _field_key(match.group(1))
        if not value and field not in ("notes", "groupLabel"):
            raise CommandError(f"Give a value for {match.group(1)}.")
        if field in ("workingSets", "warmupSets"):
            updates[field] = _int(value, match.group(1).capitalize())
        elif field == "restSeconds":
            updates[field] = _seconds(value)
        else:
            updates[field] = value
    return updates


def add_session(
    m: re.Match[str], session: dict[str, Any], *, week: str, description: str
) -> Parsed:
    """add_session with the optional ``on DAY`` and ``at N|at end`` of ``WHEN``."""
    if day := parse_day(m.group("day")):
        session["dayOfWeek"] = day
    position = parse_position(m.group("pos"))
    return Parsed(
        "add_session",
        {"weekNumber": int(week), "position": position, "session": session},
        description,
    )


_UPDATE_WORDS = {
    "workingSets": "sets",
    "warmupSets": "warm-up sets",
    "targetLoad": "load",
    "restSeconds": "rest (seconds)",
    "groupLabel": "group",
    "dayOfWeek": "day",
    "scheduledDate": "date",
    "startDate": "start date",
    "endDate": "end date",
}


def describe_updates(updates: dict[str, Any]) -> str:
    """``{"cardio": {...}, "dayOfWeek": "Saturday"}`` → "cardio → Zone 2, 30 min; day → Saturday"."""
    parts = []
    for key, value in updates.items():
        if key == "cardio":
            shown = cardio_text(value) if value is not None else "none"
        else:
            shown = "none" if value is None else str(value)
        parts.append(f"{_UPDATE_WORDS.get(key, key)} → {shown}")
    return "; ".join(parts)


def ex_args(w: str, s: str, e: str) -> dict[str, int]:
    return {"weekNumber": int(w), "sessionNumber": int(s), "exerciseNumber": int(e)}
