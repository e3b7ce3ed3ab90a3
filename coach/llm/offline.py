"""The offline coach: a deterministic parser of plain commands, the embedded default provider.

With no model configured, this provider maps a documented set of commands to the very same tool
calls a model would propose (seed 000's eleven tools, camelCase arguments). Nothing is applied by
it: the calls go through the same preview and **Apply Changes** as a model's.

Numbering is ``W.S.E``: ``1.2.3`` is week 1, session 2, exercise 3; ``1.2`` is week 1, session 2.
``week 1 session 2 exercise 3`` and ``w1 s2 e3`` are understood too. Commands are
case-insensitive; names keep the case you type. Several commands can be joined with ``;``, a new
line, or `` and `` / `` then `` before the next command's verb.

Exercises
    rename exercise 1.2.3 to Goblet Squat              modify_exercise {name}
    set exercise 1.2.3 reps 10-12                      modify_exercise {reps}
    set exercise 1.2.3 sets 4                          modify_exercise {workingSets}
    set exercise 1.2.3 warmup 2                        modify_exercise {warmupSets}
    set exercise 1.2.3 load 50 lbs                     modify_exercise {targetLoad}  (also "weight")
    set exercise 1.2.3 rest 90                         modify_exercise {restSeconds} ("90s", "2 min")
    set exercise 1.2.3 group A                         modify_exercise {groupLabel}
    set exercise 1.2.3 notes Pause at the bottom       modify_exercise {notes} (notes/name end the command)
    set exercise 1.2.3 sets 4 reps 6 load 80 kg        several fields at once
    skip exercise 1.2.3 / unskip exercise 1.2.3        modify_exercise {skipped}
    remove exercise 1.2.3                              remove_exercise ("delete" works too)
    add exercise Bench Press 3x8 @ 135 lbs to 1.2      add_exercise at the end
    add exercise Plank 3x30s to 1.2 at 2               ... at position 2 (no "@ load": bodyweight)
    move exercise 1.2.3 to 1                           reorder_exercises

Sessions
    add session Push Day to week 1 [on Monday] [at 2]  add_session (no exercises yet)
    add rest day to week 1 [on Sunday] [at end]        add_session {name: "Rest"}
    add cardio day zone2 30 min Running to week 1 [on Saturday]
                                                       add_session with a cardio block
                                                       (types: zone2, intervals, sweetspot,
                                                       threshold, vo2max; modality optional)
    rename session 1.2 to Push Day A                   modify_session {name}
    set session 1.2 cardio zone2 30 [Cycling]          modify_session {cardio}
    set session 1.2 day Saturday                       modify_session {dayOfWeek}
    set session 1.2 date 2026-12-05                    modify_session {scheduledDate}
    set session 1.2 notes Keep it easy                 modify_session {notes}
    remove cardio from session 1.2                     modify_session {cardio: null}
    remove session 1.2                                 remove_session
    copy session 1.2 to week 3 [at 1]                  copy_session

Weeks
    set week 2 phase Deload                            modify_week {phase}
    set week 2 start 2026-12-01 / set week 2 end ...   modify_week {startDate} / {endDate}
    describe week 2 as Lighter week before testing     modify_week {description}
    add week Deload from 2026-12-01 to 2026-12-07 after week 4
                                                       add_week: one week with 3 empty sessions
                                                       ("with 4 sessions"; "at 2" / "at end")
    remove week 3                                      remove_week
    show week 3                                        get_week (a read tool: answered at once)

Anything else (``help``, a question, an unknown command) gets the list of commands. After the
athlete presses Apply or Cancel the reply acknowledges: the agent sends that as a user note starting
"The athlete clicked Apply Changes. Results: call_1 (modify_exercise): Success — ..." or "The
athlete clicked Cancel." (trailing ``tool`` results are understood too). A command typed after such
a note in the same user turn is parsed as usual.
Text replies end with suggested replies in seed 000's format: the text, a ``---`` line, then one
reply per line. The same grammar is described for people in ``OFFLINE_COMMANDS.md``.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from typing import Any

from coach.llm.base import LLMResponse, Turn, Usage
from coach.toolcalls import ToolCall

READ_TOOLS = frozenset({"get_week"})
CARDIO_TYPES = ("zone2", "intervals", "sweetspot", "threshold", "vo2max")
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
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
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

_NUM = r"(\d+)"
_EX_REF = r"(\d+)\.(\d+)\.(\d+)"
_SES_REF = r"(\d+)\.(\d+)"
_WHEN = r"(?:\s+on\s+(?P<day>[a-z]+))?(?:\s+at\s+(?:position\s+)?(?P<pos>\d+|end))?"


def _normalise_refs(text: str) -> str:
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


def _position(raw: str | None, default: int | str = "end") -> int | str:
    if raw is None:
        return default
    return "end" if raw.lower() == "end" else int(raw)


def _day(raw: str | None) -> str | None:
    if raw is None:
        return None
    for day in DAYS:
        if day.lower().startswith(raw.lower()[:3]) and len(raw) >= 3:
            return day
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


def _cardio(kind: str, minutes: str, modality: str | None) -> dict[str, Any]:
    cardio_type = CARDIO_ALIASES.get(kind.lower().strip())
    if cardio_type is None:
        raise CommandError(f'"{kind}" is not a cardio type; use one of {", ".join(CARDIO_TYPES)}.')
    block: dict[str, Any] = {"type": cardio_type, "duration": int(minutes)}
    if modality and modality.strip():
        block["modality"] = modality.strip().title()
    return block


def _cardio_name(cardio_type: str) -> str:
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


def _exercise_updates(rest: str) -> dict[str, Any]:
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


def _add_session(
    m: re.Match[str], session: dict[str, Any], *, week: str, description: str
) -> Parsed:
    """add_session with the optional ``on DAY`` and ``at N|at end`` of ``_WHEN``."""
    if day := _day(m.group("day")):
        session["dayOfWeek"] = day
    position = _position(m.group("pos"))
    return Parsed(
        "add_session",
        {"weekNumber": int(week), "position": position, "session": session},
        description,
    )


def _ex_args(w: str, s: str, e: str) -> dict[str, int]:
    return {"weekNumber": int(w), "sessionNumber": int(s), "exerciseNumber": int(e)}


# --- the grammar ---------------------------------------------------------------------------------


def parse_command(command: str) -> Parsed | None:
    """One command → one tool call, ``None`` if it isn't a command. Raises ``CommandError`` for a
    recognised but unusable command (its message says what to type)."""
    text = _normalise_refs(command.strip())
    flags = re.IGNORECASE

    if m := re.fullmatch(rf"rename\s+exercise\s+{_EX_REF}\s+(?:to|as)\s+(.+)", text, flags):
        name = m.group(4).strip().strip('"')
        return Parsed(
            "modify_exercise",
            {**_ex_args(*m.group(1, 2, 3)), "updates": {"name": name}},
            f"rename exercise {'.'.join(m.group(1, 2, 3))} to {name}",
        )
    if m := re.fullmatch(rf"(?:set|change)\s+exercise\s+{_EX_REF}\s+(.+)", text, flags):
        updates = _exercise_updates(m.group(4))
        return Parsed(
            "modify_exercise",
            {**_ex_args(*m.group(1, 2, 3)), "updates": updates},
            f"change exercise {'.'.join(m.group(1, 2, 3))}: "
            + ", ".join(f"{k} → {v}" for k, v in updates.items()),
        )
    if m := re.fullmatch(rf"(un-?skip|skip)\s+exercise\s+{_EX_REF}", text, flags):
        skipped = m.group(1).lower() == "skip"
        return Parsed(
            "modify_exercise",
            {**_ex_args(*m.group(2, 3, 4)), "updates": {"skipped": skipped}},
            f"{'skip' if skipped else 'un-skip'} exercise {'.'.join(m.group(2, 3, 4))}",
        )
    if m := re.fullmatch(rf"(?:remove|delete)\s+exercise\s+{_EX_REF}", text, flags):
        return Parsed(
            "remove_exercise",
            _ex_args(*m.group(1, 2, 3)),
            f"remove exercise {'.'.join(m.group(1, 2, 3))}",
        )
    if m := re.fullmatch(
        rf"add\s+exercise\s+(?P<name>.+?)\s+(?P<sets>\d+)\s*[x×]\s*(?P<reps>\S+)"
        rf"(?:\s*@\s*(?P<load>.+?))?\s+(?:to|in|into)\s+(?:session\s+)?{_SES_REF}"
        r"(?:\s+at\s+(?:position\s+)?(?P<pos>\d+|end))?",
        text,
        flags,
    ):
        exercise = {
            "name": m.group("name").strip().strip('"'),
            "reps": m.group("reps"),
            "targetLoad": (m.group("load") or DEFAULT_LOAD).strip(),
            "workingSets": int(m.group("sets")),
            "warmupSets": 0,
            "restSeconds": 120,
        }
        return Parsed(
            "add_exercise",
            {
                "weekNumber": int(m.group(5)),
                "sessionNumber": int(m.group(6)),
                "position": _position(m.group("pos")),
                "exercise": exercise,
            },
            f"add {exercise['name']} {exercise['workingSets']}×{exercise['reps']} @ "
            f"{exercise['targetLoad']} to session {m.group(5)}.{m.group(6)}",
        )
    if re.match(r"add\s+exercise\b", text, flags):
        raise CommandError(
            "To add an exercise, give its sets×reps and the session, e.g. "
            '"add exercise Bench Press 3x8 @ 135 lbs to 1.2".'
        )
    if m := re.fullmatch(
        rf"move\s+exercise\s+{_EX_REF}\s+to\s+(?:position\s+)?{_NUM}", text, flags
    ):
        return Parsed(
            "reorder_exercises",
            {**_ex_args(*m.group(1, 2, 3)), "newPosition": int(m.group(4))},
            f"move exercise {'.'.join(m.group(1, 2, 3))} to position {m.group(4)}",
        )

    # --- sessions ---
    if m := re.fullmatch(rf"(?:remove|delete)\s+cardio\s+from\s+session\s+{_SES_REF}", text, flags):
        return Parsed(
            "modify_session",
            {
                "weekNumber": int(m.group(1)),
                "sessionNumber": int(m.group(2)),
                "updates": {"cardio": None},
            },
            f"remove the cardio from session {m.group(1)}.{m.group(2)}",
        )
    if m := re.fullmatch(rf"(?:remove|delete)\s+session\s+{_SES_REF}", text, flags):
        return Parsed(
            "remove_session",
            {"weekNumber": int(m.group(1)), "sessionNumber": int(m.group(2))},
            f"remove session {m.group(1)}.{m.group(2)}",
        )
    if m := re.fullmatch(rf"add\s+rest\s+day\s+to\s+week\s+{_NUM}{_WHEN}", text, flags):
        return _add_session(
            m, {"name": "Rest", "exercises": []}, week=m.group(1),
            description=f"add a rest day to week {m.group(1)}",
        )  # fmt: skip
    if m := re.fullmatch(
        r"add\s+cardio\s+(?:day|session)\s+(?P<kind>zone\s?2|z2|intervals?|sweet\s?spot|threshold|vo2\s?max)"
        r"\s+(?P<min>\d+)\s*(?:min|mins|minutes)?(?:\s+(?P<modality>[a-z][a-z ]*?))?"
        rf"\s+to\s+week\s+{_NUM}{_WHEN}",
        text,
        flags,
    ):
        cardio = _cardio(m.group("kind"), m.group("min"), m.group("modality"))
        return _add_session(
            m,
            {"name": _cardio_name(cardio["type"]), "exercises": [], "cardio": cardio},
            week=m.group(4),
            description=(
                f"add a {cardio['duration']}-minute {cardio['type']} cardio day to week {m.group(4)}"
            ),
        )
    if m := re.fullmatch(rf"add\s+session\s+(.+?)\s+to\s+week\s+{_NUM}{_WHEN}", text, flags):
        name = m.group(1).strip().strip('"')
        return _add_session(
            m, {"name": name, "exercises": []}, week=m.group(2),
            description=f'add session "{name}" to week {m.group(2)}',
        )  # fmt: skip
    if m := re.fullmatch(rf"rename\s+session\s+{_SES_REF}\s+(?:to|as)\s+(.+)", text, flags):
        name = m.group(3).strip().strip('"')
        return Parsed(
            "modify_session",
            {
                "weekNumber": int(m.group(1)),
                "sessionNumber": int(m.group(2)),
                "updates": {"name": name},
            },
            f"rename session {m.group(1)}.{m.group(2)} to {name}",
        )
    if m := re.fullmatch(
        rf"(?:set|change)\s+session\s+{_SES_REF}\s+(\w+)\s*[:=]?\s*(.*)", text, flags
    ):
        field, value = m.group(3).lower(), m.group(4).strip()
        updates: dict[str, Any]
        if field == "cardio":
            cm = re.fullmatch(
                r"(zone\s?2|z2|intervals?|sweet\s?spot|threshold|vo2\s?max)\s+(\d+)\s*(?:min|mins|minutes)?(?:\s+(.+))?",
                value,
                flags,
            )
            if cm is None:
                raise CommandError(
                    'Give the cardio type and minutes, e.g. "set session 1.2 cardio zone2 30".'
                )
            updates = {"cardio": _cardio(cm.group(1), cm.group(2), cm.group(3))}
        elif field in ("day", "dayofweek"):
            updates = {"dayOfWeek": _day(value)}
        elif field in ("date", "scheduled", "scheduleddate"):
            updates = {"scheduledDate": _iso_date(value)}
        elif field in ("notes", "note"):
            updates = {"notes": value}
        elif field == "name":
            updates = {"name": value}
        else:
            raise CommandError(
                f'I can set a session\'s name, cardio, day, date or notes, not "{m.group(3)}".'
            )
        if field != "notes" and not value:
            raise CommandError(f"Give a value for {field}.")
        return Parsed(
            "modify_session",
            {"weekNumber": int(m.group(1)), "sessionNumber": int(m.group(2)), "updates": updates},
            f"change session {m.group(1)}.{m.group(2)}: "
            + ", ".join(f"{k} → {v}" for k, v in updates.items()),
        )
    if m := re.fullmatch(
        rf"copy\s+session\s+{_SES_REF}\s+to\s+week\s+{_NUM}(?:\s+at\s+(?:position\s+)?(\d+|end))?",
        text,
        flags,
    ):
        return Parsed(
            "copy_session",
            {
                "sourceWeekNumber": int(m.group(1)),
                "sourceSessionNumber": int(m.group(2)),
                "targetWeekNumber": int(m.group(3)),
                "position": _position(m.group(4)),
            },
            f"copy session {m.group(1)}.{m.group(2)} to week {m.group(3)}",
        )

    # --- weeks ---
    if m := re.fullmatch(
        rf"(?:set|change)\s+week\s+{_NUM}\s+(phase|start\s?date|start|end\s?date|end|description)\s*(?:to\s+)?[:=]?\s*(.+)",
        text,
        flags,
    ):
        field = m.group(2).lower().replace(" ", "")
        value = m.group(3).strip().strip('"')
        key = {
            "phase": "phase",
            "start": "startDate",
            "startdate": "startDate",
            "end": "endDate",
            "enddate": "endDate",
            "description": "description",
        }[field]
        if key in ("startDate", "endDate"):
            value = _iso_date(value)
        return Parsed(
            "modify_week",
            {"weekNumber": int(m.group(1)), "updates": {key: value}},
            f"set week {m.group(1)} {key} to {value}",
        )
    if m := re.fullmatch(rf"describe\s+week\s+{_NUM}\s+(?:as\s+)?(.+)", text, flags):
        return Parsed(
            "modify_week",
            {"weekNumber": int(m.group(1)), "updates": {"description": m.group(2).strip()}},
            f"describe week {m.group(1)}",
        )
    if m := re.fullmatch(
        r"add\s+(?:(?P<phase_before>[a-z][\w -]*?)\s+)?week(?:\s+(?P<phase_after>[a-z][\w -]*?))?"
        r"\s+from\s+(?P<start>\d{4}-\d{2}-\d{2})\s+to\s+(?P<end>\d{4}-\d{2}-\d{2})"
        r"(?:\s+with\s+(?P<count>\d+)\s+sessions?)?"
        r"(?:\s+(?:after\s+week\s+(?P<after>\d+)|at\s+(?:position\s+)?(?P<pos>\d+|end)))?",
        text,
        flags,
    ):
        phase = m.group("phase_after") or m.group("phase_before") or "Training"
        phase = re.sub(r"^(?:a|an|one|new)\s+", "", phase.strip(), flags=re.I).title()
        count = int(m.group("count") or DEFAULT_WEEK_SESSIONS)
        if not 1 <= count <= 7:
            raise CommandError("A new week needs 1 to 7 sessions.")
        position: int | str = (
            int(m.group("after")) + 1 if m.group("after") else _position(m.group("pos"))
        )
        week = {
            "phase": phase,
            "startDate": _iso_date(m.group("start")),
            "endDate": _iso_date(m.group("end")),
            "description": f"{phase} week added by the offline coach; add exercises to each session.",
            "sessions": [
                {"name": f"{phase} Session {n}", "exercises": []} for n in range(1, count + 1)
            ],
        }
        return Parsed(
            "add_week",
            {"position": position, "weeks": [week]},
            f"add a {phase} week ({week['startDate']} to {week['endDate']}) with {count} sessions",
        )
    if re.match(r"add\s+(?:[a-z]+\s+)?week\b", text, flags):
        raise CommandError(
            "To add a week, give its dates, e.g. "
            '"add week Deload from 2026-12-01 to 2026-12-07 after week 4".'
        )
    if m := re.fullmatch(rf"(?:remove|delete)\s+week\s+{_NUM}", text, flags):
        return Parsed("remove_week", {"weekNumber": int(m.group(1))}, f"remove week {m.group(1)}")
    if m := re.fullmatch(rf"(?:show|view|read)\s+week\s+{_NUM}", text, flags):
        return Parsed("get_week", {"weekNumber": int(m.group(1))}, f"show week {m.group(1)}")
    return None


def _iso_date(raw: str) -> str:
    value = raw.strip()
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise CommandError(f'Dates are written YYYY-MM-DD, e.g. 2026-12-01 (got "{raw}").')
    return value


# --- replies -------------------------------------------------------------------------------------


def help_text(*, opening: str = "") -> str:
    lines = [opening] if opening else []
    lines.append(
        "I'm the offline coach: no AI model is configured, so I understand these commands "
        "(numbers are week.session.exercise, e.g. 1.2.3 is week 1, session 2, exercise 3):"
    )
    for label, example in HELP_COMMANDS:
        lines.append(f"- {label + ': ' if label else ''}{example}")
    lines.append(
        'Join several with ";" or "and". Every change waits for you to press Apply Changes.'
    )
    return with_replies(
        "\n".join(lines),
        ["help", "rename exercise 1.1.1 to Goblet Squat", "set exercise 1.1.1 reps 8-10"],
    )


def with_replies(text: str, replies: list[str]) -> str:
    """Seed 000's format: the text, a ``---`` line, one suggested reply per line."""
    return text + "\n---\n" + "\n".join(replies)


def acknowledgment(event: dict[str, Any]) -> str:
    """The reply to a decision the app reports (``Turn.events``, structured data, never prose)."""
    kind = event.get("kind")
    results = event.get("results") or []
    replies = ["help", "Show my program"]
    summaries = [r.get("summary", "") for r in results if r.get("success") and r.get("summary")]
    problems = [" ".join(r.get("errors") or []) for r in results if not r.get("success")]
    if kind in ("applied", "approved"):
        who = "Your coach approved it: I" if kind == "approved" else "Done — I"
        noun = "changes" if len(results) > 1 else "change"
        detail = "".join(f"\n- {s}" for s in summaries)
        if event.get("edits"):
            detail += "\n(with your edits)"
        return with_replies(f"{who} applied the {noun}.{detail}", replies)
    if kind == "failed":
        detail = "".join(f"\n- {p}" for p in problems if p)
        return with_replies(f"That didn't work, so nothing was changed.{detail}", replies)
    if kind == "review_requested":
        return with_replies(
            "I've sent that to your coach for approval. Nothing changes until they approve it.",
            ["help"],
        )
    if kind == "declined":
        note = (
            f" Their note: {json.dumps(event.get('note', ''), ensure_ascii=False)}"
            if event.get("note")
            else ""
        )
        return with_replies(f"Your coach declined that change, so nothing changed.{note}", replies)
    if kind == "undone":
        return with_replies("Undone — your program is back to how it was.", replies)
    if kind == "expired":
        return with_replies("Those proposed changes expired; nothing was changed.", replies)
    return with_replies("No problem, nothing was changed.", replies)


class OfflineProvider:
    """The embedded default provider; see the module docstring for its grammar."""

    name = "offline"
    model = "offline-commands"
    offline = True

    def complete(
        self, *, system: str = "", turns: list[Turn], tools: list[dict[str, Any]] | None = None
    ) -> LLMResponse:
        started = time.monotonic()
        response = self._respond(turns, tools)
        response.latency_ms = int((time.monotonic() - started) * 1000)
        return response

    def _respond(self, turns: list[Turn], tools: list[dict[str, Any]] | None) -> LLMResponse:
        if turns and turns[-1].role == "tool":
            trailing: list[Turn] = []
            for turn in reversed(turns):
                if turn.role != "tool":
                    break
                trailing.insert(0, turn)
            asked = turns[-len(trailing) - 1] if len(turns) > len(trailing) else None
            if asked is not None and all(c.name in READ_TOOLS for c in asked.tool_calls):
                # The answer of a read tool (``show week 2``): show it as it came.
                return self._text(with_replies("\n\n".join(t.content for t in trailing), ["help"]))
            return self._text(
                with_replies(
                    "The change is waiting for you: press Apply Changes or Cancel in the preview.",
                    ["help"],
                )
            )
        last = next((t for t in reversed(turns) if t.role == "user"), None)
        if last is not None and last.events and not (last.athlete_text or "").strip():
            return self._text(acknowledgment(last.events[-1]))
        message = (
            ""
            if last is None
            else (last.athlete_text if last.athlete_text is not None else last.content)
        )
        message = message.strip()
        if not message or re.fullmatch(r"(help|commands|\?|/help|menu)[.!?]?", message, re.I):
            return self._text(help_text())
        commands = split_commands(message)
        parsed: list[Parsed] = []
        for command in commands:
            try:
                result = parse_command(command)
            except CommandError as exc:
                return self._text(with_replies(f'I couldn\'t use "{command}": {exc}', ["help"]))
            if result is None:
                if len(commands) == 1:
                    opening = (
                        "I can't answer questions while I'm offline."
                        if message.endswith("?") or _looks_like_question(message)
                        else f'I didn\'t understand "{command}".'
                    )
                    return self._text(help_text(opening=opening))
                return self._text(
                    with_replies(
                        f'I didn\'t understand "{command}", so I changed nothing. '
                        'Type "help" for the commands I know.',
                        ["help"],
                    )
                )
            parsed.append(result)
        # ``tools=None`` (a direct call) offers every tool; a list offers only those in it.
        allowed = None if tools is None else {tool.get("name") for tool in tools}
        refused = [p for p in parsed if allowed is not None and p.name not in allowed]
        if refused:
            return self._text(
                with_replies(
                    f"I can't {refused[0].description} here: that tool isn't available.", ["help"]
                )
            )
        first = 1 + sum(len(t.tool_calls) for t in turns)
        calls = [
            ToolCall(id=f"call_offline_{first + i}", name=p.name, arguments=p.arguments)
            for i, p in enumerate(parsed)
        ]
        lines = ["Here's what I'll change:"] + [f"- {p.description}" for p in parsed]
        lines.append("Check the preview, then press Apply Changes or Cancel.")
        text = with_replies("\n".join(lines), ["What does this change?", "help"])
        return LLMResponse(
            text=text,
            tool_calls=calls,
            finish_reason="tool_calls",
            usage=Usage(prompt_tokens=0, completion_tokens=0),
            provider=self.name,
            model=self.model,
        )

    def _text(self, text: str) -> LLMResponse:
        return LLMResponse(
            text=text,
            tool_calls=[],
            finish_reason="stop",
            usage=Usage(),
            provider=self.name,
            model=self.model,
        )


def _looks_like_question(message: str) -> bool:
    return bool(
        re.match(
            r"(what|why|how|when|where|who|which|can|could|should|is|are|do|does)\b", message, re.I
        )
    )
