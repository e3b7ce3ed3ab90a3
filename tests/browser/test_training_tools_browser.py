"""In a real browser: "how was my last run?" makes the (fake OpenAI) model call the
get_last_activity read tool, which runs at once; the model gets the run's numbers as data and its
answer links to the activity's page. And a skip with its what-if on the card."""

from __future__ import annotations

import datetime
import json

import pytest
from playwright.sync_api import Page, expect

from programs.models import Session
from tests.browser.conftest import needs_chromium
from tests.browser.test_chat_browser import card, coach_says, log_in, send
from tests.coach.training_helpers import current_program
from tests.factories import ActivityFactory

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def test_how_was_my_last_run_is_answered_from_the_read_tool(
    page: Page, live_server, llm_settings_openai
):
    server = llm_settings_openai
    program = current_program()
    yesterday = datetime.datetime.now(datetime.UTC).date() - datetime.timedelta(days=1)
    run = ActivityFactory(
        athlete=program.athlete,
        local_date=yesterday,
        name="Riverside 10k",
        distance_m=10000,
        moving_s=2700,
        avg_hr=151,
    )
    server.enqueue_openai_tool_calls(
        [("call_last", "get_last_activity", {"activity_type": "RUNNING"})]
    )
    server.enqueue_openai_text(
        f"Riverside 10k: 10 km at 4:30 /km, average heart rate 151. "
        f"Details: /training/activities/{run.pk}/"
    )
    log_in(page, live_server, program.athlete)
    send(page, "how was my last run?")
    coach_says(page, "Riverside 10k: 10 km at 4:30 /km")

    told = server.last_request.json["messages"]
    tool_reply = next(m for m in told if m["role"] == "tool")
    assert tool_reply["tool_call_id"] == "call_last"
    assert '"Riverside 10k"' in tool_reply["content"]
    assert '"distance_km":10.0' in tool_reply["content"] and "4:30 /km" in tool_reply["content"]
    assert f"/training/activities/{run.pk}/" in tool_reply["content"]
    expect(card(page)).to_have_count(0)  # a read never makes a card

    page.locator(".bubble-coach").last.get_by_role("link").click()
    page.wait_for_url(f"**/training/activities/{run.pk}/")
    expect(page.locator("body")).to_contain_text("Riverside 10k")


def test_skipping_a_future_session_shows_the_form_what_if_on_the_card(
    page: Page, live_server, llm_settings_openai
):
    server = llm_settings_openai
    program = current_program()
    today = datetime.datetime.now(datetime.UTC).date()
    for n in range(1, 15):
        ActivityFactory(
            athlete=program.athlete,
            local_date=today - datetime.timedelta(days=n),
            training_load=70,
        )
    server.enqueue_openai_tool_calls(
        [("call_skip", "skip_workout", {"workout_id": "week-4-session-1", "reason": "trip"})],
        text="I'll mark it skipped.",
    )
    log_in(page, live_server, program.athlete)
    send(page, "I'm away on the first day of week 4")
    coach_says(page, "skipped")
    expect(card(page).locator("table.whatif")).to_contain_text("End of the program")

    server.enqueue_openai_text("Done, enjoy the trip.")
    page.get_by_role("button", name="Apply Changes").click()
    coach_says(page, "enjoy the trip")
    session = Session.objects.get(week__program=program, week__position=4, position=1)
    assert (session.skipped, session.skip_reason) == (True, "trip")
    told = json.dumps(server.last_request.json["messages"])
    assert "call_skip" in told
