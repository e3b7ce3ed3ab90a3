"""Small helpers shared by the tool-engine tests."""

from __future__ import annotations

import itertools
from typing import Any

from coach.engine import BatchResult, ToolContext, apply_calls, preview_calls
from coach.toolcalls import ToolCall
from programs.models import Exercise, Program, Session, Week

_ids = itertools.count(1)


def call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(id=f"call_{next(_ids)}", name=name, arguments=arguments)


def apply(program: Program, *calls: ToolCall, **kwargs: Any) -> BatchResult:
    return apply_calls(ctx=ToolContext.for_program(program), calls=list(calls), **kwargs)


def preview(program: Program, *calls: ToolCall) -> BatchResult:
    return preview_calls(ctx=ToolContext.for_program(program), calls=list(calls))


def exercise_names(program: Program, week: int, session: int) -> list[str]:
    return list(
        Exercise.objects.filter(
            session__week__program=program, session__week__position=week, session__position=session
        )
        .order_by("position")
        .values_list("name", flat=True)
    )


def session_of(program: Program, week: int, session: int) -> Session:
    return Session.objects.get(week__program=program, week__position=week, position=session)


def week_of(program: Program, week: int) -> Week:
    return Week.objects.get(program=program, position=week)


def error_codes(result: BatchResult) -> list[list[str]]:
    return [[e.code for e in r.errors] for r in result.results]


def assert_contiguous(program: Program) -> None:
    weeks = list(Week.objects.filter(program=program).order_by("position"))
    assert [w.position for w in weeks] == list(range(1, len(weeks) + 1))
    for week in weeks:
        sessions = list(Session.objects.filter(week=week).order_by("position"))
        assert [s.position for s in sessions] == list(range(1, len(sessions) + 1))
        for session in sessions:
            positions = list(
                Exercise.objects.filter(session=session)
                .order_by("position")
                .values_list("position", flat=True)
            )
            assert positions == list(range(1, len(positions) + 1))


EXERCISE = {"name": "Pull-up", "reps": "5-8", "targetLoad": "bodyweight", "workingSets": 3}
