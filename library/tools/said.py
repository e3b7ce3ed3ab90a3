"""What a library sentence says, read by rules a person can check: the day a workout goes on
(forward from today: "tomorrow", "saturday" is the next Saturday), how many times it repeats
("for three weeks", "4 times"), and a workout typed in a sentence ("called Quick Legs: 3 sets of
15 goblet squats and 3 sets of 12 lunges, 20 minutes, moderate"), or one the coach composes from
what is asked ("a 30 minute HIIT workout with just dumbbells")."""

from __future__ import annotations

import datetime
import re
from typing import Any

from coach import vocabulary
from coach.llm.offline.grammar import DEFAULT_LOAD, CommandError, Parsed
from coach.llm.offline.language import Ask

NUMBER_WORDS = {
    "zero": 0,
    **vocabulary.NUMBER_WORDS,  # one … twelve
    **{w: n for n, w in enumerate(("thirteen", "fourteen", "fifteen", "sixteen"), start=13)},
    **{w: n for n, w in enumerate(("seventeen", "eighteen", "nineteen", "twenty"), start=17)},
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "a couple of": 2,
    "a dozen": 12,
}
_NUMBER = r"(\d+|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + ")"
DAYS = tuple(name.lower() for name in vocabulary.DAY_NAMES)


def number(word: str) -> int:
    word = word.lower().strip()
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def date_said(text: str, today: datetime.date) -> datetime.date | None:
    """The day ``text`` puts a workout on, looking forward from ``today``; None when none."""
    lower = text.lower()
    if m := re.search(r"\b(\d{4}-\d{2}-\d{2})\b", lower):
        try:
            return datetime.date.fromisoformat(m.group(1))
        except ValueError:
            raise CommandError(f"{m.group(1)} is not a date.") from None
    if re.search(r"\bday after (?:tomorrow|tmrw)\b", lower):
        return today + datetime.timedelta(days=2)
    if re.search(r"\b(?:tomorrow|tmrw|tmr)\b", lower):
        return today + datetime.timedelta(days=1)
    if re.search(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", lower):
        return today
    if m := re.search(rf"\bin {_NUMBER} days?\b", lower):
        return today + datetime.timedelta(days=number(m.group(1)))
    for day, name in enumerate(DAYS):
        if re.search(rf"\b(?:{name}s?|{name[:3]}\.?)(?!\w)", lower):
            return today + datetime.timedelta(days=(day - today.weekday() - 1) % 7 + 1)
    return None


def count_said(text: str, recurrence: str | None = None) -> int | None:
    """How many times a schedule repeats: "for three weeks", "for the next 4 weeks", "6 times",
    "for a week"; a span is counted in the recurrence's steps ("every day for 2 weeks" is 14,
    "every monday for 3 weeks" is 3). None when none is said, or when days can't be whole weeks
    ("every monday for 10 days": asked)."""
    m = re.search(
        rf"\b(?:for\s+(?:the\s+)?(?:next\s+)?)?(?:{_NUMBER}|(a|one))\s+(?:more\s+)?"
        r"(weeks?|days?|times|sessions)\b",
        text,
        re.I,
    )
    if m is None:
        return None
    n = number(m.group(1)) if m.group(1) else 1
    unit = m.group(3).lower()
    if unit.startswith("week") and recurrence == "daily":
        return n * 7
    if unit.startswith("day") and recurrence == "weekly":
        return n // 7 if n % 7 == 0 else None
    if m.group(2) and not unit.startswith("week"):
        return None  # "a day", "a time": no count
    return n


# --- a workout in a sentence ------------------------------------------------------------------

INTENSITIES = {
    "easy": "easy",
    "light": "easy",
    "gentle": "easy",
    "moderate": "moderate",
    "medium": "moderate",
    "hard": "hard",
    "intense": "hard",
    "tough": "hard",
    "heavy": "hard",
    "max": "max",
    "all out": "max",
}
SPORTS = {
    "hiit": "conditioning",
    "conditioning": "conditioning",
    "circuit": "conditioning",
    "run": "running",
    "running": "running",
    "bike": "cycling",
    "cycling": "cycling",
    "ride": "cycling",
    "row": "rowing",
    "rowing": "rowing",
    "swim": "swimming",
    "swimming": "swimming",
    "mobility": "mobility",
    "yoga": "mobility",
    "stretching": "mobility",
    "strength": "strength",
}
_SETS = re.compile(
    rf"^{_NUMBER}\s+sets?\s+of\s+{_NUMBER}(?:\s+reps?)?(?:\s+of)?\s+(.+)$"
    rf"|^(.+?)\s+{_NUMBER}\s*[x×]\s*{_NUMBER}$|^{_NUMBER}\s*[x×]\s*{_NUMBER}\s+(.+)$",
    re.I,
)
_MINUTES = re.compile(
    r"\b(\d+)\s*(?:-\s*)?(?:min|mins|minutes?)\b|\b(half an hour)\b|\b(an|one|1) hour\b", re.I
)
# What the coach composes from when no exercises are given: by equipment, then by focus.
MOVES = {
    "dumbbell": {
        "conditioning": ("Dumbbell Thruster", "Renegade Row", "Goblet Squat", "Dumbbell Snatch"),
        "legs": ("Goblet Squat", "Dumbbell Romanian Deadlift", "Reverse Lunge", "Step-Up"),
        "upper": ("Dumbbell Bench Press", "One-Arm Row", "Dumbbell Shoulder Press", "Curl"),
        "strength": ("Goblet Squat", "Dumbbell Bench Press", "One-Arm Row", "Dumbbell RDL"),
    },
    "bodyweight": {
        "conditioning": ("Burpee", "Jump Squat", "Mountain Climber", "Push-Up"),
        "legs": ("Air Squat", "Reverse Lunge", "Glute Bridge", "Jump Squat"),
        "upper": ("Push-Up", "Pike Push-Up", "Dip", "Plank Shoulder Tap"),
        "strength": ("Push-Up", "Split Squat", "Glute Bridge", "Plank"),
    },
    "kettlebell": {
        "conditioning": ("Kettlebell Swing", "Goblet Squat", "Kettlebell Clean", "Push-Up"),
        "legs": ("Goblet Squat", "Kettlebell Swing", "Reverse Lunge", "Single-Leg Deadlift"),
        "upper": ("Kettlebell Press", "Kettlebell Row", "Push-Up", "Halo"),
        "strength": ("Goblet Squat", "Kettlebell Press", "Kettlebell Row", "Kettlebell Swing"),
    },
}
_EQUIPMENT = {
    "dumbbell": "dumbbell",
    "dumbbells": "dumbbell",
    "db": "dumbbell",
    "kettlebell": "kettlebell",
    "kettlebells": "kettlebell",
    "kb": "kettlebell",
    "bodyweight": "bodyweight",
    "no equipment": "bodyweight",
    "body weight": "bodyweight",
}
_FOCUS = {"leg": "legs", "legs": "legs", "lower": "legs", "upper": "upper", "arms": "upper"}


def _exercises(body: str) -> list[dict[str, Any]]:
    found = []
    for piece in re.split(r",|;|\band\b|\bthen\b|\+", body):
        piece = piece.strip(" .")
        m = _SETS.match(piece)
        if m is None:
            continue
        g = m.groups()
        sets, reps, name = (
            (g[0], g[1], g[2]) if g[0] else (g[4], g[5], g[3]) if g[3] else (g[6], g[7], g[8])
        )
        name = re.sub(r"^(?:of\s+)?(?:the\s+)?", "", name.strip(), flags=re.I)
        found.append(
            {
                "name": name[:1].upper() + name[1:100],
                "sets": number(sets),
                "reps": str(number(reps)),
                "load": DEFAULT_LOAD,
            }
        )
    return found


def _minutes(text: str) -> int | None:
    m = _MINUTES.search(text)
    if m is None:
        return None
    return int(m.group(1)) if m.group(1) else 30 if m.group(2) else 60


def _word(text: str, table: dict[str, str]) -> str | None:
    for words in sorted(table, key=len, reverse=True):
        if re.search(rf"\b{re.escape(words)}\b", text, re.I):
            return table[words]
    return None


def workout_from_words(text: str) -> Parsed | Ask:
    """``save_workout_to_library`` for a workout typed in a sentence, or composed from what is
    asked when no exercises are listed; what the tool needs and isn't said is asked."""
    minutes = _minutes(text)
    intensity = _word(text, INTENSITIES)
    sport = _word(text, SPORTS)
    title_match = re.search(
        r"\b(?:called|named|titled)\s+[\"“']?(.+?)[\"”']?(?:\s*:|\s*,|\s+-\s+|\s+with\b|$)",
        text,
        re.I,
    )
    body = text[title_match.end() :] if title_match else text
    exercises = _exercises(body)
    description = "Saved by the offline coach from your words."
    if not exercises:
        equipment = _word(text, _EQUIPMENT) or (
            "bodyweight" if re.search(r"\bat home\b|\bhotel\b", text, re.I) else None
        )
        focus = _word(text, _FOCUS) or ("conditioning" if sport == "conditioning" else "strength")
        if equipment is None:
            raise CommandError(
                'List the exercises ("3 sets of 10 goblet squats, ...") or say the equipment '
                '("with just dumbbells", "bodyweight").'
            )
        rounds = 4 if (minutes or 30) >= 30 else 3
        reps = "40 s on, 20 s off" if focus == "conditioning" else "10"
        exercises = [
            {"name": n, "sets": rounds, "reps": reps, "load": DEFAULT_LOAD, "rest_seconds": 60}
            for n in MOVES[equipment][focus]
        ]
        sport = sport or "strength"
        intensity = intensity or ("hard" if sport == "conditioning" else None)
        description = (
            f"Composed by the offline coach: {rounds} rounds of {len(exercises)} {equipment} "
            f"exercises ({reps})."
        )
    title = title_match.group(1).strip() if title_match else None
    if title is None and minutes:
        kind = {"conditioning": "HIIT"}.get(sport or "", (sport or "strength").title())
        title = f"{minutes}-Minute {kind} Workout"
    missing = [w for w, v in (("a title", title), ("how many minutes", minutes)) if not v]
    if intensity is None:
        missing.append("how hard (easy, moderate, hard)")
    if missing:
        return Ask(f"To save it I need {' and '.join(missing)}.")
    arguments = {
        "title": title[:100],
        "sport": sport or "strength",
        "duration": minutes,
        "intensity": intensity,
        "description": description,
        "exercises": exercises,
    }
    return Parsed("save_workout_to_library", arguments, f'save "{title}" to the library')
