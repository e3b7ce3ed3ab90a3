"""The offline coach's vocabulary (verbs, day names, cardio types and their aliases) and the
small parsers its commands share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from coach import vocabulary
from coach.render import cardio_text

CARDIO_TYPES = tuple(vocabulary.CARDIO_TYPES)
CARDIO_ALIASES = {
    "zone 2": "zone2",
    "z2": "zone2",
    "zone2": "zone2",
    "interval": "intervals",
    "intervals": "intervals",
    "sweet spot": "sweetspot",
    "sweetspot": "sweetspot",
    "threshold": "threshold",
    "vo2max": "vo2max",
    "vo2 max": "vo2max",
}
VERBS = (
    "rename",
    "set",
    "change",
    "skip",
    "unskip",
    "remove",
    "delete",
    "add",
    "move",
    "copy",
    "describe",
    "make",
    "show",
    "log",
    "compare",
    "done",
    "reschedule",
)
DEFAULT_LOAD = "bodyweight"
DEFAULT_WEEK_SESSIONS = 3

HELP_COMMANDS = [
    ("Rename an exercise", "rename exercise 1.2.3 to Goblet Squat"),
    (
        "Change reps, sets, warm-up sets, load, rest, group or notes",
        "set exercise 1.2.3 reps 10-12",
    ),
    ("", "set exercise 1.2.3 sets 4 load 50 lbs rest 90"),
    ("Skip or un-skip an exercise", "skip exercise 1.2.3"),
    ("Remove an exercise", "remove exercise 1.2.3"),
    ("Add an exercise (at the end, or 'at 2')", "add exercise Bench Press 3x8 @ 135 lbs to 1.2"),
    ("Move an exercise", "move exercise 1.2.3 to 1"),
    ("Add a session", "add session Push Day to week 1 on Monday"),
    ("Add a rest day", "add rest day to week 1"),
    ("Make a day a rest day", "make Sunday a rest day in week 1"),
    ("Add a cardio day", "add cardio day zone2 30 min Running to week 1 on Saturday"),
    ("Rename a session", "rename session 1.2 to Push Day A"),
    ("Set a session's cardio, day, date or notes", "set session 1.2 cardio zone2 30"),
    ("Remove a session's cardio", "remove cardio from session 1.2"),
    ("Remove a session", "remove session 1.2"),
    ("Copy a session", "copy session 1.2 to week 3"),
    ("Set a week's phase, start or end date", "set week 2 phase Deload"),
    ("Describe a week", "describe week 2 as Lighter week before testing"),
    ("Add a week", "add week Deload from 2026-12-01 to 2026-12-07 after week 4"),
    ("Remove a week", "remove week 3"),
    ("Show a week (changes nothing)", "show week 3"),
]


class CommandError(ValueError):
    """A command that was recognised but is incomplete or out of range."""


@dataclass
class Parsed:
    name: str
    arguments: dict[str, Any]
    description: str


# --- helpers -------------------------------------------------------------------------------------

NUM = r"(\d+)"
EX_REF = r"(\d+)\.(\d+)\.(\d+)"
SES_REF = r"(\d+)\.(\d+)"
WHEN = r"(?:\s+on\s+(?P<day>[a-z]+))?(?:\s+at\s+(?:position\s+)?(?P<pos>\d+|end))?"


def normalise_refs(text: str) -> str:
    """``week 1 session 2 exercise 3`` / ``w1 s2 e3`` → ``exercise 1.2.3``; same for sessions."""
    text = re.sub(
        r"\b(?:exercise\s+)?(?:week|w)\s*(\d+)[,\s]+(?:session|day|s)\s*(\d+)[,\s]+(?:exercise|e)\s*(\d+)\b",
        r"exercise \1.\2.\3",
        text,
        flags=re.IGNORECASE,
    )
    text = re.sub(
        r"\b(?:session\s+)?(?:week|w)\s*(\d+)[,\s]+(?:session|s)\s*(\d+)\b",
        r"session \1.\2",
        text,
        flags=re.IGNORECASE,
    )
    return text


def split_commands(message: str) -> list[str]:
    """Split a message on ``;``, new lines, and ``and``/``then`` followed by a command verb."""
    verbs = "|".join(VERBS)
    parts = re.split(
        rf"\s*;\s*|\s*\n\s*|\s*,?\s+(?:and|then|and then)\s+(?=(?:{verbs})\b)",
        message.strip(),
        flags=re.IGNORECASE,
    )
    return [p.strip().rstrip(".!").strip() for p in parts if p and p.strip().rstrip(".!").strip()]


def parse_position(raw: str | None, default: int | str = "end") -> int | str:
    if raw is None:
        return default
    return "end" if raw.lower() == "end" else int(raw)


def parse_day(raw: str | None) -> str | None:
    if raw is None:
        return None
    index = vocabulary.weekday_index(raw) if len(raw) >= 3 else None
    if index is not None:
        return vocabulary.DAY_NAMES[index]
    raise CommandError(f'"{raw}" is not a day of the week (Monday to Sunday).')


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


def make_cardio(kind: str, minutes: str, modality: str | None) -> dict[str, Any]:
    cardio_type = CARDIO_ALIASES.get(kind.lower().strip())
    if cardio_type is None:
        raise CommandError(f'"{kind}" is not a cardio type; use one of {", ".join(CARDIO_TYPES)}.')
    block: dict[str, Any] = {"type": cardio_type, "duration": int(minutes)}
    if modality and modality.strip():
        block["modality"] = modality.strip().title()
    return block


def cardio_name(cardio_type: str) -> str:
    return {
        "zone2": "Zone 2 Cardio",
        "intervals": "Interval Cardio",
        "sweetspot": "Sweet Spot Cardio",
        "threshold": "Threshold Cardio",
        "vo2max": "VO2max Cardio",
    }[cardio_type]


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


# --- the grammar ---------------------------------------------------------------------------------


def with_replies(text: str, replies: list[str]) -> str:
    """Seed 000's format: the text, a ``---`` line, one suggested reply per line."""
    return text + "\n---\n" + "\n".join(replies)
