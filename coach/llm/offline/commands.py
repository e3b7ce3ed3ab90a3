"""The offline coach's commands: one plain-language command in, one tool call out (see the package
docstring for the grammar), and the help text that lists them."""

from __future__ import annotations

import re
from typing import Any

from coach.render import cardio_text

from .families import declared
from .grammar import (
    DEFAULT_LOAD,
    DEFAULT_WEEK_SESSIONS,
    EX_REF,
    HELP_COMMANDS,
    NUM,
    SES_REF,
    WHEN,
    CommandError,
    Parsed,
    add_session,
    cardio_name,
    describe_updates,
    ex_args,
    exercise_updates,
    make_cardio,
    normalise_refs,
    parse_day,
    parse_position,
    with_replies,
)
from .phrases import match_phrase


def parse_command(command: str) -> Parsed | None:
    """One command → one tool call, ``None`` if it isn't a command. Raises ``CommandError`` for a
    recognised but unusable command (its message says what to type)."""
    text = normalise_refs(command.strip())
    flags = re.IGNORECASE
    for family in declared():  # the families' commands the program's patterns would take
        if family.first and (parsed := family.parse(command)):
            return parsed

    if m := re.fullmatch(rf"rename\s+exercise\s+{EX_REF}\s+(?:to|as)\s+(.+)", text, flags):
        name = m.group(4).strip().strip('"')
        return Parsed(
            "modify_exercise",
            {**ex_args(*m.group(1, 2, 3)), "updates": {"name": name}},
            f"rename exercise {'.'.join(m.group(1, 2, 3))} to {name}",
        )
    if m := re.fullmatch(rf"(?:set|change)\s+exercise\s+{EX_REF}\s+(.+)", text, flags):
        updates = exercise_updates(m.group(4))
        return Parsed(
            "modify_exercise",
            {**ex_args(*m.group(1, 2, 3)), "updates": updates},
            f"change exercise {'.'.join(m.group(1, 2, 3))}: " + describe_updates(updates),
        )
    if m := re.fullmatch(rf"(un-?skip|skip)\s+exercise\s+{EX_REF}", text, flags):
        skipped = m.group(1).lower() == "skip"
        return Parsed(
            "modify_exercise",
            {**ex_args(*m.group(2, 3, 4)), "updates": {"skipped": skipped}},
            f"{'skip' if skipped else 'un-skip'} exercise {'.'.join(m.group(2, 3, 4))}",
        )
    if m := re.fullmatch(rf"(?:remove|delete)\s+exercise\s+{EX_REF}", text, flags):
        return Parsed(
            "remove_exercise",
            ex_args(*m.group(1, 2, 3)),
            f"remove exercise {'.'.join(m.group(1, 2, 3))}",
        )
    if m := re.fullmatch(
        rf"add\s+exercise\s+(?P<name>.+?)\s+(?P<sets>\d+)\s*[x×]\s*(?P<reps>\S+)"
        rf"(?:\s*@\s*(?P<load>.+?))?\s+(?:to|in|into)\s+(?:session\s+)?{SES_REF}"
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
                "position": parse_position(m.group("pos")),
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
    if m := re.fullmatch(rf"move\s+exercise\s+{EX_REF}\s+to\s+(?:position\s+)?{NUM}", text, flags):
        return Parsed(
            "reorder_exercises",
            {**ex_args(*m.group(1, 2, 3)), "newPosition": int(m.group(4))},
            f"move exercise {'.'.join(m.group(1, 2, 3))} to position {m.group(4)}",
        )

    # --- sessions ---
    if m := re.fullmatch(rf"(?:remove|delete)\s+cardio\s+from\s+session\s+{SES_REF}", text, flags):
        return Parsed(
            "modify_session",
            {
                "weekNumber": int(m.group(1)),
                "sessionNumber": int(m.group(2)),
                "updates": {"cardio": None},
            },
            f"remove the cardio from session {m.group(1)}.{m.group(2)}",
        )
    if m := re.fullmatch(rf"(?:remove|delete)\s+session\s+{SES_REF}", text, flags):
        return Parsed(
            "remove_session",
            {"weekNumber": int(m.group(1)), "sessionNumber": int(m.group(2))},
            f"remove session {m.group(1)}.{m.group(2)}",
        )
    if m := re.fullmatch(
        r"make\s+(?P<day>[a-z]+)\s+(?:(?:of|in)\s+week\s+(?P<w1>\d+)\s+)?a\s+rest\s+day"
        r"(?:\s+(?:of|in)\s+week\s+(?P<w2>\d+))?",
        text,
        flags,
    ):
        day, week = parse_day(m.group("day")), m.group("w1") or m.group("w2") or "1"
        return Parsed(
            "add_session",
            {
                "weekNumber": int(week),
                "position": "end",
                "session": {"name": "Rest", "exercises": [], "dayOfWeek": day},
            },
            f"make {day} of week {week} a rest day",
        )
    if m := re.fullmatch(rf"add\s+rest\s+day\s+to\s+week\s+{NUM}{WHEN}", text, flags):
        return add_session(
            m, {"name": "Rest", "exercises": []}, week=m.group(1),
            description=f"add a rest day to week {m.group(1)}",
        )  # fmt: skip
    if m := re.fullmatch(
        r"add\s+cardio\s+(?:day|session)\s+(?P<kind>zone\s?2|z2|intervals?|sweet\s?spot|threshold|vo2\s?max)"
        r"\s+(?P<min>\d+)\s*(?:min|mins|minutes)?(?:\s+(?P<modality>[a-z][a-z ]*?))?"
        rf"\s+to\s+week\s+{NUM}{WHEN}",
        text,
        flags,
    ):
        cardio = make_cardio(m.group("kind"), m.group("min"), m.group("modality"))
        return add_session(
            m,
            {"name": cardio_name(cardio["type"]), "exercises": [], "cardio": cardio},
            week=m.group(4),
            description=(f"add a cardio day ({cardio_text(cardio)}) to week {m.group(4)}"),
        )
    if m := re.fullmatch(rf"add\s+session\s+(.+?)\s+to\s+week\s+{NUM}{WHEN}", text, flags):
        name = m.group(1).strip().strip('"')
        return add_session(
            m, {"name": name, "exercises": []}, week=m.group(2),
            description=f'add session "{name}" to week {m.group(2)}',
        )  # fmt: skip
    if m := re.fullmatch(rf"rename\s+session\s+{SES_REF}\s+(?:to|as)\s+(.+)", text, flags):
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
        rf"(?:set|change)\s+session\s+{SES_REF}\s+(\w+)\s*[:=]?\s*(.*)", text, flags
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
            updates = {"cardio": make_cardio(cm.group(1), cm.group(2), cm.group(3))}
        elif field in ("day", "dayofweek"):
            updates = {"dayOfWeek": parse_day(value)}
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
            f"change session {m.group(1)}.{m.group(2)}: " + describe_updates(updates),
        )
    if m := re.fullmatch(
        rf"copy\s+session\s+{SES_REF}\s+to\s+week\s+{NUM}(?:\s+at\s+(?:position\s+)?(\d+|end))?",
        text,
        flags,
    ):
        return Parsed(
            "copy_session",
            {
                "sourceWeekNumber": int(m.group(1)),
                "sourceSessionNumber": int(m.group(2)),
                "targetWeekNumber": int(m.group(3)),
                "position": parse_position(m.group(4)),
            },
            f"copy session {m.group(1)}.{m.group(2)} to week {m.group(3)}",
        )

    # --- weeks ---
    if m := re.fullmatch(
        rf"(?:set|change)\s+week\s+{NUM}\s+(phase|start\s?date|start|end\s?date|end|description)\s*(?:to\s+)?[:=]?\s*(.+)",
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
            f"set week {m.group(1)} {describe_updates({key: value}).replace(' → ', ' to ')}",
        )
    if m := re.fullmatch(rf"describe\s+week\s+{NUM}\s+(?:as\s+)?(.+)", text, flags):
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
            int(m.group("after")) + 1 if m.group("after") else parse_position(m.group("pos"))
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
    if m := re.fullmatch(rf"(?:remove|delete)\s+week\s+{NUM}", text, flags):
        return Parsed("remove_week", {"weekNumber": int(m.group(1))}, f"remove week {m.group(1)}")
    if m := re.fullmatch(rf"(?:show|view|read)\s+week\s+{NUM}", text, flags):
        return Parsed("get_week", {"weekNumber": int(m.group(1))}, f"show week {m.group(1)}")
    for family in declared():
        if not family.first and (parsed := family.parse(command)):
            return parsed
    return match_phrase(command)


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
    families = declared()
    with_program = [line for family in families if not family.heading for line in family.help]
    for label, example in HELP_COMMANDS + with_program:
        lines.append(f"- {label + ': ' if label else ''}{example}")
    for family in families:
        if family.heading:
            lines.append(family.heading)
            lines.extend(f"- {label}: {example}" for label, example in family.help)
    lines.append(
        'Join several with ";" or "and". Every change waits for you to press Apply Changes, '
        "except the wellness logs you state yourself, which are logged at once with Undo."
    )
    return with_replies(
        "\n".join(lines),
        ["help", "rename exercise 1.1.1 to Goblet Squat", "set exercise 1.1.1 reps 8-10"],
    )
