"""Read tools: they answer the model at once, inside the agent loop, and never join a batch.

The system prompt carries only the current and the next week (a compact summary); ``get_week``
lets the model look at any other week before it proposes a change there (without a number, the
week around today: the offline coach's "Show my program"). With ``exercise`` it answers a question
about one exercise ("how many sets of deadlifts am I doing", "when do I do overhead press"): where
and how that exercise is planned in the week, in a line a person reads. It narrows the one read
rather than adding a tool: the program tools' schemas have a token budget (issue 7).
"""

from __future__ import annotations

from django.utils import timezone
from pydantic.json_schema import SkipJsonSchema

from coach.render import plain, quote
from coach.schemas import DayOfWeek, Name, StrictModel
from coach.tools.base import Outcome, ToolContext, ToolSpec, ToolStateError, no_target
from coach.vocabulary import plural

from ..models import Exercise, Week
from ..selectors import current_week
from ..summary import week_lines
from .args import WeekNumber
from .lookups import get_week


class GetWeekArgs(StrictModel):
    weekNumber: WeekNumber | None = None
    dayOfWeek: DayOfWeek | SkipJsonSchema[None] = None
    exercise: Name | SkipJsonSchema[None] = None


def _week(ctx: ToolContext, number: int | None) -> Week:
    """Week ``number`` of the program; None: the week around today (or the nearest one)."""
    if number is not None:
        return get_week(program_id=ctx.program_id, number=number)
    weeks = list(Week.objects.filter(program_id=ctx.program_id).order_by("position"))
    week = current_week(weeks, timezone.localdate())
    if week is None:
        raise ToolStateError("NOT_FOUND", "The program has no weeks yet.", "weekNumber")
    return week


def read_week(*, ctx: ToolContext, args: GetWeekArgs) -> Outcome:
    """Every session of one week with its exercises and cardio (user text quoted as data); with
    no ``weekNumber``, the week around today (or the nearest one); with ``exercise``, that
    exercise's occurrences only (``_exercise_read``)."""
    week = _week(ctx, args.weekNumber)
    if args.exercise is not None:
        return _exercise_read(week, args.exercise, args.dayOfWeek)
    today = timezone.localdate()
    day = args.dayOfWeek
    return Outcome(
        summary="\n".join(week_lines([week], today=today, day=day)),
        spoken="\n".join(week_lines([week], today=today, q=plain, day=day)),
    )


def _planned(exercise: Exercise, q) -> str:
    """One occurrence in words: "3 sets of 8-10 at 135 lbs (1 warm-up set), 120 s rest, on
    Friday (Full Body)"."""
    session = exercise.session
    text = f"{plural(exercise.working_sets, 'set')} of {q(exercise.reps, limit=50)}"
    if exercise.target_load:
        text += f" at {q(exercise.target_load, limit=100)}"
    if exercise.warmup_sets:
        text += f" ({plural(exercise.warmup_sets, 'warm-up set')})"
    text += f", {exercise.rest_seconds} s rest, on "
    name = q(session.name, limit=100)
    text += f"{session.day_of_week} ({name})" if session.day_of_week else name
    return text + (" [skipped this week]" if exercise.skipped else "")


def _exercise_read(week: Week, name: str, day: str | None) -> Outcome:
    """Where and how the exercise called ``name`` (any case) is planned in ``week`` (on ``day``
    when one is given): each session holding it, its sets, reps, load, rest and day."""
    found = Exercise.objects.filter(session__week=week, name__iexact=name.strip())
    if day is not None:
        found = found.filter(session__day_of_week__iexact=day)
    found = list(found.select_related("session").order_by("session__position", "position"))
    if not found:
        where = f" on {day}" if day else ""
        raise ToolStateError(
            "NOT_FOUND", f"{quote(name)} isn't planned{where} in week {week.position}.", "exercise"
        )

    def line(q) -> str:
        head = f"{q(found[0].name)}, week {week.position}: "
        return head + "; ".join(_planned(e, q) for e in found) + "."

    return Outcome(summary=line(quote), spoken=line(plain))


SPECS = [
    ToolSpec(
        name="get_week",
        looking_at=lambda args: (
            f"Looking at week {args['weekNumber']} of your program…"
            if isinstance(args.get("weekNumber"), int)
            else "Looking at your program…"
        ),
        description=(
            "Read one week (sessions, exercises, cardio, notes); no weekNumber: this week; "
            "dayOfWeek: that day only; exercise: that one only."
        ),
        args_model=GetWeekArgs,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="program",
        display_name="Read a week",
        safety_rules=("Reads never change anything and never join a batch.",),
        execute=read_week,
        target=no_target,
    ),
]
