"""The shape of a library workout, validated with strict pydantic models.

``WorkoutTemplate`` is what ``LibraryWorkout.template`` stores: strength exercises and/or one cardio
block, plus an optional warm-up list. ``WorkoutInput`` is everything ``save_workout_to_library``
takes. Field names follow the brief (``sets``, ``load``) and map onto the program's Exercise and
CardioBlock fields in ``library.scheduling``. Errors become one ``ValueError`` whose message names
each bad field and its bounds (``describe_errors``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from .models import CardioType, Intensity, Sport

MAX_EXERCISES = 30
MAX_TAGS = 12
MAX_TAG_CHARS = 40


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


Text = Annotated[str, AfterValidator(_no_nul)]


def short_text(max_length: int) -> Any:
    """A non-empty string of at most ``max_length`` characters, for list items."""
    return Annotated[
        str, StringConstraints(min_length=1, max_length=max_length), AfterValidator(_no_nul)
    ]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class TemplateExercise(StrictModel):
    name: Text = Field(strict=True, min_length=1, max_length=200)
    sets: int = Field(strict=True, ge=1, le=50, description="Working sets.")
    reps: Text = Field(strict=True, min_length=1, max_length=50, description='e.g. "8-10".')
    load: Text = Field(
        strict=True, min_length=1, max_length=100, description='e.g. "70% 1RM", "bodyweight".'
    )
    rest_seconds: int = Field(default=120, strict=True, ge=0, le=3600)
    warmup_sets: int = Field(default=0, strict=True, ge=0, le=20)
    notes: Text = Field(default="", strict=True, max_length=2000)


class TemplateCardio(StrictModel):
    type: Literal[tuple(CardioType.values)]  # type: ignore[valid-type]
    duration: int = Field(strict=True, ge=1, le=600, description="Minutes.")
    modality: Text = Field(default="", strict=True, max_length=100, description='e.g. "Running".')
    instructions: Text = Field(default="", strict=True, max_length=2000)


class WorkoutTemplate(StrictModel):
    exercises: list[TemplateExercise] = Field(default_factory=list, max_length=MAX_EXERCISES)
    cardio: TemplateCardio | None = None
    warmup: list[short_text(200)] = Field(  # type: ignore[valid-type]
        default_factory=list, max_length=20
    )

    @model_validator(mode="after")
    def _not_empty(self) -> WorkoutTemplate:
        if not self.exercises and self.cardio is None:
            raise ValueError("a workout needs at least one exercise or a cardio block")
        return self


class WorkoutInput(StrictModel):
    title: Text = Field(strict=True, min_length=1, max_length=200)
    sport: Literal[tuple(Sport.values)]  # type: ignore[valid-type]
    duration_minutes: int = Field(strict=True, ge=5, le=600)
    intensity: Literal[tuple(Intensity.values)]  # type: ignore[valid-type]
    description: Text = Field(default="", strict=True, max_length=4000)
    tags: list[short_text(MAX_TAG_CHARS)] = Field(  # type: ignore[valid-type]
        default_factory=list, max_length=MAX_TAGS
    )
    template: WorkoutTemplate

    @field_validator("tags")
    @classmethod
    def _normalise_tags(cls, tags: list[str]) -> list[str]:
        """Lower-case, one space between words, no duplicates, in the order given."""
        seen: list[str] = []
        for tag in tags:
            tag = " ".join(tag.lower().split())
            if tag not in seen:
                seen.append(tag)
        return seen


def describe_errors(exc: ValidationError) -> str:
    """One sentence per error: ``template.exercises.1.sets: Input should be less than or equal to
    50``; positions in lists are shown 1-based, as people count."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p + 1) if isinstance(p, int) else str(p) for p in error["loc"])
        parts.append(f"{where}: {error['msg']}" if where else error["msg"])
    return "; ".join(parts) + "."


def validate_template(data: Any) -> WorkoutTemplate:
    try:
        return WorkoutTemplate.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"Invalid workout template: {describe_errors(exc)}") from None


def validate_workout(data: dict[str, Any]) -> WorkoutInput:
    try:
        return WorkoutInput.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"Invalid workout: {describe_errors(exc)}") from None
