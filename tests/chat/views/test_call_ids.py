"""A provider's tool-call id is data (issue 18 item 9): one holding "/" or 300 characters is named
by an id of the app's own (short, URL-safe) in the batch, the card's URLs and the database, and
sent back to the provider as it gave it. The chat page loads and Cancel works; an id past
``CHAT_TOOL_CALL_ID_MAX_CHARS`` is answered with a clear tool error, never a database error.
Run on SQLite and on PostgreSQL (``DATABASE_URL``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from chat.agent import run_turn
from chat.models import Message, PendingToolBatch
from coach.toolcalls import is_safe_id
from tests.calls import RENAME
from tests.chat.agent.support import reply
from tests.chat.views.support import HX, first_exercise, make_batch, rename_call

pytestmark = pytest.mark.django_db

ODD_IDS = {
    "slash": "call/../../1",
    "long": "call_" + "x" * 295,  # 300 characters: more than Message.tool_call_id's 200
}


def _propose(conversation, server, call_id):
    _, name, arguments = RENAME
    server.enqueue_openai_tool_calls([(call_id, name, arguments)], text="Swap squats?")
    return reply(conversation, server.provider(), text="swap squats for goblet squats")


def _cancel(client, batch):
    return client.post(
        reverse("chat:batch_cancel", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )


@pytest.mark.parametrize("kind", sorted(ODD_IDS))
def test_an_odd_provider_id_gets_an_own_id_the_page_loads_and_cancel_works(
    athlete_client, conversation, program, fake_openai_server, kind
):
    provider_id = ODD_IDS[kind]
    _propose(conversation, fake_openai_server, provider_id)
    batch = PendingToolBatch.objects.get()
    own = batch.calls[0]["id"]
    assert is_safe_id(own) and len(own) <= 64
    assert batch.calls[0]["provider_id"] == provider_id
    answer = Message.objects.get(role=Message.Role.TOOL)
    assert answer.tool_call_id == own

    page = athlete_client.get(reverse("chat:home"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Apply Changes" in html
    assert reverse("chat:call_remove", args=[batch.pk, own]) in html

    response = _cancel(athlete_client, batch)
    assert response.status_code == 200
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.CANCELLED
    assert first_exercise(program).name == "Back Squat"
    assert athlete_client.get(reverse("chat:home")).status_code == 200

    # The provider is sent its own id back, in the call and in its answer.
    followup = conversation.messages.filter(role="assistant", status="pending").latest("pk")
    run_turn(placeholder=followup, provider=fake_openai_server.provider())
    messages = fake_openai_server.last_request.json["messages"]
    assistant = next(m for m in messages if m.get("tool_calls"))
    assert assistant["tool_calls"][0]["id"] == provider_id
    tool = next(m for m in messages if m["role"] == "tool")
    assert tool["tool_call_id"] == provider_id


def test_an_absurdly_long_provider_id_is_answered_with_a_tool_error(
    athlete_client, conversation, program, settings, fake_openai_server
):
    settings.CHAT_TOOL_CALL_ID_MAX_CHARS = 512
    placeholder = _propose(conversation, fake_openai_server, "c" * 5000)
    assert placeholder.status == "complete"
    assert not PendingToolBatch.objects.exists()
    answer = Message.objects.get(role=Message.Role.TOOL)
    assert answer.is_error
    assert "5,000 characters long" in answer.content
    assert "at most 512" in answer.content
    assert is_safe_id(answer.tool_call_id)
    assert athlete_client.get(reverse("chat:home")).status_code == 200
    # The next request pairs the call and its answer by the app's id (the provider's isn't kept).
    reply(conversation, fake_openai_server.provider(), text="hello")
    messages = fake_openai_server.last_request.json["messages"]
    assistant = next(m for m in messages if m.get("tool_calls"))
    tool = next(m for m in messages if m["role"] == "tool")
    assert assistant["tool_calls"][0]["id"] == tool["tool_call_id"] == answer.tool_call_id


def test_a_batch_stored_with_a_provider_id_no_url_can_carry_still_shows_and_cancels(
    athlete_client, conversation, program
):
    batch = make_batch(conversation, [rename_call("Goblet Squat", call_id="call/1")])
    page = athlete_client.get(reverse("chat:home"))
    assert page.status_code == 200
    assert "Apply Changes" in page.content.decode()
    assert _cancel(athlete_client, batch).status_code == 200
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.CANCELLED
