"""What a coach's change does to form (issue 22, part 5): the editor's preview shows the
projected fitness, fatigue and form on the program's key dates before and after, as the chat's
card does, from the same dry run (``coach.engine.preview_calls``)."""

from __future__ import annotations

import datetime

import pytest

from tests.coach.training_helpers import current_program, today_of
from tests.factories import ActivityFactory
from tests.programs.editor_support import page_tree, send
from training.selectors import form_on_dates

pytestmark = pytest.mark.django_db


@pytest.fixture
def program(coach):
    program = current_program(coach=coach)
    athlete = program.athlete
    for n in range(1, 30):
        day = today_of(athlete) - datetime.timedelta(days=n)
        ActivityFactory(athlete=athlete, local_date=day, training_load=60)
    return program


def test_removing_a_future_session_shows_fitness_fatigue_and_form_before_and_after(
    coach_client, program
):
    end = program.weeks.get(position=4).end_date
    now = form_on_dates(athlete=program.athlete, dates=[end])[end]
    tree = page_tree(program)
    tree["weeks"][3]["sessions"].pop(0)
    answer = send(coach_client, program, "preview", tree).json()
    assert answer["ok"], answer
    html = answer["html"]
    assert '<table class="whatif">' in html
    assert "Projected form (TSB), before → after, with fitness (CTL) and fatigue (ATL)" in html
    assert f'End of the program <span class="date">{end.isoformat()}</span>' in html
    assert f"<td>{now['tsb']}</td>" in html  # the form before, as it is now
    assert f"<td>{now['ctl']} → " in html and f"<td>{now['atl']} → " in html
    assert program.weeks.get(position=4).sessions.count() == 3  # a preview writes nothing


def test_a_change_that_moves_no_load_says_the_form_does_not_change(coach_client, program):
    tree = page_tree(program)
    tree["weeks"][3]["sessions"][0]["fields"]["notes"] = "bring chalk"
    html = send(coach_client, program, "preview", tree).json()["html"]
    assert '<table class="whatif">' not in html
    assert "doesn't change on the program's key dates:" in html and "End of the program (" in html
