"""The card shows the what-if of a change of plan (projected form before → after), and the chat
links to the fitness and activity pages."""

from __future__ import annotations

import datetime

import pytest

from chat import services
from chat.cards import card_whatif
from chat.templatetags.chat_tags import link_training
from tests.chat.helpers import propose
from tests.coach.training_helpers import current_program, today_of
from tests.factories import ActivityFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def program():
    program = current_program()
    athlete = program.athlete
    for n in range(1, 20):
        ActivityFactory(
            athlete=athlete,
            local_date=today_of(athlete) - datetime.timedelta(days=n),
            training_load=70,
        )
    return program


@pytest.fixture
def athlete_client(client, program):
    client.force_login(program.athlete)
    return client


def test_a_skipped_session_shows_the_projected_form_before_and_after_on_the_card(
    athlete_client, program
):
    conversation = services.conversation_for_athlete(athlete=program.athlete)
    batch = propose(
        conversation,
        ("call_1", "skip_workout", {"workout_id": "week-4-session-2", "reason": "trip"}),
    )
    rows = card_whatif(batch)
    assert rows and rows[-1]["label"] == "End of the program"
    assert rows[-1]["change_text"].startswith("+")
    page = athlete_client.get("/").content.decode()
    assert '<table class="whatif">' in page
    assert "Projected form (TSB), before → after" in page
    assert f"<td>{rows[-1]['before']}</td><td>{rows[-1]['after']}</td>" in page


def test_the_program_panel_links_to_the_fitness_and_activity_pages(athlete_client, program):
    services.conversation_for_athlete(athlete=program.athlete)
    page = athlete_client.get("/").content.decode()
    assert 'href="/training/fitness/"' in page and 'href="/training/activities/"' in page


def test_replies_link_the_training_pages_they_name_and_escape_the_rest():
    html = link_training(
        "Your run <b>x</b> (page /training/activities/12/), see /training/fitness/"
    )
    assert '<a href="/training/activities/12/">/training/activities/12/</a>' in html
    assert '<a href="/training/fitness/">' in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html
    assert "<a" not in link_training("/etc/training/activities/1/")
