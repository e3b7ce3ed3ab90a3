"""The what-if of a preview, the training family's part: the plan's next key dates (the end of this
week, the end of the program) and the projected Form (TSB) on them, declared as ``WHATIF``
(``training.tools``) for the engine's ``coach.whatif``, which reads them before and after a
proposed change.

The engine reads the form before the run and again inside the rolled-back run
(``training.selectors.form_on_dates`` reads the database as it is at that moment), so the "after"
is exactly what applying would give. Only the athlete's current program feeds the projection, so
a batch on another program has no what-if. Rows whose form doesn't change are left out; a batch
that changes no form has none.
"""

from __future__ import annotations

import datetime

from django.db.models import Max

from coach.tools.base import ToolContext
from programs import workout_log
from programs.models import Week

from .selectors import form_on_dates
from .services import athlete_today, profile_for

KeyDates = list[tuple[str, datetime.date]]


def key_dates(ctx: ToolContext) -> KeyDates:
    """The end of this week and the end of the program, when the program reaches past today."""
    program = ctx.program
    if program is None or ctx.athlete is None:
        return []
    current = workout_log.athlete_program(athlete=ctx.athlete)
    if current is None or current.pk != program.pk:
        return []
    today = athlete_today(profile=profile_for(athlete=ctx.athlete))
    end = Week.objects.filter(program=program).aggregate(end=Max("end_date"))["end"]
    if end is None or end <= today:
        return []  # a plan with no future has nothing to project
    dates: KeyDates = []
    week_end = today + datetime.timedelta(days=6 - today.weekday())
    if today < week_end < end:
        dates.append(("End of this week", week_end))
    dates.append(("End of the program", end))
    return dates


def form(ctx: ToolContext, dates: KeyDates) -> dict[datetime.date, float]:
    if not dates:
        return {}
    values = form_on_dates(athlete=ctx.athlete, dates=[d for _, d in dates])
    return {day: value["tsb"] for day, value in values.items()}


def projection(ctx: ToolContext, dates: KeyDates) -> dict[datetime.date, dict[str, float]]:
    """Fitness (CTL), fatigue (ATL) and form (TSB) on ``dates``: the preview shows all three,
    before and after (the program editor's and the chat card's what-if table)."""
    if not dates:
        return {}
    values = form_on_dates(athlete=ctx.athlete, dates=[d for _, d in dates])
    return {
        day: {"fitness": value["ctl"], "fatigue": value["atl"], "form": value["tsb"]}
        for day, value in values.items()
    }
