"""Helpers of the training and schedule tool tests: a program around today (week 1 last week,
week 2 this week, the rest ahead) and the athlete's today."""

from __future__ import annotations

import datetime

from programs.history.snapshot import snapshot
from programs.models import Session
from tests.factories import build_program
from training.services import athlete_today, profile_for


def today_of(athlete) -> datetime.date:
    return athlete_today(profile=profile_for(athlete=athlete))


def this_monday() -> datetime.date:
    today = datetime.datetime.now(datetime.UTC).date()
    return today - datetime.timedelta(days=today.weekday())


def current_program(*, weeks: int = 4, sessions: int = 3, exercises: int = 2, **fields):
    """Week 1 is last week, week 2 this week; sessions on each week's first days."""
    start = this_monday() - datetime.timedelta(weeks=1)
    return build_program(
        weeks=weeks, sessions=sessions, exercises=exercises, start_date=start, **fields
    )


def dates(program) -> dict[str, datetime.date | None]:
    """``{"week-1-session-2": date}`` for every session."""
    return {
        s.ref: s.scheduled_date
        for s in Session.objects.filter(week__program=program).select_related("week")
    }


def state(program) -> dict:
    """The whole tree without the version (what "nothing changed" compares)."""
    snap = snapshot(program_id=program.pk)
    snap.pop("program")
    return snap
