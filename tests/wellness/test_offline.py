"""The offline coach understands wellness statements: "I took my creatine this morning" is logged
at once (with Undo), symptoms are not medications, reminders and care records wait for Apply."""

import pytest

from chat.agent import run_turn
from chat.models import Message, PendingToolBatch
from chat.services import message_send
from coach.llm.offline import OfflineProvider
from tests.factories import ConversationFactory
from wellness.models import MedicationLog, MoodLog, ReadinessLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)


def say(conversation, text):
    _, placeholder = message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=OfflineProvider())
    placeholder.refresh_from_db()
    return placeholder


def test_i_took_my_creatine_this_morning_is_logged_at_once(conversation):
    reply = say(conversation, "I took my creatine this morning")
    log = MedicationLog.objects.get()
    assert (log.name, log.kind, log.part_of_day) == ("creatine", "supplement", "morning")
    assert "I'll log that" in reply.content and "Apply" not in reply.content
    assert PendingToolBatch.objects.get().status == "applied"
    assert "creatine" in Message.objects.get(role="event").content


def test_a_symptom_is_not_a_medication(conversation):
    say(conversation, "I had a headache")
    assert not MedicationLog.objects.exists()


def test_mood_and_readiness_commands(conversation):
    say(conversation, "mood good")
    say(conversation, "readiness sleep 4 soreness 2 stress 3")
    assert MoodLog.objects.get().mood == "good"
    assert ReadinessLog.objects.get().sleep_quality == 4


def test_a_reminder_waits_for_apply(conversation):
    reply = say(conversation, "remind me to take creatine at 08:00 every day")
    assert reply.batch.status == "pending"
    assert reply.batch.calls[0]["arguments"] == {
        "title": "Take creatine",
        "time": "08:00",
        "days": [1, 2, 3, 4, 5, 6, 7],
    }


def test_the_wellness_read(conversation):
    say(conversation, "I took my creatine this morning")
    reply = say(conversation, "wellness 7")
    assert "creatine" in reply.content
