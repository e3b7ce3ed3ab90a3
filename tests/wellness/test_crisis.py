"""The crisis path (seed 004): the mood is logged and nothing else is done, the reply is the
deployment's fixed message with crisis resources (never the model's words), the model is told,
and the athlete's coach (only theirs) sees a flag in the admin until they mark it seen."""

import pytest
from django.urls import reverse

from chat.models import Message, ToolCallRecord
from chat.prompt import build_turns
from tests.chat.admin_helpers import make_coach, make_staff
from tests.factories import ConversationFactory, UserFactory, build_program
from tests.wellness.helpers import turn
from wellness.models import MedicationLog, MoodLog

pytestmark = pytest.mark.django_db

FIXED = "We hear you. Call 0800 000 000 (Example Line), any time."
CRISIS = ("m1", "log_mood", {"mood": "crisis"})


@pytest.fixture
def coach():
    return make_coach("coach-ann")


@pytest.fixture
def conversation(coach):
    program = build_program(
        weeks=1, sessions=1, exercises=1, athlete=UserFactory(username="alex"), coach=coach
    )
    return ConversationFactory(program=program)


@pytest.fixture(autouse=True)
def crisis_message(settings):
    settings.WELLNESS_CRISIS_MESSAGE = FIXED


def test_a_crisis_mood_is_logged_and_the_reply_is_the_fixed_message(conversation):
    reply = turn(
        conversation,
        "I can't go on",
        CRISIS,
        ("c1", "log_medication", {"medication_name": "sleeping pills", "kind": "medication"}),
        reply="It sounds like depression; you should rest.",
    )
    assert MoodLog.objects.get().mood == "crisis"
    assert not MedicationLog.all_objects.exists()
    assert reply.content == FIXED and reply.suggested_replies == []
    assert "depression" not in reply.content
    records = {r.call_id: r for r in ToolCallRecord.objects.all()}
    assert records["m1"].status == "applied"
    assert records["c1"].status == "refused" and records["c1"].guardrail == "crisis_only"
    event = Message.objects.get(role="event")
    assert "crisis" in event.content


def test_the_model_is_told_the_crisis_message_was_shown(conversation):
    turn(conversation, "I can't go on", CRISIS)
    text = "\n".join(t.content for t in build_turns(conversation) if t.role == "user")
    assert "fixed crisis message" in text and "Do not diagnose" in text


def test_the_athletes_coach_sees_the_flag_and_marks_it_seen(conversation, coach, client):
    turn(conversation, "I can't go on", CRISIS)
    log = MoodLog.objects.get()
    client.force_login(coach)
    index = client.get(reverse("admin:index")).content.decode()
    assert "⚑ 1 crisis flag" in index
    page = client.get(reverse("admin:wellness_moodlog_changelist")).content.decode()
    assert "⚑ Crisis" in page and "alex" in page
    client.post(
        reverse("admin:wellness_moodlog_changelist"),
        {"action": "mark_seen", "_selected_action": [log.pk]},
    )
    log.refresh_from_db()
    assert log.flag_seen_at is not None and log.flag_seen_by == coach
    page = client.get(reverse("admin:wellness_moodlog_changelist")).content.decode()
    assert "⚑ Crisis" not in page and "Crisis (seen)" in page
    assert "crisis flag" not in client.get(reverse("admin:index")).content.decode()


def test_another_coach_sees_no_flag_and_gets_404(conversation, client):
    turn(conversation, "I can't go on", CRISIS)
    log = MoodLog.objects.get()
    client.force_login(make_coach("coach-bob"))
    assert "crisis flag" not in client.get(reverse("admin:index")).content.decode()
    page = client.get(reverse("admin:wellness_moodlog_changelist")).content.decode()
    assert "⚑ Crisis" not in page
    response = client.get(reverse("admin:wellness_moodlog_change", args=[log.pk]))
    assert response.status_code == 302  # Django's "doesn't exist" redirect: not revealed
    assert "doesn’t exist" in client.get(response.url).content.decode()


def test_staff_read_the_flag_but_cant_mark_it_seen(conversation, client):
    turn(conversation, "I can't go on", CRISIS)
    log = MoodLog.objects.get()
    client.force_login(make_staff())
    page = client.get(reverse("admin:wellness_moodlog_changelist")).content.decode()
    assert "⚑ Crisis" in page and "mark_seen" not in page
    client.post(
        reverse("admin:wellness_moodlog_changelist"),
        {"action": "mark_seen", "_selected_action": [log.pk]},
    )
    log.refresh_from_db()
    assert log.flag_seen_at is None


def test_an_unsure_crisis_log_is_not_written_but_the_resources_are_shown(conversation):
    reply = turn(
        conversation,
        "everything is awful",
        ("m1", "log_mood", {"mood": "crisis", "confidence": 0.4}),
    )
    assert not MoodLog.all_objects.exists()
    assert reply.content == FIXED
    assert ToolCallRecord.objects.get().guardrail == "low_confidence"
