"""A low or high log the athlete stated is written at once through the proposal spine (a batch
created and applied, an ``auto_applied`` decision, audit records proposed → applied) and shows
Undo in the chat; confirmed tools still wait for Apply."""

import pytest
from django.urls import reverse

from chat.models import BatchDecision, Message, PendingToolBatch, ToolCallRecord
from chat.views.common import undoable_events
from tests.factories import ConversationFactory
from tests.wellness.helpers import CREATINE, turn
from wellness.models import CareLog, MedicationLog, MoodLog, ReadinessLog, Reminder

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)


def test_a_stated_medication_is_logged_at_once_with_an_undoable_event(conversation):
    reply = turn(conversation, "I took my creatine this morning", CREATINE)
    log = MedicationLog.objects.get()
    assert (log.name, log.kind, log.part_of_day) == ("creatine", "supplement", "morning")
    assert log.athlete == conversation.athlete
    batch = PendingToolBatch.objects.get()
    assert batch.status == "applied" and reply.batch_id == batch.pk
    decision = BatchDecision.objects.get(batch=batch)
    assert decision.kind == BatchDecision.Kind.AUTO_APPLIED
    event = Message.objects.get(role="event")
    assert "creatine" in event.content and event.decision == decision
    assert event.pk in undoable_events(conversation)
    record = ToolCallRecord.objects.get(call_id="c1")
    assert record.status == "applied" and record.batch == batch
    assert [t["status"] for t in record.transitions] == ["proposed", "applied"]
    tool = Message.objects.get(role="tool", tool_call_id="c1")
    assert not tool.is_error and "Written at once" in tool.content
    assert reply.content == "Got it." and reply.error_code == ""


def test_mood_and_readiness_are_low_and_logged_at_once(conversation):
    turn(
        conversation,
        "I feel good, slept well, a bit sore",
        ("m1", "log_mood", {"mood": "good"}),
        ("r1", "log_readiness", {"sleep_quality": 4, "soreness": 3, "stress": 2}),
    )
    assert MoodLog.objects.get().mood == "good"
    assert ReadinessLog.objects.get().soreness == 3
    assert PendingToolBatch.objects.get().status == "applied"


def test_a_reminder_waits_for_apply(conversation):
    reply = turn(
        conversation,
        "Remind me to take creatine at 9",
        (
            "r1",
            "create_reminder",
            {"title": "Take creatine", "time": "09:00", "days": [1, 2, 3, 4, 5, 6, 7]},
        ),
    )
    assert not Reminder.objects.exists()
    assert reply.batch.status == "pending"


def test_a_care_log_is_critical_and_its_card_shows_the_date_and_time(conversation, client):
    reply = turn(
        conversation,
        "I went to the hospital yesterday at 10 for a checkup",
        (
            "v1",
            "create_care_log",
            {"log_type": "visit", "title": "Hospital checkup", "occurred_at": "2026-01-05T10:00"},
        ),
    )
    assert not CareLog.objects.exists()
    batch = reply.batch
    assert batch.status == "pending"
    assert "Monday 5 January 2026 at 10:00" in " ".join(batch.preview["warnings"])
    client.force_login(conversation.athlete)
    page = client.get(reverse("chat:home")).content.decode()
    assert "Monday 5 January 2026 at 10:00" in page


def test_a_log_mixed_with_a_program_change_waits_for_apply_with_it(conversation):
    reply = turn(
        conversation,
        "I took my creatine; rename it",
        CREATINE,
        (
            "p1",
            "modify_exercise",
            {
                "weekNumber": 1,
                "sessionNumber": 1,
                "exerciseNumber": 1,
                "updates": {"name": "Goblet Squat"},
            },
        ),
    )
    assert not MedicationLog.objects.exists()
    assert reply.batch.status == "pending" and len(reply.batch.calls) == 2


def test_an_invalid_log_is_refused_and_writes_nothing(conversation):
    reply = turn(
        conversation,
        "I slept badly",
        ("r1", "log_readiness", {"sleep_quality": 9, "soreness": 3, "stress": 2}),
    )
    assert not ReadinessLog.objects.exists() and not PendingToolBatch.objects.exists()
    assert reply.error_code == "refused" and "at most 5" in reply.content
    assert ToolCallRecord.objects.get().status == "refused"


def test_a_log_in_the_future_is_refused_naming_today(conversation):
    reply = turn(
        conversation,
        "I took creatine",
        (
            "c1",
            "log_medication",
            {"medication_name": "creatine", "kind": "supplement", "date": "2999-01-01"},
        ),
    )
    assert not MedicationLog.objects.exists()
    assert "future" in reply.content


def test_undo_in_the_chat_soft_deletes_the_log_and_tells_the_model(conversation, client):
    turn(conversation, "I took my creatine this morning", CREATINE)
    batch = PendingToolBatch.objects.get()
    client.force_login(conversation.athlete)
    response = client.post(reverse("chat:batch_undo", args=[batch.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert not MedicationLog.objects.exists()
    assert MedicationLog.all_objects.get().deleted_at is not None
    batch.refresh_from_db()
    assert batch.status == "undone"
    undone = BatchDecision.objects.get(batch=batch, kind="undone")
    assert undone.change_set_id is not None
    line = Message.objects.filter(role="event").last().content
    assert line == "You undid 1 log; it is removed."
    assert ToolCallRecord.objects.get(call_id="c1").status == "undone"


def test_another_athlete_cant_undo_the_log(conversation, client):
    turn(conversation, "I took my creatine this morning", CREATINE)
    batch = PendingToolBatch.objects.get()
    other = ConversationFactory()
    client.force_login(other.athlete)
    response = client.post(reverse("chat:batch_undo", args=[batch.pk]))
    assert response.status_code == 404
    assert MedicationLog.objects.count() == 1
