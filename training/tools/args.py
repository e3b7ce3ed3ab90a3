"""Argument models of the training tools (reads of activities, sleep and fitness; the schedule
writes). Strict like ``coach.schemas``: bounds live in the schema, descriptions only where the
name, type and bounds don't say it all (every model call carries these schemas).

A ``workout_id`` is a session's ref, ``week-2-session-3``, as ``get_training_plan`` lists them.
"""

from __future__ import annotations

import datetime
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from coach.schemas import Notes, StrictModel, Text

MAX_RANGE_DAYS = 366
MAX_PLAN_DAYS = 62
MAX_COMPARE = 10
MAX_SLEEP_DAYS = 90

SportName = Literal["RUNNING", "CYCLING", "SWIMMING", "STRENGTH", "OTHER"]
ActivityType = Annotated[SportName, Field(description="Any sport when left out")]

_REF = re.compile(r"^week-(\d{1,3})-session-(\d{1,2})$")


def _ref(value: str) -> str:
    if not _REF.match(value):
        raise ValueError('must be a session ref like "week-2-session-3"')
    return value


WorkoutId = Annotated[
    Text,
    Field(strict=True, max_length=30, description='Session ref, e.g. "week-2-session-3"'),
    AfterValidator(_ref),
]


def ref_numbers(ref: str) -> tuple[int, int]:
    """``"week-2-session-3"`` → ``(2, 3)`` (the ref was validated by ``WorkoutId``)."""
    match = _REF.match(ref)
    assert match is not None
    return int(match.group(1)), int(match.group(2))


def _range_ok(start: datetime.date, end: datetime.date, *, most: int) -> None:
    if end < start:
        raise ValueError("end_date must be on or after start_date")
    if (end - start).days + 1 > most:
        raise ValueError(f"the range may span at most {most} days")


# --- reads --------------------------------------------------------------------------------------


class LastActivityArgs(StrictModel):
    activity_type: ActivityType | None = None


class ActivityByDateArgs(StrictModel):
    date: datetime.date
    activity_type: ActivityType | None = None


class ActivitiesRangeArgs(StrictModel):
    start_date: datetime.date
    end_date: datetime.date
    activity_type: ActivityType | None = None

    @model_validator(mode="after")
    def _bounded(self) -> ActivitiesRangeArgs:
        _range_ok(self.start_date, self.end_date, most=MAX_RANGE_DAYS)
        return self


class TrainingPlanArgs(StrictModel):
    start_date: datetime.date | None = Field(default=None, description="Default: today")
    end_date: datetime.date | None = Field(default=None, description="Default: start + 13 days")

    @model_validator(mode="after")
    def _bounded(self) -> TrainingPlanArgs:
        if self.start_date and self.end_date:
            _range_ok(self.start_date, self.end_date, most=MAX_PLAN_DAYS)
        return self


class SleepArgs(StrictModel):
    days: int = Field(default=7, strict=True, ge=1, le=MAX_SLEEP_DAYS)


class FitnessArgs(StrictModel):
    date: datetime.date | None = Field(default=None, description="Default: today")


class CompareArgs(StrictModel):
    activity_ids: list[Annotated[int, Field(strict=True, ge=1)]] | None = Field(
        default=None, min_length=2, max_length=MAX_COMPARE
    )
    start_date: datetime.date | None = Field(default=None, description="Or a date range")
    end_date: datetime.date | None = None

    @model_validator(mode="after")
    def _one_way(self) -> CompareArgs:
        has_range = self.start_date is not None or self.end_date is not None
        if (self.activity_ids is None) == (not has_range):
            raise ValueError("give either activity_ids or start_date and end_date")
        if has_range:
            if self.start_date is None or self.end_date is None:
                raise ValueError("a date range needs both start_date and end_date")
            _range_ok(self.start_date, self.end_date, most=MAX_RANGE_DAYS)
        return self


# --- writes -------------------------------------------------------------------------------------


class RescheduleArgs(StrictModel):
    workout_id: WorkoutId
    new_date: datetime.date
    strategy: Literal["swap", "replace", "push"] = Field(
        default="swap",
        description="On a clash: swap dates, replace (remove) the other, or push all later",
    )


Intensity = Literal["easy", "tempo", "threshold", "intervals", "vo2max"]


class CustomWorkoutArgs(StrictModel):
    date: datetime.date
    sport: SportName
    name: Annotated[Text, Field(strict=True, min_length=1, max_length=200)]
    description: Annotated[Text, Field(strict=True, max_length=2000)]
    duration: int | None = Field(default=None, strict=True, ge=5, le=600, description="Minutes")
    target_pace: Annotated[Text, Field(strict=True, max_length=30)] | None = Field(
        default=None, description='e.g. "5:30 /km"'
    )
    intensity: Intensity | None = None


class CompleteArgs(StrictModel):
    workout_id: WorkoutId
    rating: int | None = Field(default=None, strict=True, ge=1, le=5)
    notes: Notes | None = None
    date: datetime.date | None = Field(default=None, description="Default: its planned date")


class SkipArgs(StrictModel):
    workout_id: WorkoutId
    reason: Annotated[Text, Field(strict=True, min_length=1, max_length=500)]


class SetInput(StrictModel):
    exercise: int = Field(strict=True, ge=1, le=100, description="Exercise number in the session")
    set: int = Field(strict=True, ge=1, le=30)
    reps: int | None = Field(default=None, strict=True, ge=0, le=200)
    load: Annotated[Text, Field(strict=True, max_length=100)] = ""
    rpe: float | None = Field(default=None, ge=1, le=10)


class LogSetsArgs(StrictModel):
    workout_id: WorkoutId
    sets: list[SetInput] = Field(min_length=1, max_length=60)
