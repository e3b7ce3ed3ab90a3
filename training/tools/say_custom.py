"""A one-off workout in everyday words (``training.tools.language``): "add an easy 30 minute run on
Saturday", "put a 1 hour bike ride on Sunday", "schedule a 10 km run tomorrow at 5:00 per km".
The call is the documented command's (``add run on DATE 40 min tempo``): a sport, a date, a
duration in minutes (hours and "half an hour" converted), an intensity, a target pace; a distance
("10 km", "5 miles") goes into the description. A passed weekday is a question, not a guess."""

from __future__ import annotations

import re

from coach.llm.offline.grammar import CommandError, Parsed
from coach.llm.offline.language import Ask, Intent, Slots

from .said_dates import date_said, told

LEAD = "[<tr_lead>]"
ADD = (
    "(add|put|put in|fit in|squeeze in|schedule|plan|book|slot in|throw in|pencil in|create|give me|set up|i want|"
    "i'd like|i would like|i'll do|i will do|let me do|let's do|lets do|i'm doing|i am doing|do|go for)"
)
DURATION = (
    "({count:minutes} (minute|minutes|min|mins|m)|{count:minutes}-minute|{count:minutes}-min"
    "|{count:hours} (hour|hours|hr|hrs|h)|{count:hours}-hour|{training_hours:minutes}"
    "|{count:km} (km|k|kilometer|kilometers|kilometre|kilometres)|{count:miles} (mile|miles|mi))"
)
PACE = "at {training_pace:pace} [(per|/|a|an)] [(km|kilometer|kilometre|k|mile|mi)] [pace]"

SPORTS = [
    ("run", "RUNNING"),
    ("running", "RUNNING"),
    ("jog", "RUNNING"),
    ("running session", "RUNNING"),
    ("ride", "CYCLING"),
    ("bike ride", "CYCLING"),
    ("bike", "CYCLING"),
    ("cycle", "CYCLING"),
    ("cycling", "CYCLING"),
    ("spin", "CYCLING"),
    ("bike session", "CYCLING"),
    ("swim", "SWIMMING"),
    ("swimming", "SWIMMING"),
    ("swim session", "SWIMMING"),
    ("strength session", "STRENGTH"),
    ("strength workout", "STRENGTH"),
    ("lift", "STRENGTH"),
    ("lifting session", "STRENGTH"),
    ("weights session", "STRENGTH"),
    ("gym session", "STRENGTH"),
    ("strength training", "STRENGTH"),
    ("strength", "STRENGTH"),
    ("weights", "STRENGTH"),
]
INTENSITIES = [
    ("easy", "easy"),
    ("recovery", "easy"),
    ("zone 2", "easy"),
    ("zone two", "easy"),
    ("z2", "easy"),
    ("steady", "easy"),
    ("long", "easy"),
    ("tempo", "tempo"),
    ("threshold", "threshold"),
    ("interval", "intervals"),
    ("intervals", "intervals"),
    ("vo2max", "vo2max"),
    ("vo2 max", "vo2max"),
]
HOURS = [
    ("an hour", 60),
    ("one hour", 60),
    ("half an hour", 30),
    ("half hour", 30),
    ("an hour and a half", 90),
    ("hour and a half", 90),
    ("one and a half hours", 90),
    ("1.5 hours", 90),
    ("1.5 hour", 90),
    ("1.5h", 90),
    ("two hours", 120),
]
_PACE = re.compile(r"^\d{1,2}:\d{2}$")


def _which_sport(slots: Slots) -> Ask:
    said = slots.words.get("kind", "session")
    return Ask(
        "Which sport should it be?",
        tuple(
            re.sub(rf"\b{re.escape(said)}\b", sport, slots.text, count=1)
            for sport in ("run", "ride", "swim")
        ),
    )


def _custom(slots: Slots) -> Parsed | Ask:
    if slots.get("sport") is None:
        return _which_sport(slots)
    day = date_said(slots, "t", change=True)
    if isinstance(day, Ask):
        return day
    if day is None:
        raise CommandError('Say the day, e.g. "add a 40 minute tempo run on Saturday".')
    sport = str(slots.get("sport"))
    intensity = slots.get("intensity") or slots.get("intensity2")
    minutes = slots.get("minutes")
    if slots.get("hours") is not None:
        minutes = int(slots.get("hours")) * 60
    word = slots.words.get("sport", sport.lower()).lower()
    said_intensity = slots.words.get("intensity") or slots.words.get("intensity2") or ""
    name = " ".join(w.capitalize() for w in f"{said_intensity} {word}".split())
    description = ""
    if slots.get("km") is not None:
        description = f"{slots.get('km'):g} km"
    elif slots.get("miles") is not None:
        description = f"{slots.get('miles'):g} miles"
    arguments: dict = {"date": day.isoformat(), "sport": sport, "name": name}
    arguments["description"] = description
    if minutes is not None:
        minutes = int(minutes)
        if not 5 <= minutes <= 600:
            raise CommandError(f"A workout lasts 5 to 600 minutes, not {minutes}.")
        arguments["duration"] = minutes
    if intensity:
        arguments["intensity"] = intensity
    pace = str(slots.get("pace") or "").strip()
    if pace:
        found = re.search(r"\d{1,2}:\d{2}", pace)
        pace = found.group(0) if found else pace
        if not _PACE.match(pace):
            raise CommandError(f'Write a pace as minutes:seconds, e.g. "4:30 per km", not {pace}.')
        unit = "mi" if re.search(r"\bmi(le)?\b", slots.text, re.I) else "km"
        arguments["target_pace"] = f"{pace} /{unit}"
    what = " ".join(p for p in (f"{minutes} min" if minutes else description, name) if p)
    return Parsed("create_custom_workout", arguments, f"add {what} on {told(day)}")


SPORT = "[{training_intensity:intensity}] [<tr_duration>] [{training_intensity:intensity2}]"
INTENTS = (
    Intent(
        "add_custom_workout",
        (
            f"{LEAD} {ADD} [a|an|one|another|some] {SPORT} {{training_sport:sport}} [workout|session]"
            f" [on|for] <tr_to_date> [{PACE}]",
            # A workout with no sport ("an interval session"): which sport is asked.
            f"{LEAD} {ADD} (a|an|one|another) {SPORT} {{training_kind:kind}} [on|for] <tr_to_date>",
        ),
        build=_custom,
        examples=("add a 40 minute tempo run on Saturday", "put a 1 hour bike ride on Sunday"),
    ),
)

VALUES = {
    "training_kind": [("session", "session"), ("workout", "workout")],
    "training_sport": SPORTS,
    "training_intensity": INTENSITIES,
    "training_hours": HOURS,
}
