"""The offline coach's library commands (seed 003): search the library, schedule a workout, save a
workout, open a page. Each becomes the same tool call a model would make.

    find workouts legs                                search_workout_library (also "search
                                                      workouts …", "find 3 workouts …")
    schedule workout 12 on 2026-12-01                 add_workout_to_calendar, one session
    schedule workout 12 on 2026-12-01 weekly 4        … weekly, 4 sessions ("4 times",
                                                      "for 4 weeks"; "daily"; "until DATE")
    save workout Leg Burner strength 45 min hard: Back Squat 5x5 @ 80% 1RM, Lunge 3x10
                                                      save_workout_to_library (exercises
                                                      "NAME SETSxREPS [@ LOAD]", or one cardio
                                                      block "zone2 40 min Cycling")
    go to calendar / open workout 12                  navigate_to_page
"""

from __future__ import annotations

import re
from typing import Any

from coach.llm.offline.families import Commands
from coach.llm.offline.grammar import DEFAULT_LOAD, CommandError, Parsed, make_cardio

FLAGS = re.IGNORECASE
DATE = r"(\d{4}-\d{2}-\d{2})"
PAGES = ("home", "library", "calendar", "workout", "fitness", "settings")
PAGE_ALIASES = {
    "chat": "home",
    "schedule": "calendar",
    "workouts": "library",
    "profile": "settings",
}
SPORTS = ("strength", "running", "cycling", "rowing", "swimming", "conditioning", "mobility")
INTENSITIES = ("easy", "moderate", "hard", "max")

LIBRARY_HELP = [
    ("Search the workout library (changes nothing)", "find workouts legs"),
    ("Schedule a library workout", "schedule workout 12 on 2026-12-01 weekly 4"),
    (
        "Save a workout to the library",
        "save workout Leg Burner strength 45 min hard: Back Squat 5x5 @ 80% 1RM, Lunge 3x10",
    ),
    ("Open a page (home, library, calendar, fitness, settings)", "go to calendar"),
]

_CARDIO = re.compile(
    r"(zone\s?2|z2|intervals?|sweet\s?spot|threshold|vo2\s?max)\s+(\d+)\s*(?:min|mins|minutes)?"
    r"(?:\s+([a-z][a-z ]*))?",
    FLAGS,
)
_EXERCISE = re.compile(r"(.+?)\s+(\d+)\s*[x×]\s*(\S+)(?:\s*@\s*(.+))?", FLAGS)


def parse_library_command(text: str) -> Parsed | None:
    """One library command → one tool call; ``None`` if it isn't one (``CommandError`` when it is
    one but can't be used as typed)."""
    if m := re.fullmatch(
        r"(?:find|search(?:\s+for)?)\s+(?:(\d+)\s+)?workouts?\s+(.+)", text, FLAGS
    ):
        query = m.group(2).strip().strip('"')
        arguments: dict[str, Any] = {"query": query}
        if m.group(1):
            arguments["limit"] = int(m.group(1))
        return Parsed("search_workout_library", arguments, f'search the library for "{query}"')
    if m := re.fullmatch(r"search\s+(?:the\s+)?library\s+(?:for\s+)?(.+)", text, FLAGS):
        query = m.group(1).strip().strip('"')
        return Parsed(
            "search_workout_library", {"query": query}, f'search the library for "{query}"'
        )
    if re.match(r"schedule\s+workout\b", text, FLAGS):
        return _schedule(text)
    if re.match(r"save\s+workout\b", text, FLAGS):
        return _save(text)
    if m := re.fullmatch(
        r"(go\s+to|take\s+me\s+to|open)\s+(?:the\s+|my\s+)?([a-z]+)(?:\s+(?:page|view))?(?:\s+(\d+))?",
        text,
        FLAGS,
    ):
        return _navigate(m.group(2).lower(), m.group(3), insist=m.group(1).lower() != "open")
    return None


def _schedule(text: str) -> Parsed:
    m = re.fullmatch(
        rf"schedule\s+workout\s+(?:w_)?(\d+)\s+(?:on|from)\s+{DATE}"
        r"(?:\s+(daily|weekly)(?:\s+(?:(?:for\s+)?(\d+)(?:\s+(?:times|weeks|days|sessions))?"
        rf"|until\s+{DATE}))?)?",
        text,
        FLAGS,
    )
    if m is None:
        raise CommandError(
            'Give the workout ID and a date, e.g. "schedule workout 12 on 2026-12-01", '
            'optionally "weekly 4" or "daily until 2026-12-07".'
        )
    workout_id, start, recurrence, count, until = m.groups()
    arguments: dict[str, Any] = {"workout_id": int(workout_id), "date": start}
    description = f"schedule workout {workout_id} on {start}"
    if recurrence:
        if count is None and until is None:
            raise CommandError(
                f'Say how long to repeat it, e.g. "{recurrence} 4" or "{recurrence} until DATE".'
            )
        arguments["recurrence"] = recurrence.lower()
        if count is not None:
            arguments["count"] = int(count)
            description += f", {recurrence.lower()}, {count} times"
        else:
            arguments["until"] = until
            description += f", {recurrence.lower()} until {until}"
    return Parsed("add_workout_to_calendar", arguments, description)


def _save(text: str) -> Parsed:
    m = re.fullmatch(
        rf"save\s+workout\s+(.+?)\s+({'|'.join(SPORTS)})\s+(\d+)\s*(?:min|mins|minutes)"
        rf"\s+({'|'.join(INTENSITIES)})\s*:\s*(.+)",
        text,
        FLAGS,
    )
    if m is None:
        raise CommandError(
            "Give the title, sport, minutes, intensity, then the exercises, e.g. "
            '"save workout Leg Burner strength 45 min hard: Back Squat 5x5 @ 80% 1RM, Lunge 3x10".'
        )
    title, sport, minutes, intensity, body = m.groups()
    exercises, cardio = [], None
    for piece in (p.strip() for p in body.split(",")):
        if not piece:
            continue
        if (c := _CARDIO.fullmatch(piece)) and cardio is None:
            cardio = make_cardio(c.group(1), c.group(2), c.group(3))
            continue
        e = _EXERCISE.fullmatch(piece)
        if e is None:
            raise CommandError(
                f'"{piece}" is not an exercise like "Back Squat 5x5 @ 80% 1RM" or a cardio block '
                'like "zone2 40 min Cycling".'
            )
        exercises.append(
            {
                "name": e.group(1).strip().strip('"'),
                "sets": int(e.group(2)),
                "reps": e.group(3),
                "load": (e.group(4) or DEFAULT_LOAD).strip(),
            }
        )
    arguments: dict[str, Any] = {
        "title": title.strip().strip('"'),
        "sport": sport.lower(),
        "duration": int(minutes),
        "intensity": intensity.lower(),
        "description": "Saved by the offline coach.",
        "exercises": exercises,
    }
    if cardio is not None:
        arguments["cardio"] = cardio
    return Parsed(
        "save_workout_to_library", arguments, f'save "{arguments["title"]}" to the library'
    )


def _navigate(word: str, number: str | None, *, insist: bool) -> Parsed | None:
    """``insist``: "go to" is surely a page, so an unknown one is an error; "open" may be some
    other command's verb, so an unknown page is not this command."""
    page = PAGE_ALIASES.get(word, word)
    if page not in PAGES:
        if not insist:
            return None
        raise CommandError(f'I can open {", ".join(PAGES)}; not "{word}".')
    arguments: dict[str, Any] = {"page": page}
    if page == "workout":
        if number is None:
            raise CommandError('Say which workout, e.g. "open workout 12".')
        arguments["workout_id"] = int(number)
    elif number is not None:
        raise CommandError(f'Only a workout takes a number, e.g. "open workout {number}".')
    return Parsed("navigate_to_page", arguments, f"open the {page} page")


def _parse(command: str) -> Parsed | None:
    return parse_library_command(command.strip())


COMMANDS = Commands(parse=_parse, help=LIBRARY_HELP)  # listed with the program's commands
