"""The program family's offline commands: exercises, sessions and weeks by position, written
``W.S.E`` (``1.2.3`` is week 1, session 2, exercise 3; ``1.2`` is week 1, session 2; ``week 1
session 2 exercise 3`` and ``w1 s2 e3`` are understood too). Each becomes the same tool call a
model would make (seed 000's eleven tools, camelCase arguments); the offline coach finds
``COMMANDS`` as it finds every family's (``coach.llm.offline.families``).

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
    make Sunday a rest day [in week 1]                 add_session {name: "Rest", dayOfWeek}
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

The suggested replies about the program ("Show my program", "Show me the session", "Try a
different exercise") are answered by ``offline_replies``.
"""

from __future__ import annotations

import re
from typing import Any

from coach.llm.offline.families import Commands
from coach.llm.offline.grammar import (
    DEFAULT_LOAD,
    CommandError,
    Parsed,
    make_cardio,
    normalise_refs,
    parse_day,
    parse_position,
)
from coach.render import cardio_text

from .offline_replies import answer
from .offline_words import (
    DEFAULT_WEEK_SESSIONS,
    EX_REF,
    NUM,
    SES_REF,
    WHEN,
    add_session,
    cardio_name,
    describe_updates,
    ex_args,
    exercise_updates,
    iso_date,
)

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
)


def parse_program_command(command: str) -> Parsed | None:
    """One program command → one tool call, ``None`` if it isn't one. Raises ``CommandError`` for
    a recognised but unusable command (its message says what to type)."""
    text = normalise_refs(command.strip())
    flags = re.IGNORECASE
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
            updates = {"scheduledDate": iso_date(value)}
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
            value = iso_date(value)
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
            "startDate": iso_date(m.group("start")),
            "endDate": iso_date(m.group("end")),
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
    return None


COMMANDS = Commands(
    parse=parse_program_command,
    help=HELP_COMMANDS,
    verbs=VERBS,
    examples=("rename exercise 1.1.1 to Goblet Squat", "set exercise 1.1.1 reps 8-10"),
    answer=answer,
)
