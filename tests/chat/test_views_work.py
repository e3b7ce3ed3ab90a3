"""The chat's views don't redo work: the page reads each thing once, a finished reply or a decision
sends the program panel again only when the program changed, and the hot paths keep a fixed
number of queries whatever the conversation's length."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from chat import services
from chat.models import Message, PendingToolBatch
from coach.engine import ToolContext, preview_calls
from coach.toolcalls import ToolCall
from tests.factories import build_program

HX = {"HX-Request": "true"}
RENAME = ToolCall(
    id="call_rename",
    name="modify_exercise",
    arguments={"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 1, "updates": {"name": "X"}},
)


@pytest.fixture
def conversation(db):
    program = build_program(weeks=4, sessions=3, exercises=4, start_date=timezone.localdate())
    return services.conversation_for_athlete(athlete=program.athlete)


@pytest.fixture
def athlete_client(client, conversation):
    client.force_login(conversation.athlete)
    return client


def history(conversation, exchanges: int = 30) -> Message:
    """``exchanges`` questions and answers; returns the last answer."""
    reply = None
    for n in range(exchanges):
        user = Message.objects.create(conversation=conversation, role="user", content=f"q{n}")
        reply = Message.objects.create(
            conversation=conversation,
            role="assistant",
            content=f"a{n}",
            reply_to=user,
            suggested_replies=[f"more {n}"],
        )
    return reply


def open_batch(conversation) -> PendingToolBatch:
    program = conversation.program
    program.refresh_from_db()
    result = preview_calls(ctx=ToolContext.for_program(program), calls=[RENAME])
    return PendingToolBatch.objects.create(
        conversation=conversation,
        calls=[RENAME.to_dict()],
        preview=result.preview,
        results=[r.to_dict() for r in result.results],
        program_version=program.version,
    )


def version(conversation) -> str:
    conversation.program.refresh_from_db()
    return str(conversation.program.version)


# --- the page ------------------------------------------------------------------------------------


@pytest.mark.parametrize("exchanges", [1, 60])
def test_the_chat_page_makes_five_queries_whatever_the_conversations_length(
    athlete_client, conversation, django_assert_num_queries, exchanges
):
    # session, user, the conversation with its program, the messages (with their decisions'
    # kinds and batch statuses, so the Undo buttons and the suggested replies need no query of
    # their own), the open batch; and the week (weeks, sessions, exercises) and the plan's offer
    # (the athlete's today, the missed sessions) only the first time this version of the program
    # is shown.
    history(conversation, exchanges)
    with django_assert_num_queries(15):
        athlete_client.get("/")
    with django_assert_num_queries(5):
        response = athlete_client.get("/")
    assert f">more {exchanges - 1}</button>" in response.content.decode()


def test_the_page_carries_the_program_version_the_messages_and_card_send_back(
    athlete_client, conversation
):
    html = athlete_client.get("/").content.decode()
    assert (
        f'<input type="hidden" id="program-version" name="program_version" '
        f'value="{version(conversation)}">' in html
    )
    assert (
        '<div id="messages" class="messages" aria-live="polite" hx-include="#program-version"'
        in html
    )
    assert 'id="batch-card" class="batch-region" hx-include="#program-version"' in html


# --- the thinking poll ---------------------------------------------------------------------------


def test_a_pending_poll_makes_three_queries(
    athlete_client, conversation, django_assert_num_queries
):
    history(conversation, 20)
    placeholder = Message.objects.create(
        conversation=conversation, role="assistant", status="pending"
    )
    url = reverse("chat:message_poll", args=[placeholder.pk])
    with django_assert_num_queries(3):  # session, user, the message
        response = athlete_client.get(url, headers=HX)
    assert "Coach is thinking" in response.content.decode()


def test_a_finished_reply_leaves_the_panel_out_when_the_program_is_unchanged(
    athlete_client, conversation, django_assert_num_queries
):
    reply = history(conversation, 20)
    url = (
        reverse("chat:message_poll", args=[reply.pk]) + f"?program_version={version(conversation)}"
    )
    # session, user, the message's status, the reply with its conversation and program, undoable,
    # batch, suggestions (a waiting poll, the usual one, reads only the status: three queries);
    # the plan's offer comes from the cache, as the page counted it
    athlete_client.get("/")
    with django_assert_num_queries(7):
        html = athlete_client.get(url, headers=HX).content.decode()
    assert 'id="program-panel"' not in html
    assert "a19" in html and ">more 19</button>" in html


def test_a_finished_reply_sends_the_panel_when_the_program_changed_or_the_page_didnt_say(
    athlete_client, conversation
):
    reply = history(conversation, 2)
    base = reverse("chat:message_poll", args=[reply.pk])
    shown = int(version(conversation))
    conversation.program.__class__.objects.filter(pk=conversation.program.pk).update(
        version=shown + 1
    )
    for url in (f"{base}?program_version={shown}", base):
        html = athlete_client.get(url, headers=HX).content.decode()
        assert (
            '<aside id="program-panel" class="program-panel" aria-label="This week\'s program" hx-swap-oob="true">'
            in html
        )
        assert f'name="program_version" value="{shown + 1}"' in html


# --- decisions -----------------------------------------------------------------------------------


def test_cancel_leaves_the_panel_out_and_apply_sends_it_with_the_new_version(
    athlete_client, conversation
):
    shown = version(conversation)
    batch = open_batch(conversation)
    url = reverse("chat:batch_cancel", args=[batch.pk])
    html = athlete_client.post(
        url, {"revision": batch.revision, "program_version": shown}, headers=HX
    ).content.decode()
    assert "cancelled" in html.lower() and 'id="program-panel"' not in html
    batch = open_batch(conversation)
    url = reverse("chat:batch_apply", args=[batch.pk])
    html = athlete_client.post(
        url, {"revision": batch.revision, "program_version": shown}, headers=HX
    ).content.decode()
    assert f'name="program_version" value="{int(shown) + 1}"' in html


def test_posting_a_message_makes_a_fixed_number_of_queries(
    athlete_client, conversation, django_assert_max_num_queries
):
    history(conversation, 60)
    Message.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=5))
    url = reverse("chat:message_send", args=[conversation.pk])
    # session, user, conversation, the row lock (update), the rate count, two inserts, savepoints.
    with django_assert_max_num_queries(9):
        response = athlete_client.post(url, {"text": "hello"}, headers=HX)
    assert response.status_code == 200
