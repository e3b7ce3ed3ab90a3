"""Properties of the schedule tools over random calls: a reschedule never loses or duplicates a
session, push keeps the order of what it moves, and a batch applies whole or not at all."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from coach.engine import ToolContext, apply_calls
from coach.toolcalls import ToolCall
from programs.models import Program, Session
from tests.coach.tool_helpers import assert_contiguous
from tests.coach.training_helpers import current_program, state

SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
WEEKS, SESSIONS = 3, 3
refs = st.builds(
    lambda w, s: f"week-{w}-session-{s}", st.integers(1, WEEKS), st.integers(1, SESSIONS + 1)
)
offsets = st.integers(-3, WEEKS * 7 + 3)  # days from the program's start, a little outside too
strategies = st.sampled_from(["swap", "replace", "push"])


def _sessions(program) -> dict[int, tuple]:
    return {
        s.pk: (s.scheduled_date, s.week.position, s.position, s.completed)
        for s in Session.objects.filter(week__program=program).select_related("week")
    }


def _program_with_some_done(done: list[int]):
    program = current_program(weeks=WEEKS, sessions=SESSIONS, exercises=1)
    sessions = list(Session.objects.filter(week__program=program).order_by("pk"))
    Session.objects.filter(pk__in=[sessions[i % len(sessions)].pk for i in done]).update(
        completed=True
    )
    return program


@pytest.mark.django_db
@SETTINGS
@given(ref=refs, offset=offsets, strategy=strategies, done=st.lists(st.integers(0, 20), max_size=2))
def test_a_reschedule_never_loses_or_duplicates_a_session(ref, offset, strategy, done):
    program = _program_with_some_done(done)
    before = _sessions(program)
    new_date = program.start_date + datetime.timedelta(days=offset)
    result = apply_calls(
        ctx=ToolContext.for_program(program),
        calls=[
            ToolCall(
                id="c1",
                name="reschedule_workout",
                arguments={
                    "workout_id": ref,
                    "new_date": new_date.isoformat(),
                    "strategy": strategy,
                },
            )
        ],
    )
    after = _sessions(program)
    ids = list(Session.objects.filter(week__program=program).values_list("pk", flat=True))
    assert len(ids) == len(set(ids))  # nothing twice
    removed = set(before) - set(after)
    assert not set(after) - set(before)  # nothing new
    if not result.success:
        assert after == before
        event("refused")
        return
    event(strategy)
    if strategy == "replace":
        assert all(before[pk][0] == new_date for pk in removed)
    else:
        assert not removed
    assert all(after[pk][3] == before[pk][3] for pk in after)  # completion untouched
    assert all(after[pk][0] == before[pk][0] for pk in after if before[pk][3])  # done stay put
    assert_contiguous(program)


@pytest.mark.django_db
@SETTINGS
@given(ref=refs, days=st.integers(1, 10), done=st.lists(st.integers(0, 20), max_size=2))
def test_push_keeps_the_order_and_spacing_of_what_it_moves(ref, days, done):
    program = _program_with_some_done(done)
    before = _sessions(program)
    target = Session.objects.filter(
        week__program=program,
        week__position=int(ref.split("-")[1]),
        position=int(ref.split("-")[3]),
    ).first()
    if target is None or target.completed:
        return
    new_date = target.scheduled_date + datetime.timedelta(days=days)
    result = apply_calls(
        ctx=ToolContext.for_program(program),
        calls=[
            ToolCall(
                id="c1",
                name="reschedule_workout",
                arguments={"workout_id": ref, "new_date": new_date.isoformat(), "strategy": "push"},
            )
        ],
    )
    after = _sessions(program)
    if not result.success:
        assert after == before
        summary = result.results[0].summary
        assert "past the program's end" in summary or "within the program" in summary
        return
    moved = [pk for pk in after if after[pk][0] != before[pk][0]]
    assert all(after[pk][0] - before[pk][0] == datetime.timedelta(days=days) for pk in moved)
    assert target.pk in moved
    order_before = sorted(moved, key=lambda pk: (before[pk][0], before[pk][1], before[pk][2]))
    order_after = sorted(moved, key=lambda pk: (after[pk][0], after[pk][1], after[pk][2]))
    assert order_before == order_after
    assert all(not before[pk][3] for pk in moved)


def _call(draw, index: int) -> ToolCall:
    name = draw(
        st.sampled_from(
            ["reschedule_workout", "skip_workout", "mark_workout_complete", "create_custom_workout"]
        )
    )
    ref = draw(refs)
    start = datetime.date.today() - datetime.timedelta(days=7)
    day = (start + datetime.timedelta(days=draw(offsets))).isoformat()
    arguments = {
        "reschedule_workout": {"workout_id": ref, "new_date": day, "strategy": draw(strategies)},
        "skip_workout": {"workout_id": ref, "reason": draw(st.sampled_from(["sick", ""]))},
        "mark_workout_complete": {"workout_id": ref, "rating": draw(st.integers(0, 5))},
        "create_custom_workout": {
            "date": day,
            "sport": draw(st.sampled_from(["RUNNING", "STRENGTH"])),
            "name": "Extra",
            "description": "",
        },
    }[name]
    return ToolCall(id=f"c{index}", name=name, arguments=arguments)


@st.composite
def batches(draw):
    return [_call(draw, i) for i in range(draw(st.integers(1, 4)))]


@pytest.mark.django_db
@SETTINGS
@given(calls=batches())
def test_every_schedule_batch_applies_whole_or_not_at_all(calls):
    program = current_program(weeks=WEEKS, sessions=SESSIONS, exercises=1)
    before = state(program)
    result = apply_calls(ctx=ToolContext.for_program(program), calls=calls)
    version = Program.objects.get(pk=program.pk).version
    if result.success:
        assert all(r.success for r in result.results)
        assert version > 1
        event("applied")
    else:
        assert state(program) == before
        assert version == 1
        event("rolled back")
    assert len(result.results) == len(calls)
    assert_contiguous(program)
