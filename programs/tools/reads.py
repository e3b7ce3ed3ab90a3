"""Read tools: they answer the model at once, inside the agent loop, and never join a batch.

The system prompt carries only the current and the next week (a compact summary); ``get_week``
lets the model look at any other week before it proposes a change there (without a number, the
week around today: the offline coach's "Show my program").
"""

from __future__ import annotations

from django.utils import timezone
from pydantic.json_schema import SkipJsonSchema

from coach.render import plain
from coach.schemas import DayOfWeek, StrictModel
from coach.tools.base import Outcome, ToolContext, ToolSpec, ToolStateError, no_target

from ..models import Week
from ..selectors import current_week
from ..summary import week_lines
from .args import WeekNumber
from .lookups import get_week


class GetWeekArgs(StrictModel):
    weekNumber: WeekNumber | None = None
    dayOfWeek: DayOfWeek | SkipJsonSchema[None] = None


def read_week(*, ctx: ToolContext, args: GetWeekArgs) -> Outcome:
    """Every session of one week with its exercises and cardio (user text quoted as data); with
    no ``weekNumber``, the week around today (or the nearest one)."""
    program_id = ctx.program_id
    today = timezone.localdate()
    if args.weekNumber is None:
        week = current_week(
            list(Week.objects.filter(program_id=program_id).order_by("position")), today
        )
        if week is None:
            raise ToolStateError("NOT_FOUND", "The program has no weeks yet.", "weekNumber")
    else:
        week = get_week(program_id=program_id, number=args.weekNumber)
    day = args.dayOfWeek
    return Outcome(
        summary="\n".join(week_lines([week], today=today, day=day)),
        spoken="\n".join(week_lines([week], today=today, q=plain, day=day)),
    )


SPECS = [
    ToolSpec(
        name="get_week",
        looking_at=lambda args: (
            f"Looking at week {args['weekNumber']} of your program…"
            if isinstance(args.get("weekNumber"), int)
            else "Looking at your program…"
        ),
        description=(
            "Read one week in full (sessions, exercises, cardio, notes); no weekNumber: this "
            "week; dayOfWeek: that day only."
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
