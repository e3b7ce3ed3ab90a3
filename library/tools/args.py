"""The argument models of the library tools (seed 003), in the seed's snake_case.

Strict like ``coach.schemas``: wrong types and unknown fields are a VALIDATION_ERROR. The bounds
come from the library app (at most 10 search results, at most 52 sessions per schedule, a workout
of 5 to 600 minutes), so a tool and a page can't disagree. Descriptions are short: they are sent
with every model call.
"""

from __future__ import annotations

import datetime
import re
from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from coach import vocabulary
from coach.schemas import Name, RestSeconds, StrictModel, Text
from library.access import parse_workout_id
from library.models import Intensity, Sport
from library.recurrence import MAX_OCCURRENCES, expand_dates
from library.schemas import MAX_EXERCISES
from library.search import MAX_LIMIT, MAX_QUERY_CHARS

PAGES = ("home", "library", "calendar", "workout", "fitness", "settings")
CARDIO_TYPES = tuple(vocabulary.CARDIO_TYPES)


def _workout_id(value: Any) -> int:
    pk = parse_workout_id(value)
    if pk is None:
        raise PydanticCustomError(
            "workout_id",
            "must be a workout ID from the search results, e.g. 12 (got {got})",
            {"got": repr(value)[:40]},
        )
    return pk


_TIME_OF_DAY = re.compile(
    r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2})(?::(?P<second>\d{2}))?)?\s*(?P<half>[ap])\.?m\.?",
    re.IGNORECASE,
)
_CLOCK = re.compile(r"(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?")


def time_of_day(value: Any) -> datetime.time:
    """A time as seed 003 shows it ("06:00") or as a person types it ("6:00", "06:00:00",
    "6am", "6:30 pm"); a bare hour ("6") is refused, since it could be morning or evening."""
    text = value.strip() if isinstance(value, str) else ""
    clock = _CLOCK.fullmatch(text)
    half = _TIME_OF_DAY.fullmatch(text)
    match = clock or half
    hour = int(match["hour"]) if match else -1
    minute = int(match["minute"] or 0) if match else -1
    second = int(match["second"] or 0) if match else -1
    if half is not None and 1 <= hour <= 12:
        hour = hour % 12 + (12 if half["half"].lower() == "p" else 0)
    elif half is not None:
        hour = -1
    if not (0 <= hour <= 23 and 0 <= minute <= 59 and 0 <= second <= 59):
        raise PydanticCustomError(
            "time",
            'must be a time of day like "06:00" (24-hour HH:MM; "6:30 pm" works too), got {got}',
            {"got": repr(value)[:40]},
        )
    return datetime.time(hour, minute)


TimeOfDay = Annotated[
    datetime.time,
    PlainValidator(time_of_day),
    WithJsonSchema({"type": "string", "description": '"HH:MM", optional'}),
]

WorkoutId = Annotated[
    int,
    PlainValidator(_workout_id),
    WithJsonSchema({"type": ["integer", "string"]}),
]


class SearchWorkoutLibraryArgs(StrictModel):
    query: Text = Field(
        strict=True, min_length=1, max_length=MAX_QUERY_CHARS, description='e.g. "quick legs"'
    )
    # Seed 003: at most 10 results; a larger limit is cut to 10 and the result says so.
    limit: int = Field(default=5, strict=True, ge=1, description=f"At most {MAX_LIMIT}")


class AddWorkoutToCalendarArgs(StrictModel):
    workout_id: WorkoutId = Field(description="From search results")
    date: datetime.date
    time: TimeOfDay | None = None
    recurrence: Literal["daily", "weekly"] | None = None
    until: datetime.date | None = Field(default=None, description="Or count")
    count: int | None = Field(default=None, strict=True, ge=1, le=MAX_OCCURRENCES)

    @model_validator(mode="after")
    def _expands(self) -> AddWorkoutToCalendarArgs:
        # The same pure expansion the tool runs: a bad combination fails before any database work.
        expand_dates(
            start=self.date, recurrence=self.recurrence, until=self.until, count=self.count
        )
        return self

    def dates(self) -> list[datetime.date]:
        return expand_dates(
            start=self.date, recurrence=self.recurrence, until=self.until, count=self.count
        )


class WorkoutExercise(StrictModel):
    name: Name
    sets: int = Field(strict=True, ge=1, le=50)
    reps: Annotated[Text, Field(strict=True, min_length=1, max_length=50)]
    load: Annotated[Text, Field(strict=True, min_length=1, max_length=100)]
    rest_seconds: RestSeconds = 120


class WorkoutCardio(StrictModel):
    type: Literal[CARDIO_TYPES]  # type: ignore[valid-type]
    duration: int = Field(strict=True, ge=1, le=600)
    modality: Text = Field(default="", strict=True, max_length=100)


class SaveWorkoutToLibraryArgs(StrictModel):
    title: Name
    sport: Literal[tuple(Sport.values)]  # type: ignore[valid-type]
    duration: int = Field(strict=True, ge=5, le=600, description="Minutes")
    intensity: Literal[tuple(Intensity.values)]  # type: ignore[valid-type]
    description: Text = Field(strict=True, max_length=4000)
    exercises: list[WorkoutExercise] = Field(default_factory=list, max_length=MAX_EXERCISES)
    cardio: WorkoutCardio | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> SaveWorkoutToLibraryArgs:
        if not self.exercises and self.cardio is None:
            raise ValueError("a workout needs at least one exercise or a cardio block")
        return self

    def template(self) -> dict[str, Any]:
        return {
            "exercises": [e.model_dump() for e in self.exercises],
            "cardio": self.cardio.model_dump() if self.cardio else None,
        }


class NavigateToPageArgs(StrictModel):
    page: Literal[PAGES]  # type: ignore[valid-type]
    workout_id: WorkoutId | None = Field(default=None, description="For page workout")
