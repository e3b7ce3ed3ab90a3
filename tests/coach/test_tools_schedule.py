"""The schedule tool that moves sessions: reschedule_workout (swap, replace, push), through the
engine's preview and apply (the tools that write a session are in test_tools_schedule_writes.py)."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction

from programs.history import program_change, revision_undo
from programs.models import Program, Session
from tests.coach.tool_helpers import apply, call, error_codes, preview, session_of
from tests.coach.training_helpers import current_program, dates

pytestmark = pytest.mark.django_db

D = datetime.timedelta


@pytest.fixture
def program():
    return current_program()


def week_start(program, week: int) -> datetime.date:
    return program.weeks.get(position=week).start_date


# --- reschedule ---------------------------------------------------------------------------------


def test_swap_exchanges_the_two_dates_and_the_card_shows_each_before_and_after(program):
    d1, d2 = week_start(program, 3), week_start(program, 3) + D(days=1)
    result = apply(
        program,
        call("reschedule_workout", workout_id="week-3-session-1", new_date=d2.isoformat()),
    )
    assert result.success, result.to_dict()
    after = dates(program)
    assert (after["week-3-session-1"], after["week-3-session-2"]) == (d2, d1)
    moves = [d for d in result.preview["details"] if d["type"] == "reorder"]
    assert [(m["before"][:10], m["after"][:10]) for m in moves] == [
        (d1.isoformat(), d2.isoformat()),
        (d2.isoformat(), d1.isoformat()),
    ]
    assert session_of(program, 3, 1).day_of_week == d2.strftime("%A")
    assert Program.objects.get(pk=program.pk).version > 1


def test_a_move_to_a_free_date_moves_only_that_session(program):
    free = week_start(program, 3) + D(days=5)
    before = dates(program)
    result = apply(
        program,
        call("reschedule_workout", workout_id="week-3-session-2", new_date=free.isoformat()),
    )
    assert result.success
    after = dates(program)
    assert after.pop("week-3-session-2") == free
    before.pop("week-3-session-2")
    assert after == before


def test_replace_removes_the_other_session_and_undo_brings_it_back(program):
    other = session_of(program, 3, 2)
    with (
        transaction.atomic(),
        program_change(program=program, actor=None, via="chat", summary="move") as change,
    ):
        result = apply(
            program,
            call(
                "reschedule_workout",
                workout_id="week-3-session-1",
                new_date=other.scheduled_date.isoformat(),
                strategy="replace",
            ),
        )
    assert result.success, result.to_dict()
    assert not Session.objects.filter(pk=other.pk).exists()
    assert [d["type"] for d in result.preview["details"]] == ["reorder", "remove"]
    revision_undo(revision=change.revision, actor=None)
    restored = Session.objects.get(pk=other.pk)
    assert restored.scheduled_date == week_start(program, 3) + D(days=1)
    assert session_of(program, 3, 1).scheduled_date == week_start(program, 3)


def test_replace_refuses_to_remove_a_weeks_only_session():
    program = current_program(sessions=1)
    result = apply(
        program,
        call(
            "reschedule_workout",
            workout_id="week-3-session-1",
            new_date=week_start(program, 4).isoformat(),
            strategy="replace",
        ),
    )
    assert error_codes(result) == [["VALIDATION_ERROR"]]
    assert "only session of week 4" in result.results[0].summary


def test_push_moves_this_and_every_later_open_session_by_the_same_days(program):
    done = session_of(program, 4, 3)
    done.completed = True
    done.save()
    before = dates(program)
    result = apply(
        program,
        call(
            "reschedule_workout",
            workout_id="week-3-session-2",
            new_date=(before["week-3-session-2"] + D(days=2)).isoformat(),
            strategy="push",
        ),
    )
    assert result.success, result.to_dict()
    after = dates(program)
    moved = ["week-3-session-2", "week-3-session-3", "week-4-session-1", "week-4-session-2"]
    for ref in before:
        shift = D(days=2) if ref in moved else D(0)
        assert after[ref] == before[ref] + shift, ref
    assert len([d for d in result.preview["details"] if d["type"] == "reorder"]) == 4


def test_push_warns_where_a_session_leaves_its_weeks_dates(program):
    Session.objects.filter(week__program=program, week__position=4).update(completed=True)
    result = preview(
        program,
        call(
            "reschedule_workout",
            workout_id="week-3-session-3",
            new_date=week_start(program, 4).isoformat(),
            strategy="push",
        ),
    )
    assert result.success, result.to_dict()
    assert result.preview["warnings"] == [
        f"Week 3, Session 3: Session 3 now falls on {week_start(program, 4).isoformat()}, "
        f"outside week 3 ({week_start(program, 3).isoformat()} to "
        f"{program.weeks.get(position=3).end_date.isoformat()})."
    ]


def test_push_never_moves_a_session_past_the_programs_end(program):
    end = program.weeks.get(position=4).end_date
    result = apply(
        program,
        call(
            "reschedule_workout",
            workout_id="week-3-session-1",
            new_date=(week_start(program, 3) + D(days=6)).isoformat(),
            strategy="push",
        ),
    )
    assert error_codes(result) == [["VALIDATION_ERROR"]]
    message = result.results[0].summary
    assert f"past the program's end ({end.isoformat()})" in message
    assert "push by at most 4 days" in message


def with_closing_rest_day(program) -> Session:
    """A rest day (no exercises, no cardio) on the program's last day, as plans often end."""
    week = program.weeks.get(position=4)
    return Session.objects.create(
        week=week,
        position=week.sessions.count() + 1,
        name="Rest",
        scheduled_date=week.end_date,
        day_of_week=week.end_date.strftime("%A"),
        notes="Easy walk.",
    )


def test_push_drops_a_closing_rest_day_instead_of_refusing(program):
    rest = with_closing_rest_day(program)
    before = dates(program)
    push = call(
        "reschedule_workout",
        workout_id="week-3-session-1",
        new_date=(week_start(program, 3) + D(days=4)).isoformat(),
        strategy="push",
    )
    result = apply(program, push)
    assert result.success, result.to_dict()
    after = dates(program)
    for ref in ("week-3-session-1", "week-3-session-2", "week-4-session-3"):
        assert after[ref] == before[ref] + D(days=4), ref
    assert not Session.objects.filter(pk=rest.pk).exists()
    removed = [
        {k: v for k, v in d.items() if k != "toolCallId"}
        for d in result.preview["details"]
        if d["type"] == "remove"
    ]
    assert removed == [
        {
            "type": "remove",
            "target": "Week 4, Session 4: Rest",
            "before": f"{rest.scheduled_date.isoformat()} ({rest.day_of_week}): a rest day "
            "that would fall past the program's end",
            "after": None,
            "fields": [],
        }
    ]
    assert "rest day" in result.results[0].summary


def test_undo_of_a_push_brings_the_dropped_rest_day_back(program):
    rest = with_closing_rest_day(program)
    before = dates(program)
    with (
        transaction.atomic(),
        program_change(program=program, actor=None, via="chat", summary="push") as change,
    ):
        result = apply(
            program,
            call(
                "reschedule_workout",
                workout_id="week-4-session-1",
                new_date=(week_start(program, 4) + D(days=1)).isoformat(),
                strategy="push",
            ),
        )
    assert result.success, result.to_dict()
    assert not Session.objects.filter(pk=rest.pk).exists()
    revision_undo(revision=change.revision, actor=None)
    assert Session.objects.get(pk=rest.pk).notes == "Easy walk."
    assert dates(program) == before


def test_a_closing_rest_day_does_not_shorten_how_far_a_push_may_go(program):
    with_closing_rest_day(program)
    end = program.weeks.get(position=4).end_date
    result = preview(
        program,
        call(
            "reschedule_workout",
            workout_id="week-3-session-1",
            new_date=(week_start(program, 3) + D(days=5)).isoformat(),
            strategy="push",
        ),
    )
    assert error_codes(result) == [["VALIDATION_ERROR"]]
    message = result.results[0].summary
    assert f"past the program's end ({end.isoformat()})" in message
    assert "Week 4, Session 3" in message and "push by at most 4 days" in message


def test_push_to_an_earlier_date_is_refused(program):
    result = preview(
        program,
        call(
            "reschedule_workout",
            workout_id="week-3-session-2",
            new_date=week_start(program, 3).isoformat(),
            strategy="push",
        ),
    )
    assert error_codes(result) == [["VALIDATION_ERROR"]]
    assert "later" in result.results[0].summary


def test_a_date_outside_the_program_is_refused_naming_its_dates(program):
    first, last = week_start(program, 1), program.weeks.get(position=4).end_date
    result = preview(
        program,
        call("reschedule_workout", workout_id="week-3-session-1", new_date="2030-01-01"),
    )
    assert error_codes(result) == [["VALIDATION_ERROR"]]
    assert f"{first.isoformat()} to {last.isoformat()}" in result.results[0].summary


def test_a_completed_session_does_not_move(program):
    Session.objects.filter(pk=session_of(program, 3, 1).pk).update(completed=True)
    result = preview(
        program,
        call(
            "reschedule_workout",
            workout_id="week-3-session-1",
            new_date=(week_start(program, 3) + D(days=5)).isoformat(),
        ),
    )
    assert error_codes(result) == [["CONFLICT"]]


def test_workout_ids_are_checked_by_the_schema_and_then_by_the_program(program):
    bad = preview(program, call("reschedule_workout", workout_id="3-1", new_date="2026-12-01"))
    assert error_codes(bad) == [["VALIDATION_ERROR"]]
    assert "week-2-session-3" in bad.results[0].summary
    missing = preview(
        program, call("reschedule_workout", workout_id="week-3-session-9", new_date="2026-12-01")
    )
    assert error_codes(missing) == [["NOT_FOUND"]]
    assert "Week 3 has only 3 sessions" in missing.results[0].summary
