"""The schedule tools that write a session: create_custom_workout, mark_workout_complete,
skip_workout and log_sets; each through the engine's preview and apply (reschedule_workout is in
test_tools_schedule.py)."""

from __future__ import annotations

import datetime

import pytest

from coach.toolcalls import ToolCall
from programs.history.snapshot import snapshot
from programs.models import CardioBlock, Session, SetResult
from programs.workout_log import planned_sessions
from tests.coach.tool_helpers import apply, call, error_codes, preview, session_of
from tests.coach.training_helpers import current_program, state, today_of
from training.models import Activity

pytestmark = pytest.mark.django_db

D = datetime.timedelta


def custom(**arguments) -> ToolCall:
    """A create_custom_workout call (its ``name`` argument clashes with ``call``'s)."""
    return ToolCall(
        id=f"custom_{len(arguments)}", name="create_custom_workout", arguments=arguments
    )


@pytest.fixture
def program():
    return current_program()


def week_start(program, week: int) -> datetime.date:
    return program.weeks.get(position=week).start_date


# --- create -------------------------------------------------------------------------------------


def test_a_custom_run_is_a_session_of_its_week_with_a_cardio_block_placed_by_day(program):
    day = week_start(program, 3) + D(days=1)
    result = apply(
        program,
        custom(
            date=day.isoformat(),
            sport="RUNNING",
            name="River Tempo",
            description="Warm up 10 min",
            duration=40,
            target_pace="5:00 /km",
            intensity="tempo",
        ),
    )
    assert result.success, result.to_dict()
    names = list(program.weeks.get(position=3).sessions.values_list("name", flat=True))
    assert names == ["Session 1", "Session 2", "River Tempo", "Session 3"]
    created = session_of(program, 3, 3)
    assert created.scheduled_date == day
    cardio = CardioBlock.objects.get(session=created)
    assert (cardio.type, cardio.duration, cardio.modality) == ("sweetspot", 40, "Running")
    assert "5:00 /km" in cardio.instructions
    assert result.preview["details"][0]["type"] == "add"


def test_a_custom_strength_workout_has_no_cardio(program):
    result = apply(
        program,
        custom(
            date=week_start(program, 4).isoformat(),
            sport="STRENGTH",
            name="Gym",
            description="Full body",
        ),
    )
    assert result.success
    # after the session already on that day, before the next day's
    assert session_of(program, 4, 2).name == "Gym"
    assert not CardioBlock.objects.filter(session=session_of(program, 4, 2)).exists()


def test_a_custom_workout_outside_every_week_names_the_programs_dates(program):
    result = preview(
        program,
        custom(
            date="2030-01-01",
            sport="RUNNING",
            name="x",
            description="",
        ),
    )
    assert error_codes(result) == [["NOT_FOUND"]]
    assert "the program runs from" in result.results[0].summary
    too_long = preview(
        program,
        custom(
            date="2026-12-01",
            sport="RUNNING",
            name="x",
            description="",
            duration=601,
        ),
    )
    assert "duration must be at most 600" in too_long.results[0].summary


# --- complete, skip, log ------------------------------------------------------------------------


def test_mark_complete_marks_the_session_and_records_an_activity(program):
    today = today_of(program.athlete)
    result = apply(
        program,
        call("mark_workout_complete", workout_id="week-1-session-1", rating=4, notes="Strong"),
    )
    assert result.success, result.to_dict()
    session = session_of(program, 1, 1)
    assert (session.completed, session.rating, session.notes) == (True, 4, "Strong")
    assert session.completed_date == min(session.scheduled_date, today)
    assert Activity.objects.filter(session=session).count() == 1
    assert result.preview["details"][0]["fields"][0]["newValue"].startswith("completed")


def test_mark_complete_refuses_a_future_date_and_a_bad_rating(program):
    future = today_of(program.athlete) + D(days=3)
    result = preview(
        program,
        call("mark_workout_complete", workout_id="week-1-session-1", date=future.isoformat()),
    )
    assert error_codes(result) == [["VALIDATION_ERROR"]]
    rating = preview(
        program, call("mark_workout_complete", workout_id="week-1-session-1", rating=6)
    )
    assert "rating must be at most 5" in rating.results[0].summary


def test_skip_keeps_the_session_with_its_reason_and_plans_no_load(program):
    session = session_of(program, 3, 1)
    result = apply(program, call("skip_workout", workout_id="week-3-session-1", reason="sick"))
    assert result.success
    session.refresh_from_db()
    assert (session.skipped, session.skip_reason) == (True, "sick")
    planned = planned_sessions(
        athlete=program.athlete, start=session.scheduled_date, end=session.scheduled_date
    )
    assert session.pk not in [p.session_id for p in planned]
    assert snapshot(program_id=program.pk)["session"][session.pk]["skip_reason"] == "sick"


def test_a_completed_session_cant_be_skipped_and_a_reason_is_required(program):
    Session.objects.filter(pk=session_of(program, 1, 1).pk).update(completed=True)
    done = preview(program, call("skip_workout", workout_id="week-1-session-1", reason="tired"))
    assert error_codes(done) == [["CONFLICT"]]
    empty = preview(program, call("skip_workout", workout_id="week-1-session-2", reason=""))
    assert "reason must not be empty" in empty.results[0].summary


def test_log_sets_writes_set_results_of_the_exercises_by_number(program):
    result = apply(
        program,
        call(
            "log_sets",
            workout_id="week-1-session-1",
            sets=[
                {"exercise": 1, "set": 1, "reps": 8, "load": "100 kg", "rpe": 8},
                {"exercise": 2, "set": 1, "reps": 10},
            ],
        ),
    )
    assert result.success, result.to_dict()
    rows = SetResult.objects.filter(exercise__session=session_of(program, 1, 1))
    assert sorted((r.exercise.position, r.reps, r.load) for r in rows) == [
        (1, 8, "100 kg"),
        (2, 10, ""),
    ]


def test_log_sets_names_the_exercises_a_session_has(program):
    before = state(program)
    result = apply(
        program,
        call("log_sets", workout_id="week-1-session-1", sets=[{"exercise": 3, "set": 1}]),
    )
    assert error_codes(result) == [["NOT_FOUND"]]
    assert "has 2 exercises; exercise 3 doesn't exist" in result.results[0].summary
    assert state(program) == before
    too_many = preview(
        program, call("log_sets", workout_id="week-1-session-1", sets=[{"exercise": 1, "set": 31}])
    )
    assert "set must be at most 30" in too_many.results[0].summary
