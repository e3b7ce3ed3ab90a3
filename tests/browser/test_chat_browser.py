"""The confirmation flow in a real browser (seed 000, scenarios 13–17), plus one whole conversation
with the offline coach. Celery is eager in the test settings, so the coach's reply is produced
inside the request that queues it; the page still fetches it by polling, as in production.

The scripted model is the OpenAI-compatible fake server (``coach.llm.fake_server``); its
recorded requests show what the model was told after a click.
"""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Page, expect

from chat.models import Message, PendingToolBatch
from programs.models import Exercise, Program, Session
from programs.services import exercise_insert, exercise_remove, program_bump_version
from tests.browser.conftest import needs_chromium
from tests.factories import build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

RENAME_FIRST = {
    "weekNumber": 1,
    "sessionNumber": 1,
    "exerciseNumber": 1,
    "updates": {"name": "Goblet Squat"},
}


# --- helpers ------------------------------------------------------------------------------------


def log_in(page: Page, live_server, user) -> None:
    """Share a session made by Django's test client with the browser (the login form itself is
    exercised by the offline conversation test)."""
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    page.goto(live_server.url + "/")


def send(page: Page, text: str) -> None:
    box = page.get_by_role("textbox", name="Message")
    box.fill(text)
    page.get_by_role("button", name="Send", exact=True).click()
    expect(box).to_have_value("")
    expect(page.locator(".bubble-user").last).to_have_text(text)


def coach_says(page: Page, text: str) -> None:
    expect(page.locator(".bubble-coach").last).to_contain_text(text)
    expect(page.locator(".bubble-thinking")).to_have_count(0)


def card(page: Page):
    return page.locator("#batch-card .preview-card")


def exercise(program, *, week=1, session=1, position=1) -> Exercise:
    return Exercise.objects.get(
        session__week__program=program,
        session__week__position=week,
        session__position=session,
        position=position,
    )


def said_after_click(server) -> str:
    """What the model was told in the latest request, after its last assistant turn."""
    messages = server.last_request.json["messages"]
    last_assistant = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    return json.dumps(messages[last_assistant + 1 :])


def propose_rename(page: Page, server, *, text="I can swap Back Squat for Goblet Squat.") -> None:
    server.enqueue_openai_tool_calls([("call_rename", "modify_exercise", RENAME_FIRST)], text=text)
    send(page, "Swap squats for goblet squats please")
    coach_says(page, "Goblet Squat")
    expect(card(page)).to_be_visible()
    expect(card(page)).to_contain_text("Proposed changes")
    expect(card(page)).to_contain_text("Back Squat")
    expect(card(page)).to_contain_text("Goblet Squat")


# --- scenarios 13–17 ----------------------------------------------------------------------------


def test_13_apply_changes_applies_the_batch_and_the_model_acknowledges(
    page: Page, live_server, llm_settings_openai
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=3, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)
    propose_rename(page, server)

    server.enqueue_openai_text("Done! Goblet squats from now on.")
    version = Program.objects.get(pk=program.pk).version
    page.get_by_role("button", name="Apply Changes").dblclick()  # applied once all the same

    expect(card(page)).to_have_count(0)
    coach_says(page, "Done! Goblet squats from now on.")
    expect(page.locator(".event-line").last).to_be_visible()
    expect(page.locator("#program-panel")).to_contain_text("Goblet Squat")
    assert exercise(program).name == "Goblet Squat"
    batch = PendingToolBatch.objects.get(conversation__program=program)
    assert batch.status == PendingToolBatch.BatchStatus.APPLIED
    assert Program.objects.get(pk=program.pk).version == version + 1
    assert Message.objects.filter(batch=batch, role=Message.Role.EVENT).count() == 1
    told = said_after_click(server)
    assert "call_rename" in told
    assert "Goblet Squat" in told


def test_14_cancel_changes_nothing_and_the_model_is_told(
    page: Page, live_server, llm_settings_openai
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=3, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)
    propose_rename(page, server)
    version = Program.objects.get(pk=program.pk).version

    server.enqueue_openai_text("No problem, we'll keep Back Squat.")
    page.get_by_role("button", name="Cancel", exact=True).click()

    expect(card(page)).to_have_count(0)
    coach_says(page, "No problem, we'll keep Back Squat.")
    expect(page.locator("#program-panel")).to_contain_text("Back Squat")
    assert exercise(program).name == "Back Squat"
    assert Program.objects.get(pk=program.pk).version == version
    batch = PendingToolBatch.objects.get(conversation__program=program)
    assert batch.status == PendingToolBatch.BatchStatus.CANCELLED
    told = said_after_click(server)
    assert "call_rename" in told
    assert re.search(r"cancel|not to make|declined", told, re.IGNORECASE)


def test_15_a_message_while_changes_are_pending_keeps_them_pending(
    page: Page, live_server, llm_settings_openai
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=3, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)
    propose_rename(page, server)

    server.enqueue_openai_text(
        "A goblet squat is a squat holding one dumbbell at your chest.\n---\nSounds good\nShow me how"
    )
    send(page, "what's a goblet squat?")
    coach_says(page, "holding one dumbbell at your chest")

    expect(card(page)).to_be_visible()
    expect(page.get_by_role("button", name="Apply Changes")).to_be_enabled()
    expect(page.get_by_role("textbox", name="Message")).to_be_enabled()
    expect(page.locator("#suggestions .chip")).to_have_count(0)
    batch = PendingToolBatch.objects.get(conversation__program=program)
    assert batch.status == PendingToolBatch.BatchStatus.PENDING
    assert exercise(program).name == "Back Squat"


def test_16_a_message_then_apply_still_applies_the_changes(
    page: Page, live_server, llm_settings_openai
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=3, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)
    propose_rename(page, server)
    server.enqueue_openai_text("It keeps your torso upright; easier on the back.")
    send(page, "Why goblet squats?")
    coach_says(page, "easier on the back")

    server.enqueue_openai_text("Applied. Enjoy the goblet squats!")
    page.get_by_role("button", name="Apply Changes").click()

    expect(card(page)).to_have_count(0)
    coach_says(page, "Applied. Enjoy the goblet squats!")
    expect(page.locator("#program-panel")).to_contain_text("Goblet Squat")
    assert exercise(program).name == "Goblet Squat"


def test_17_a_failed_apply_names_the_call_and_can_be_retried(
    page: Page, live_server, llm_settings_openai
):
    server = llm_settings_openai
    program = build_program(weeks=1, sessions=2, exercises=3, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)
    third = {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 3, "updates": {"reps": "12"}}
    server.enqueue_openai_tool_calls(
        [("call_reps", "modify_exercise", third)], text="12 reps it is."
    )
    send(page, "Make the rows 12 reps")
    coach_says(page, "12 reps it is.")
    expect(card(page)).to_contain_text("Reps")

    # A coach removes that exercise in the admin while the card is open.
    exercise_remove(exercise=exercise(program, position=3))
    program_bump_version(program=program)
    apply = page.get_by_role("button", name="Apply Changes")
    apply.click()
    expect(card(page)).to_contain_text("The plan changed since you saw it")
    page.get_by_role("button", name="Apply Changes").click()
    error = card(page).locator(".apply-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Could not apply these changes.")
    expect(error).to_contain_text(re.compile(r"exercise", re.IGNORECASE))
    batch = PendingToolBatch.objects.get(conversation__program=program)
    assert batch.status == PendingToolBatch.BatchStatus.FAILED
    assert batch.error_message

    # The coach puts an exercise back; Apply again works (after one look at the fresh preview).
    session = Session.objects.get(week__program=program, week__position=1, position=1)
    exercise_insert(
        session=session,
        position=3,
        name="Barbell Row",
        working_sets=3,
        reps="8",
        target_load="95 lbs",
    )
    program_bump_version(program=program)
    server.enqueue_openai_text("Rows are now 12 reps.")
    page.get_by_role("button", name="Apply Changes").click()
    expect(card(page)).to_contain_text("The plan changed since you saw it")
    expect(card(page).locator(".apply-error")).to_have_count(0)
    page.get_by_role("button", name="Apply Changes").click()
    expect(card(page)).to_have_count(0)
    coach_says(page, "Rows are now 12 reps.")
    assert exercise(program, position=3).reps == "12"


# --- a whole conversation with the offline coach ------------------------------------------------


def test_a_whole_conversation_with_the_offline_coach(page: Page, live_server, settings, artifacts):
    settings.LLM_PROVIDER = "offline"
    program = build_program(weeks=1, sessions=2, exercises=3, start_date=timezone.localdate())
    athlete = program.athlete

    page.goto(live_server.url + "/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.get_by_label("Username").fill(athlete.username)
    page.get_by_label("Password").fill("pw-for-tests")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(live_server.url + "/")
    expect(page.locator(".badge-offline")).to_have_text("Offline coach")
    expect(page.locator(".topbar")).to_contain_text("type help")
    expect(page.locator("#program-panel")).to_contain_text("Back Squat")

    send(page, "rename exercise 1.1.1 to Goblet Squat")
    expect(card(page)).to_be_visible()
    expect(card(page)).to_contain_text("Goblet Squat")
    expect(page.locator(".bubble-thinking")).to_have_count(0)

    send(page, "help")
    expect(page.locator(".bubble-coach").last).to_contain_text("rename exercise")
    expect(card(page)).to_be_visible()
    expect(page.locator("#suggestions .chip")).to_have_count(0)
    expect(page.get_by_role("textbox", name="Message")).to_be_enabled()

    page.screenshot(path=str(artifacts / "chat-pending-desktop.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "chat-pending-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 860})

    page.get_by_role("button", name="Apply Changes").click()
    expect(card(page)).to_have_count(0)
    expect(page.locator("#program-panel")).to_contain_text("Goblet Squat")
    expect(page.locator(".bubble-thinking")).to_have_count(0)
    assert exercise(program).name == "Goblet Squat"
    page.screenshot(path=str(artifacts / "chat-applied-desktop.png"))


def test_an_empty_message_shows_an_inline_error_in_the_browser(page: Page, live_server, settings):
    settings.LLM_PROVIDER = "offline"
    program = build_program(weeks=1, sessions=1, exercises=2, start_date=timezone.localdate())
    log_in(page, live_server, program.athlete)
    page.get_by_role("textbox", name="Message").fill("   ")
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator("#composer .field-error")).to_have_text("Type a message first.")
    expect(page.get_by_role("textbox", name="Message")).to_be_enabled()
