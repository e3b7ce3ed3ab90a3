"""Read tools: they answer the model at once, inside the agent loop, and never join a batch.

The system prompt carries only the current and the next week (a compact summary); ``get_week``
lets the model look at any other week before it proposes a change there.
"""

from __future__ import annotations

from django.utils import timezone

from coach.render import plain
from coach.schemas import StrictModel, WeekNumber
from coach.tools.base import Outcome, ToolContext, ToolSpec, no_target

from ..summary import week_lines
from .lookups import get_week


class GetWeekArgs(StrictModel):
    weekNumber: WeekNumber


def read_week(*, ctx: ToolContext, args: GetWeekArgs) -> Outcome:
    """Every session of one week with its exercises and cardio (user text quoted as data)."""
    program_id = ctx.program_id
    week = get_week(program_id=program_id, number=args.weekNumber)
    today = timezone.localdate()
    return Outcome(
        summary="\n".join(week_lines([week], today=today)),
        spoken="\n".join(week_lines([week], today=today, q=plain)),
    )


SPECS = [
    ToolSpec(
        name="get_week",
        description=(
            "Read one week in full (sessions, exercises, cardio, notes), e.g. one not in the "
            "summary. Changes nothing."
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
