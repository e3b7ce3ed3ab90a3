"""The library tools in a conversation with the offline coach: search answers at once, a schedule
waits for Apply and is recorded in the program's history, the calendar feed is renumbered after
Apply and Undo, and a page link shows in the coach's bubble."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction
from django.urls import reverse

from chat import proposals
from chat.agent import run_turn
from chat.models import Message, PendingToolBatch
from chat.services import message_send
from coach.llm.offline import OfflineProvider
from library.feed import feed_for
from library.models import FeedEvent
from programs.models import Program, ProgramRevision, Session
from tests.factories import ConversationFactory, LibraryWorkoutFactory, build_program

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def conversation():
    return ConversationFactory(program=build_program(weeks=6, sessions=2, exercises=1))


@pytest.fixture
def legs(conversation):
    return LibraryWorkoutFactory(
        owner=conversation.athlete, title="Leg Day Destroyer", tags=["legs"]
    )


def say(conversation, text) -> Message:
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=OfflineProvider())
    placeholder.refresh_from_db()
    return placeholder


def open_batch(conversation) -> PendingToolBatch:
    return PendingToolBatch.objects.get(
        conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES
    )


def test_find_workouts_answers_at_once_in_words_and_the_model_reads_quoted_titles(
    conversation, legs
):
    reply = say(conversation, "find workouts legs")
    assert reply.content.startswith("Found these workouts:\n")
    # a person reads the title and what it is, in words; the model reads the ID
    line = f"1. Leg Day Destroyer: {legs.sport}, {legs.duration_minutes} min, {legs.intensity}"
    assert line in reply.content and "ID:" not in reply.content
    step = reply.steps[0]["results"][0]
    assert f'1. "Leg Day Destroyer" (ID: {legs.pk})' in step["content"]  # data for the model
    assert not PendingToolBatch.objects.exists()


def test_a_schedule_waits_for_apply_then_is_a_revision_and_the_feed_follows_apply_and_undo(
    conversation, legs
):
    athlete = conversation.athlete
    feed = feed_for(athlete=athlete)
    say(conversation, f"schedule workout {legs.pk} on 2026-11-04 weekly 4")
    batch = open_batch(conversation)
    assert [d["target"] for d in batch.preview["details"]] == [
        "Wednesday 2026-11-04",
        "Wednesday 2026-11-11",
        "Wednesday 2026-11-18",
        "Wednesday 2026-11-25",
    ]
    assert not Session.objects.filter(name="Leg Day Destroyer").exists()
    revisions = ProgramRevision.objects.filter(program=conversation.program).count()

    decision = proposals.apply(batch_id=batch.pk, user=athlete, revision=batch.revision)
    assert decision.outcome == "applied"
    created = list(Session.objects.filter(name="Leg Day Destroyer").order_by("scheduled_date"))
    assert [s.scheduled_date for s in created] == [
        datetime.date(2026, 11, 4) + datetime.timedelta(weeks=n) for n in range(4)
    ]
    assert ProgramRevision.objects.filter(program=conversation.program).count() == revisions + 1
    revision = ProgramRevision.objects.filter(program=conversation.program).latest("number")
    assert revision.program_version == Program.objects.get(pk=conversation.program_id).version
    # The feed numbered the new sessions on commit, before anyone downloaded it.
    live = FeedEvent.objects.filter(feed=feed, cancelled_at__isnull=True)
    assert set(live.values_list("session_pk", flat=True)) >= {s.pk for s in created}

    assert proposals.undo(batch_id=batch.pk, user=athlete).outcome == "undone"
    assert not Session.objects.filter(name="Leg Day Destroyer").exists()
    tombstones = FeedEvent.objects.filter(feed=feed, session_pk__in=[s.pk for s in created])
    assert tombstones.count() == 4
    assert all(event.cancelled_at is not None and event.sequence == 1 for event in tombstones)


def test_go_to_calendar_shows_a_link_in_the_coachs_bubble(conversation, client):
    reply = say(conversation, "go to calendar")
    assert "/training/calendar/" in reply.content
    client.force_login(conversation.athlete)
    page = client.get(reverse("chat:home")).content.decode()
    assert '<a class="bubble-link" href="/training/calendar/">Open the calendar →</a>' in page


def test_a_models_text_never_becomes_a_link(conversation, client):
    Message.objects.create(
        conversation=conversation,
        role="assistant",
        content='<a href="https://evil.example">Open the calendar</a>',
        steps=[
            {
                "text": "",
                "tool_calls": [
                    {"id": "x", "name": "navigate_to_page", "arguments": {"page": "nowhere"}}
                ],
                "results": [{"tool_call_id": "x", "content": "", "is_error": False}],
            }
        ],
    )
    client.force_login(conversation.athlete)
    page = client.get(reverse("chat:home")).content.decode()
    assert "&lt;a href=&quot;https://evil.example&quot;&gt;" in page
    assert 'class="bubble-link"' not in page
