"""Properties of the executor over random batches (valid or not): all or nothing, contiguous
positions, and the preview predicting the apply."""

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from coach.engine import ToolContext, apply_calls, preview_calls
from coach.toolcalls import ToolCall
from programs.export import export_program
from programs.history import program_change, revision_undo
from programs.models import Program
from tests.coach.tool_helpers import EXERCISE, assert_contiguous
from tests.factories import SetResultFactory, build_program

small = st.integers(min_value=-1, max_value=5)
likely = st.integers(min_value=1, max_value=2)
number = st.one_of(likely, likely, likely, likely, likely, small, st.just("2"), st.none())
position = st.one_of(likely, likely, st.just("end"), small)
exercise_updates = st.one_of(
    st.sampled_from([{"name": "Lunge"}, {"reps": "12", "workingSets": 4}, {"skipped": True}]),
    st.dictionaries(
        st.sampled_from(["name", "reps", "workingSets", "restSeconds", "skipped", "bogus"]),
        st.one_of(small, st.sampled_from(["", "Lunge", "8"]), st.booleans()),
        max_size=3,
    ),
)
session_updates = st.dictionaries(
    st.sampled_from(["name", "dayOfWeek", "cardio", "notes"]),
    st.one_of(
        st.sampled_from(["Push", "Monday", "", "funday"]),
        st.none(),
        st.just({"type": "zone2", "duration": 20}),
    ),
    max_size=2,
)
exercise = st.sampled_from([EXERCISE, EXERCISE, {**EXERCISE, "workingSets": -1}, {"name": "X"}])
session = st.sampled_from(
    [
        {"name": "Rest"},
        {"name": "Cardio", "cardio": {"type": "vo2max", "duration": 25}},
        {"name": "Lift", "exercises": [EXERCISE, EXERCISE]},
        {"exercises": []},
    ]
)
week = st.sampled_from(
    [
        {
            "phase": "Deload",
            "startDate": "2026-12-01",
            "endDate": "2026-12-07",
            "sessions": [{"name": "S"}],
        },
        {
            "phase": "Bad",
            "startDate": "2026-12-07",
            "endDate": "2026-12-01",
            "sessions": [{"name": "S"}],
        },
    ]
)

TOOL_ARGS = {
    "modify_exercise": dict(
        weekNumber=number, sessionNumber=number, exerciseNumber=number, updates=exercise_updates
    ),
    "remove_exercise": dict(weekNumber=number, sessionNumber=number, exerciseNumber=number),
    "add_exercise": dict(
        weekNumber=number, sessionNumber=number, position=position, exercise=exercise
    ),
    "reorder_exercises": dict(
        weekNumber=number, sessionNumber=number, exerciseNumber=number, newPosition=number
    ),
    "modify_session": dict(weekNumber=number, sessionNumber=number, updates=session_updates),
    "add_session": dict(weekNumber=number, position=position, session=session),
    "remove_session": dict(weekNumber=number, sessionNumber=number),
    "copy_session": dict(
        sourceWeekNumber=number,
        sourceSessionNumber=number,
        targetWeekNumber=number,
        position=position,
    ),
    "modify_week": dict(
        weekNumber=number,
        updates=st.sampled_from([{"phase": "Peak"}, {}, {"endDate": "2020-01-01"}]),
    ),
    "add_week": dict(position=position, weeks=st.lists(week, max_size=2)),
    "remove_week": dict(weekNumber=number),
    "no_such_tool": dict(weekNumber=number),
}


call_index = st.integers(0, 10_000)
CAREFUL = {
    "weekNumber": likely,
    "sessionNumber": likely,
    "exerciseNumber": st.integers(1, 3),
    "newPosition": st.integers(1, 3),
    "sourceWeekNumber": likely,
    "sourceSessionNumber": likely,
    "targetWeekNumber": likely,
    "position": st.one_of(likely, st.just("end")),
}


@st.composite
def tool_call(draw, careful: bool):
    """A random call; a careful one uses the real tools with in-range numbers, so that whole
    batches often succeed too."""
    names = sorted(TOOL_ARGS)
    if careful:
        names.remove("no_such_tool")
    name = draw(st.sampled_from(names))
    arguments = {}
    for key, strategy in TOOL_ARGS[name].items():
        if careful or draw(st.integers(0, 19)) > 0:  # now and then leave an argument out
            value = draw(CAREFUL.get(key, strategy) if careful else strategy)
            if value is not None:
                arguments[key] = value
    return ToolCall(id=f"c{draw(call_index)}", name=name, arguments=arguments)


@st.composite
def batches(draw):
    careful = draw(st.booleans())
    return draw(st.lists(tool_call(careful), min_size=1, max_size=4))


SETTINGS = settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.django_db
@SETTINGS
@given(calls=batches())
def test_any_batch_applies_whole_or_leaves_the_program_identical(calls):
    program = build_program(weeks=2, sessions=2, exercises=3)
    before = export_program(program)
    result = apply_calls(ctx=ToolContext.for_program(program), calls=calls)
    version = Program.objects.get(pk=program.pk).version
    if result.success:
        assert all(r.success for r in result.results)
        after = export_program(program)
        if {**after, "version": 0} != {**before, "version": 0}:
            assert version > 1  # the services bump the program they change
    else:
        assert any(not r.success for r in result.results)
        assert export_program(program) == before
        assert version == 1
    assert len(result.results) == len(calls)
    event("applied" if result.success else "rolled back")
    assert_contiguous(program)


@pytest.mark.django_db
@SETTINGS
@given(calls=batches())
def test_preview_predicts_apply_and_changes_nothing(calls):
    program = build_program(weeks=2, sessions=2, exercises=3)
    before = export_program(program)
    previewed = preview_calls(ctx=ToolContext.for_program(program), calls=calls)
    assert export_program(program) == before
    applied = apply_calls(ctx=ToolContext.for_program(program), calls=calls)
    assert [r.to_dict() for r in previewed.results] == [r.to_dict() for r in applied.results]
    assert previewed.preview == applied.preview


@pytest.mark.django_db
@SETTINGS
@given(calls=batches())
def test_undo_after_any_applied_batch_restores_the_export_exactly(calls):
    """The chat's Undo of a batch: the batch is applied as one revision, then that revision is
    undone; the export is the one before the batch apart from ``version``."""
    program = build_program(weeks=2, sessions=2, exercises=3)
    SetResultFactory(exercise=program.weeks.first().sessions.first().exercises.first())
    before = export_program(program)
    with (
        transaction.atomic(),
        program_change(program=program, actor=None, via="chat", summary="batch") as change,
    ):
        result = apply_calls(ctx=ToolContext.for_program(program), calls=calls)
    if not result.success or change.revision is None:
        event("nothing to undo")
        return
    event("undone")
    revision_undo(revision=change.revision, actor=None)
    after = export_program(program)
    assert {**after, "version": 0} == {**before, "version": 0}
    assert Program.objects.get(pk=program.pk).version > before["version"]
    assert_contiguous(program)
