"""What the training family's language tests share: a four-week program with a session every
day (seed 001's eval fixture: today is Thursday 26 November 2026, in week 2) and ``say``, the
offline coach's understanding of one message over it."""

from __future__ import annotations

import datetime

from coach.llm.base import World
from coach.llm.offline.understand import Understood, understand
from coach.tools.base import ToolContext
from tests.factories import ProgramFactory, SessionFactory, UserFactory, WeekFactory

TODAY = datetime.date(2026, 11, 26)  # a Thursday, in week 2
DAYS = (
    "Lower Body A",
    "Easy Run",
    "Upper Body A",
    "Tempo Run",
    "Lower Body B",
    "Intervals",
    "Long Run",
)


def grid(*, weeks: int = 4):
    """The program: weeks from Monday 16 November, one session a day named as in ``DAYS``."""
    athlete = UserFactory()
    program = ProgramFactory(athlete=athlete, start_date=datetime.date(2026, 11, 16))
    for _ in range(weeks):
        week = WeekFactory(program=program)
        for name in DAYS:
            SessionFactory(week=week, name=name)
    return program


def world(program, *, today: datetime.date = TODAY, said=None) -> World:
    ctx = ToolContext(athlete=program.athlete, program=program, user=program.athlete)
    return World(ctx=ctx, today=today, said=list(said or []))


def say(program, message: str, **options) -> Understood | None:
    return understand(message, world(program, **options))


def calls(program, message: str, **options) -> list[tuple[str, dict]]:
    """The calls ``message`` is understood as (failing with what it was understood as instead)."""
    understood = say(program, message, **options)
    assert understood is not None, f"{message!r} was not understood"
    assert understood.ask is None and not understood.problem, (message, understood)
    return [(c.name, dict(c.arguments)) for c in understood.calls]


def ref(week: int, day: str) -> str:
    return f"week-{week}-session-{DAYS.index(day) + 1}"
