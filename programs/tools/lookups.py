"""The program family's lookups of a week, session or exercise by position (one query each, never
the whole program) and the short descriptions its previews and call summaries use (moved from
``coach.tools.base``, which is the engine's and knows no family)."""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from django.db.models import Model as DjangoModel

from coach.render import cardio_text
from coach.tools.base import ToolStateError
from coach.vocabulary import Counted, Phrase, plural
from programs.models import CardioBlock, Exercise, Session, Week

Model = TypeVar("Model", bound=DjangoModel)


def week_label(week: Week) -> str:
    return f"Week {week.position}: {week.phase}"


def session_label(session: Session, week_position: int) -> str:
    return f"Week {week_position}, Session {session.position}: {session.name}"


def exercise_label(exercise: Exercise, week_position: int, session_position: int) -> str:
    return (
        f"Week {week_position}, Session {session_position}, Exercise {exercise.position}: "
        f"{exercise.name}"
    )


def as_written(obj: Model, fields: dict[str, Any]) -> Model:
    """An unsaved copy of ``obj`` with ``fields`` (model field → value) set: the object as a write
    of those values will leave it, so a modify describes it before its write, in the same trip."""
    twin = copy.copy(obj)
    for name, value in fields.items():
        setattr(twin, name, value)
    return twin


def describe_exercise(exercise: Exercise) -> Phrase:
    """ "Squat - 3 sets × 8-10 @ 135 lbs, 2 warm-up sets, rest 120s". The warm-up sets are a
    count left as data (``coach.vocabulary.Phrase``), spelled "1 warm-up set" or "2 warm-up sets"
    by the engine's one plural when it words the call's result: the executor that describes the
    exercise doesn't call the vocabulary in the middle of its write, and keeps no plural of its
    own."""
    parts: list[str | Counted] = [
        f"{exercise.name} - {exercise.working_sets} sets × {exercise.reps} @ {exercise.target_load}"
    ]
    if exercise.warmup_sets:
        parts += [", ", (exercise.warmup_sets, "warm-up set")]
    parts.append(f", rest {exercise.rest_seconds}s")
    if exercise.group_label:
        parts.append(f", group {exercise.group_label}")
    if exercise.skipped:
        parts.append(" (skipped)")
    return tuple(parts)


def describe_cardio(cardio: CardioBlock | None) -> str:
    return cardio_text(cardio)


def describe_session(session: Session, *, exercise_count: int, cardio: CardioBlock | None) -> str:
    when = ", ".join(
        part
        for part in (
            session.day_of_week,
            session.scheduled_date and session.scheduled_date.isoformat(),
        )
        if part
    )
    text = session.name + (f" ({when})" if when else "")
    parts = []
    if exercise_count:
        parts.append(plural(exercise_count, "exercise"))
    if cardio is not None:
        parts.append(f"cardio: {describe_cardio(cardio)}")
    if not parts:
        parts.append("rest day")
    return f"{text} - {', '.join(parts)}"


def describe_week(week: Week, *, session_count: int | None = None) -> str:
    text = f"{week.phase}, {week.start_date.isoformat()} to {week.end_date.isoformat()}"
    if session_count is not None:
        text += f", {plural(session_count, 'session')}"
    return text


def cardio_dict(cardio: CardioBlock | None) -> dict[str, Any] | None:
    if cardio is None:
        return None
    return {
        "type": cardio.type,
        "duration": cardio.duration,
        "modality": cardio.modality,
        "instructions": cardio.instructions,
        "notes": cardio.notes,
    }


# --- lookups by position ------------------------------------------------------------------------


def _count_phrase(count: int, noun: str) -> str:
    if count == 0:
        return f"no {noun}s"
    return f"only {plural(count, noun)}"


def get_week(*, program_id: int, number: int, field: str = "weekNumber") -> Week:
    week = Week.objects.filter(program_id=program_id, position=number).first()
    if week is None:
        count = Week.objects.filter(program_id=program_id).count()
        have = "no weeks" if count == 0 else plural(count, "week")
        raise ToolStateError(
            "NOT_FOUND", f"The program has {have}; week {number} doesn't exist.", field
        )
    return week


def get_session(
    *,
    program_id: int,
    week_number: int,
    number: int,
    week_field: str = "weekNumber",
    field: str = "sessionNumber",
) -> Session:
    session = (
        Session.objects.select_related("week")
        .filter(week__program_id=program_id, week__position=week_number, position=number)
        .first()
    )
    if session is None:
        week = get_week(program_id=program_id, number=week_number, field=week_field)
        count = Session.objects.filter(week=week).count()
        raise ToolStateError(
            "NOT_FOUND",
            f"Week {week_number} has {_count_phrase(count, 'session')}; "
            f"session {number} doesn't exist.",
            field,
        )
    return session


def get_exercise(
    *, program_id: int, week_number: int, session_number: int, number: int
) -> Exercise:
    exercise = (
        Exercise.objects.select_related("session__week")
        .filter(
            session__week__program_id=program_id,
            session__week__position=week_number,
            session__position=session_number,
            position=number,
        )
        .first()
    )
    if exercise is None:
        session = get_session(program_id=program_id, week_number=week_number, number=session_number)
        count = Exercise.objects.filter(session=session).count()
        raise ToolStateError(
            "NOT_FOUND",
            f"Week {week_number}, session {session_number} has {_count_phrase(count, 'exercise')}; "
            f"exercise {number} doesn't exist.",
            "exerciseNumber",
        )
    return exercise


def get_cardio(session: Session) -> CardioBlock | None:
    return CardioBlock.objects.filter(session=session).first()
