"""The chat's microphone in a real browser (chromium through Playwright). Chromium's own speech
recognition needs Google's servers, so a fake SpeechRecognition is put in the page before its
scripts run: clicking the microphone starts it, its result fills the message box, nothing is sent
until the athlete presses Send, and then the message is the transcript as corrected. Without the
API the button is not in the page at all."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from chat.models import Message
from tests.browser.conftest import needs_chromium
from tests.factories import build_program

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

FAKE_RECOGNITION = """
window.recognitionsStarted = 0;
window.SpeechRecognition = class {
  start() {
    window.recognitionsStarted += 1;
    window.recognitionLang = this.lang;
    setTimeout(() => {
      this.onresult({results: [[{transcript: "add two sets to my squats", confidence: 0.91}]]});
      if (this.onend) this.onend();
    }, 50);
  }
  stop() { if (this.onend) this.onend(); }
};
"""
NO_RECOGNITION = "delete window.SpeechRecognition; delete window.webkitSpeechRecognition;"


def open_chat(page, live_server, script: str):
    program = build_program(weeks=1, sessions=2, exercises=2)
    client = Client()
    client.force_login(program.athlete)
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME,
          "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": live_server.url}]
    )  # fmt: skip
    page.add_init_script(script)
    page.goto(live_server.url + "/")
    return program


def test_speaking_fills_the_box_and_nothing_is_sent_until_send(page, live_server):
    program = open_chat(page, live_server, FAKE_RECOGNITION)
    mic = page.get_by_role("button", name="Speak your message")
    expect(mic).to_be_visible()
    box = page.locator("#composer-text")
    box.fill("Please")
    mic.click()
    expect(box).to_have_value("Please add two sets to my squats")
    expect(page.locator("#voice-status")).to_contain_text("Check the text")
    assert page.evaluate("window.recognitionsStarted") == 1
    assert page.evaluate("window.recognitionLang") == "en"
    page.wait_for_timeout(300)
    athlete_said = Message.objects.filter(conversation__program=program, role="user")
    assert not athlete_said.exists()  # filled, never sent unseen
    box.fill("Please add two sets to my back squats")  # the athlete corrects it
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#messages")).to_contain_text("Please add two sets to my back squats")
    assert list(athlete_said.values_list("content", flat=True)) == [
        "Please add two sets to my back squats"
    ]
    # The box is drawn again after a send: its microphone still works.
    page.get_by_role("button", name="Speak your message").click()
    expect(page.locator("#composer-text")).to_have_value("add two sets to my squats")


def test_without_speech_recognition_there_is_no_microphone(page, live_server):
    open_chat(page, live_server, NO_RECOGNITION)
    expect(page.locator("#composer-text")).to_be_visible()
    page.wait_for_load_state("load")
    expect(page.locator("[data-voice-for]")).to_have_count(0)
    expect(page.locator("form.photo-form input[type=file]")).to_have_attribute("accept", "image/*")
