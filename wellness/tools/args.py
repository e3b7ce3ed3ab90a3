"""Argument models of the wellness tools (seed 004), in the seed's snake_case.

Strict like ``coach.schemas``: wrong types, unknown fields and values out of range are a
VALIDATION_ERROR. Dates and times are the athlete's local ones. ``confidence`` (0 to 1) is how
sure the model is that the athlete stated this; it is optional for native tool calls and read by
the guardrails (``coach.guardrails``), never stored with the log.
"""

from __future__ import annotations

import datetime
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from coach.schemas import StrictModel, Text

Confidence = Annotated[
    float | None, Field(default=None, ge=0, le=1, description="How sure you are, 0 to 1")
]
Scale = Annotated[int, Field(strict=True, ge=1, le=5)]
ShortNote = Annotated[Text, Field(strict=True, max_length=280)]
_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


def _time(value: str) -> str:
    if not _TIME.match(value):
        raise ValueError('must be a 24-hour time like "09:00"')
    return value


Clock = Annotated[
    Text, Field(strict=True, max_length=5, description='"HH:MM", local'), AfterValidator(_time)
]


def clock(value: str) -> datetime.time:
    hours, minutes = value.split(":")
    return datetime.time(int(hours), int(minutes))


class LogMedicationArgs(StrictModel):
    medication_name: Annotated[Text, Field(strict=True, min_length=1, max_length=80)]
    kind: Literal["medication", "supplement"]
    dose: Annotated[Text, Field(strict=True, max_length=60, description='e.g. "5 g"')] = ""
    date: datetime.date | None = Field(default=None, description="Local; today when left out")
    time: Clock | None = None
    part_of_day: Literal["morning", "afternoon", "evening", "night"] | None = None
    confidence: Confidence = None


class LogMoodArgs(StrictModel):
    mood: Literal["great", "good", "okay", "poor", "crisis"]
    note: ShortNote = ""
    date: datetime.date | None = Field(default=None, description="Local; today when left out")
    confidence: Confidence = None


class LogReadinessArgs(StrictModel):
    sleep_quality: Scale = Field(description="5 = slept very well")
    soreness: Scale = Field(description="5 = very sore")
    stress: Scale = Field(description="5 = very stressed")
    note: ShortNote = ""
    date: datetime.date | None = Field(default=None, description="Local; today when left out")
    confidence: Confidence = None


class CreateReminderArgs(StrictModel):
    title: Annotated[Text, Field(strict=True, min_length=1, max_length=120)]
    time: Clock
    days: list[Annotated[int, Field(strict=True, ge=1, le=7)]] = Field(
        min_length=1, max_length=7, description="ISO weekdays, 1 = Monday ... 7 = Sunday"
    )
    confidence: Confidence = None


class CreateCareLogArgs(StrictModel):
    log_type: Literal["visit", "injury", "physio"]
    title: Annotated[Text, Field(strict=True, min_length=1, max_length=120)]
    occurred_at: datetime.datetime = Field(description="Local date and time, e.g. 2026-11-20T10:00")
    notes: Annotated[Text, Field(strict=True, max_length=1000)] = ""
    confidence: Confidence = None


class GetWellnessLogsArgs(StrictModel):
    kind: Literal["all", "medication", "mood", "readiness", "care"] = "all"
    days: int = Field(default=7, strict=True, ge=1, le=90)


class ListRemindersArgs(StrictModel):
    pass
