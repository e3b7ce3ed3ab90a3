"""Helpers for the template tests: a coach with athletes of their own, a template of a small
program, and a template edit saved through the one-page editor's service (as the page does)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from programs.editor import service
from programs.models import Exercise, ProgramTemplate, Session
from programs.plan_templates.assign import Wanted, assign, save_as_template
from tests.factories import ProgramFactory, UserFactory, build_program
from tests.programs.editor_support import page_tree

MONDAY = datetime.date(2026, 11, 2)


def athletes_of_coach(coach, n: int, prefix: str = "ath") -> list:
    """``n`` athletes, each coached by ``coach`` (an empty program of theirs: the policy's rule)."""
    athletes = []
    for i in range(n):
        athlete = UserFactory(username=f"{prefix}-{coach.username}-{i}", first_name=f"Ath{i}")
        ProgramFactory(athlete=athlete, coach=coach, name="Earlier block")
        athletes.append(athlete)
    return athletes


def template_of(coach, *, weeks: int = 2, sessions: int = 2, exercises: int = 2) -> ProgramTemplate:
    source = build_program(
        weeks=weeks, sessions=sessions, exercises=exercises, coach=coach, start_date=MONDAY
    )
    Exercise.objects.filter(session__week__program=source).update(reps="8")  # one value to read
    return save_as_template(program=source, coach=coach, name="Base block")


def give(template, coach, athletes, starts) -> list:
    return assign(
        template=template,
        coach=coach,
        wanted=[Wanted(a.pk, s) for a, s in zip(athletes, starts, strict=True)],
    )


def edit_template(template, coach, change: Callable[[dict[str, Any]], None]):
    """Save an edit of the template's tree through the editor's service; returns its result."""
    tree = page_tree(template.program)
    change(tree)
    result = service.apply(program=template.program, user=coach, data=tree)
    assert result.applied, (result.message, [p.message for p in result.problems])
    return result


def exercise_at(program, week: int, session: int, position: int) -> Exercise:
    return Exercise.objects.get(
        session__week__program=program,
        session__week__position=week,
        session__position=session,
        position=position,
    )


def session_at(program, week: int, session: int) -> Session:
    return Session.objects.get(week__program=program, week__position=week, position=session)
