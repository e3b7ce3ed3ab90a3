"""The what-if of a preview: projected Form on the plan's key dates, before → after."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coach import whatif
from coach.engine import ToolContext
from tests.coach.tool_helpers import apply, call, preview
from tests.coach.training_helpers import current_program, state, today_of
from tests.factories import ActivityFactory, build_program
from training.selectors import form_on_dates

pytestmark = pytest.mark.django_db
D = datetime.timedelta


@pytest.fixture
def program():
    program = current_program()
    athlete = program.athlete
    for n in range(1, 30):
        ActivityFactory(athlete=athlete, local_date=today_of(athlete) - D(days=n), training_load=60)
    return program


def test_skipping_a_future_session_raises_form_at_the_end_of_the_program(program):
    end = program.weeks.get(position=4).end_date
    before = form_on_dates(athlete=program.athlete, dates=[end])[end]["tsb"]
    snapshot_before = state(program)
    result = preview(program, call("skip_workout", workout_id="week-4-session-1", reason="trip"))
    assert result.success
    rows = result.preview["whatif"]
    assert rows[-1]["label"] == "End of the program" and rows[-1]["date"] == end.isoformat()
    assert rows[-1]["before"] == before
    assert rows[-1]["after"] > rows[-1]["before"]
    assert rows[-1]["change"] == round(rows[-1]["after"] - rows[-1]["before"], 1)
    assert state(program) == snapshot_before  # the preview changed nothing


def test_the_after_is_what_applying_gives(program):
    end = program.weeks.get(position=4).end_date
    push = call(
        "reschedule_workout",
        workout_id="week-4-session-1",
        new_date=(program.weeks.get(position=4).start_date + D(days=4)).isoformat(),
    )
    predicted = preview(program, push).preview["whatif"][-1]["after"]
    assert apply(program, push).success
    assert form_on_dates(athlete=program.athlete, dates=[end])[end]["tsb"] == predicted


def test_a_change_that_moves_no_load_has_no_whatif(program):
    result = preview(
        program,
        call(
            "modify_session",
            weekNumber=3,
            sessionNumber=1,
            updates={"name": "Renamed"},
        ),
    )
    assert result.success and "whatif" not in result.preview


def test_a_program_entirely_in_the_past_has_no_key_dates():
    past = build_program(weeks=2, start_date=datetime.date(2025, 1, 6))
    assert whatif.key_dates(ToolContext.for_program(past)) == []


def test_key_dates_cost_the_same_queries_whatever_the_program_length():
    def count(weeks):
        ctx = ToolContext.for_program(current_program(weeks=weeks))
        with CaptureQueriesContext(connection) as captured:
            whatif.form(ctx, whatif.key_dates(ctx))
        return len(captured)

    assert count(4) == count(40)
