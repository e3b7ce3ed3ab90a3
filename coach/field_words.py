"""The tools' argument names as a person says them (``workingSets`` → "number of sets"): for the
athlete-facing words of errors (``coach.wording``) and of results (``Outcome.spoken``). Imports
nothing of the engine, so a tool module may use it."""

from __future__ import annotations

import re

FIELD_WORDS = {
    "weekNumber": "week number",
    "sessionNumber": "session number",
    "exerciseNumber": "exercise number",
    "sourceWeekNumber": "week to copy from",
    "sourceSessionNumber": "session to copy",
    "targetWeekNumber": "week to copy to",
    "newPosition": "new position",
    "position": "position",
    "scheduledDate": "date",
    "dayOfWeek": "day of the week",
    "startDate": "start date",
    "endDate": "end date",
    "workingSets": "number of sets",
    "warmupSets": "number of warm-up sets",
    "targetLoad": "load",
    "restSeconds": "rest time",
    "groupLabel": "group",
    "updates": "changes",
}
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def field_words(name: str) -> str:
    """An argument's name as a person says it: ``workingSets`` → "number of sets"."""
    return FIELD_WORDS.get(name) or _CAMEL.sub(" ", name).lower()
