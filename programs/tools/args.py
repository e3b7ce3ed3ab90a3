"""The argument models of the eleven program tools (seed 000, Phase 1), in the seed's camelCase,
built from the engine's ``StrictModel`` and shared field types (``coach.schemas``).

The same ``WeekInput``/``SessionInput``/``ExerciseInput`` models validate ``add_week``,
``add_session``, ``add_exercise`` and the ``import_program`` command, so a program file and a tool
call obey the same rules.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, WithJsonSchema, model_validator
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from coach.schemas import DayOfWeek, IsoDate, Name, Notes, RestSeconds, StrictModel, Text, Updates
from coach.vocabulary import CARDIO_TYPES

MAX_WEEKS = 520
MAX_SESSIONS = 50
MAX_EXERCISES = 100

# --- field types --------------------------------------------------------------------------------

WeekNumber = Annotated[int, Field(strict=True, ge=1, le=MAX_WEEKS)]
SessionNumber = Annotated[int, Field(strict=True, ge=1, le=MAX_SESSIONS)]
ExerciseNumber = Annotated[int, Field(strict=True, ge=1, le=MAX_EXERCISES)]


def _position(value: Any) -> int | str:
    if value == "end" and isinstance(value, str):
        return "end"
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_WEEKS:
        return value
    raise PydanticCustomError(
        "position",
        'must be a whole number from 1 (the first place) or "end" (got {got})',
        {"got": repr(value)},
    )


Position = Annotated[
    int | Literal["end"],
    PlainValidator(_position),
    WithJsonSchema(
        {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["end"]}]}
    ),
]

Reps = Annotated[
    Text, Field(strict=True, min_length=1, max_length=50, description='e.g. "8-10" or "5"')
]
TargetLoad = Annotated[
    Text,
    Field(strict=True, min_length=1, max_length=100, description='e.g. "185 lbs", "70% 1RM"'),
]
WorkingSets = Annotated[int, Field(strict=True, ge=0, le=50)]
WarmupSets = Annotated[int, Field(strict=True, ge=0, le=20)]
GroupLabel = Annotated[
    Text, Field(strict=True, max_length=20, description='Superset label, e.g. "A"')
]
Skipped = Annotated[bool, Field(strict=True, description="Skipped this time, not removed")]
WarmupList = Annotated[
    list[Annotated[Text, Field(strict=True, min_length=1, max_length=200)]], Field(max_length=20)
]


# --- building blocks ----------------------------------------------------------------------------


class CardioInput(StrictModel):
    """A cardio block; a cardio-only day is a session with no exercises and one of these."""

    type: Literal[tuple(CARDIO_TYPES)]  # type: ignore[valid-type]
    duration: int = Field(strict=True, ge=1, le=1440, description="Minutes")
    modality: Text = Field(default="", strict=True, max_length=100, description='e.g. "Running"')
    instructions: Text = Field(default="", strict=True, max_length=2000)
    notes: Text = Field(default="", strict=True, max_length=2000)


class ExerciseInput(StrictModel):
    """A new exercise. warmupSets defaults to 0 and restSeconds to 120."""

    name: Name
    reps: Reps
    targetLoad: TargetLoad
    workingSets: WorkingSets
    warmupSets: WarmupSets = 0
    restSeconds: RestSeconds = 120
    notes: Notes = ""
    groupLabel: GroupLabel = ""


class SessionInput(StrictModel):
    """A new session. An empty exercise list with no cardio is a rest day; with cardio, a cardio day."""

    name: Name
    exercises: list[ExerciseInput] = Field(
        default_factory=list,
        max_length=MAX_EXERCISES,
        description="Empty for a rest day or a cardio day",
    )
    # null is accepted and means "none", as leaving the field out does; the schema shows one way.
    scheduledDate: IsoDate | SkipJsonSchema[None] = None
    dayOfWeek: DayOfWeek | SkipJsonSchema[None] = None
    warmup: WarmupList = Field(default_factory=list)
    cardio: CardioInput | None = None
    notes: Notes = ""


class WeekInput(StrictModel):
    """A complete new week. Its weekNumber, if given, is ignored: weeks are numbered by position."""

    # Accepted (program files carry it) but left out of the schema: a model need not send it.
    weekNumber: SkipJsonSchema[int | None] = Field(default=None, strict=True)
    phase: Text = Field(
        strict=True, min_length=1, max_length=100, description='e.g. "Hypertrophy", "Deload"'
    )
    startDate: IsoDate
    endDate: IsoDate
    description: Text = Field(default="", strict=True, max_length=2000)
    sessions: list[SessionInput] = Field(
        min_length=1, max_length=MAX_SESSIONS, description="In order, rest and cardio days too"
    )

    @model_validator(mode="after")
    def _dates_ordered(self) -> WeekInput:
        if self.endDate < self.startDate:
            raise ValueError(
                f"endDate ({self.endDate.isoformat()}) must not be before startDate "
                f"({self.startDate.isoformat()})"
            )
        return self


class ExerciseUpdates(Updates):
    name: Name = None  # type: ignore[assignment]
    reps: Reps = None  # type: ignore[assignment]
    targetLoad: TargetLoad = None  # type: ignore[assignment]
    workingSets: WorkingSets = None  # type: ignore[assignment]
    warmupSets: WarmupSets = None  # type: ignore[assignment]
    restSeconds: RestSeconds = None  # type: ignore[assignment]
    notes: Notes = None  # type: ignore[assignment]
    groupLabel: GroupLabel = None  # type: ignore[assignment]
    skipped: Skipped = None  # type: ignore[assignment]


class SessionUpdates(Updates):
    name: Name = None  # type: ignore[assignment]
    scheduledDate: IsoDate | None = Field(default=None, description="null clears it")
    dayOfWeek: DayOfWeek = None  # type: ignore[assignment]
    warmup: WarmupList = None  # type: ignore[assignment]
    cardio: CardioInput | None = Field(
        default=None, description="Replaces the cardio block; null removes it"
    )
    notes: Notes = None  # type: ignore[assignment]


class WeekUpdates(Updates):
    phase: Text = Field(default=None, strict=True, min_length=1, max_length=100)  # type: ignore[assignment]
    startDate: IsoDate = None  # type: ignore[assignment]
    endDate: IsoDate = None  # type: ignore[assignment]
    description: Text = Field(default=None, strict=True, max_length=2000)  # type: ignore[assignment]

    @model_validator(mode="after")
    def _dates_ordered(self) -> WeekUpdates:
        both = {"startDate", "endDate"} <= self.model_fields_set
        if both and self.endDate < self.startDate:
            raise ValueError(
                f"endDate ({self.endDate.isoformat()}) must not be before startDate "
                f"({self.startDate.isoformat()})"
            )
        return self


# --- tool arguments -----------------------------------------------------------------------------

AT_LEAST_ONE = "Only the fields to change; at least one"


class ModifyExerciseArgs(StrictModel):
    weekNumber: WeekNumber
    sessionNumber: SessionNumber
    exerciseNumber: ExerciseNumber
    updates: ExerciseUpdates = Field(description=AT_LEAST_ONE)


class RemoveExerciseArgs(StrictModel):
    weekNumber: WeekNumber
    sessionNumber: SessionNumber
    exerciseNumber: ExerciseNumber


class AddExerciseArgs(StrictModel):
    weekNumber: WeekNumber
    sessionNumber: SessionNumber
    position: Position = "end"
    exercise: ExerciseInput


class ReorderExercisesArgs(StrictModel):
    weekNumber: WeekNumber
    sessionNumber: SessionNumber
    exerciseNumber: ExerciseNumber
    newPosition: int = Field(strict=True, ge=1, le=MAX_EXERCISES)


class ModifySessionArgs(StrictModel):
    weekNumber: WeekNumber
    sessionNumber: SessionNumber
    updates: SessionUpdates = Field(description=AT_LEAST_ONE)


class AddSessionArgs(StrictModel):
    weekNumber: WeekNumber
    position: Position = "end"
    session: SessionInput


class RemoveSessionArgs(StrictModel):
    weekNumber: WeekNumber
    sessionNumber: SessionNumber


class CopySessionArgs(StrictModel):
    sourceWeekNumber: WeekNumber
    sourceSessionNumber: SessionNumber
    targetWeekNumber: WeekNumber
    position: Position = "end"


class ModifyWeekArgs(StrictModel):
    weekNumber: WeekNumber
    updates: WeekUpdates = Field(description=AT_LEAST_ONE)


class AddWeekArgs(StrictModel):
    position: Position = "end"
    weeks: list[WeekInput] = Field(min_length=1, max_length=12)


class RemoveWeekArgs(StrictModel):
    weekNumber: WeekNumber


# --- camelCase ↔ model fields -------------------------------------------------------------------

EXERCISE_FIELDS = {
    "name": "name",
    "reps": "reps",
    "targetLoad": "target_load",
    "workingSets": "working_sets",
    "warmupSets": "warmup_sets",
    "restSeconds": "rest_seconds",
    "notes": "notes",
    "groupLabel": "group_label",
    "skipped": "skipped",
}
SESSION_FIELDS = {
    "name": "name",
    "scheduledDate": "scheduled_date",
    "dayOfWeek": "day_of_week",
    "warmup": "warmup",
    "notes": "notes",
}
WEEK_FIELDS = {
    "phase": "phase",
    "startDate": "start_date",
    "endDate": "end_date",
    "description": "description",
}
CARDIO_FIELDS = {
    "type": "type",
    "duration": "duration",
    "modality": "modality",
    "instructions": "instructions",
    "notes": "notes",
}


def sent_fields(updates: Updates, obj: Any, fields: dict[str, str]) -> list[tuple[str, Any, Any]]:
    """What a modify call changes, as data: ``(argument name, the object's value, the value
    sent)`` for each of ``fields`` the call sends (in the model's order; a field sent with its
    current value too), the ``changes`` of ``coach.tools.base.FieldUpdate``. Read from pydantic's
    ``model_fields_set`` here, in the family's tools, so the executor decides its change without
    a call into the engine."""
    sent = updates.model_fields_set
    return [
        (name, getattr(obj, fields[name]), getattr(updates, name))
        for name in type(updates).model_fields
        if name in sent and name in fields
    ]


def exercise_model_fields(exercise: ExerciseInput) -> dict[str, Any]:
    return {EXERCISE_FIELDS[k]: getattr(exercise, k) for k in ExerciseInput.model_fields}


def cardio_model_fields(cardio: CardioInput) -> dict[str, Any]:
    return {CARDIO_FIELDS[k]: getattr(cardio, k) for k in CardioInput.model_fields}


def session_model_fields(session: SessionInput) -> dict[str, Any]:
    return {
        "name": session.name,
        "scheduled_date": session.scheduledDate,
        "day_of_week": session.dayOfWeek or "",
        "warmup": list(session.warmup),
        "notes": session.notes,
    }


def session_tree_spec(session: SessionInput) -> dict[str, Any]:
    """The plain dict ``programs.services.session_tree_insert`` and ``weeks_tree_insert`` take."""
    return {
        "fields": session_model_fields(session),
        "exercises": [exercise_model_fields(e) for e in session.exercises],
        "cardio": cardio_model_fields(session.cardio) if session.cardio else None,
    }


def week_tree_spec(week: WeekInput) -> dict[str, Any]:
    return {
        "fields": {
            "phase": week.phase,
            "start_date": week.startDate,
            "end_date": week.endDate,
            "description": week.description,
        },
        "sessions": [session_tree_spec(s) for s in week.sessions],
    }


# Its arguments as a person says them (``coach.field_words``; declared in ``programs.tools``).
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
