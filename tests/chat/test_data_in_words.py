"""What a person reads is in words (issue 18 item 22): the offline coach's answers to reads carry
no JSON, no argument names (``workingSets``, ``avg_hr``, ``week-1-session-2``) and no quoted
numbers (``3×"5"``), while the model keeps reading the same data as before."""

from __future__ import annotations

import datetime
import re

import pytest

from chat import proposals
from chat.agent import run_turn
from chat.models import Message, PendingToolBatch
from chat.services import message_send
from coach.llm.offline import OfflineProvider
from tests.coach.training_helpers import today_of
from tests.factories import (
    ActivityFactory,
    ConversationFactory,
    SleepRecordFactory,
    UserFactory,
    build_program,
)
from wellness import services as wellness_services

pytestmark = pytest.mark.django_db

D = datetime.timedelta
JSON = re.compile(r"[{}]|\[\{")
QUOTED_NUMBER = re.compile(r"\"\d|\d\"")
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z][A-Za-z]*\b|\bweek-\d+-session-\d+\b")


def jargon(text: str) -> list[str]:
    return JSON.findall(text) + QUOTED_NUMBER.findall(text) + IDENTIFIER.findall(text)


@pytest.fixture
def world():
    athlete = UserFactory()
    today = today_of(athlete)
    program = build_program(weeks=2, sessions=3, exercises=2, athlete=athlete, start_date=today)
    for days, sport, name in ((1, "RUNNING", "Easy run"), (2, "CYCLING", "Long ride")):
        ActivityFactory(athlete=athlete, sport=sport, name=name, local_date=today - D(days=days))
    for days in (0, 1, 2):
        SleepRecordFactory(athlete=athlete, night=today - D(days=days))
    wellness_services.log_medication(
        athlete=athlete, name="creatine", kind="supplement", dose="5 g", taken_on=today
    )
    return ConversationFactory(program=program), today


def ask(conversation, text):
    _, placeholder = message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=OfflineProvider())
    placeholder.refresh_from_db()
    return placeholder


def model_data(reply) -> str:
    return "\n".join(r["content"] for step in reply.steps for r in step["results"])


@pytest.mark.parametrize(
    ("command", "model_reads_json"),
    [
        ("show week 1", False),
        ("Show my program", False),
        ("show my last run", True),
        ("activities from {week_ago} to {today}", True),
        ("plan from {today} to {in_a_week}", False),
        ("sleep 3", True),
        ("fitness", True),
        ("wellness 7", False),
    ],
)
def test_a_read_is_answered_in_words_and_the_model_keeps_its_data(world, command, model_reads_json):
    conversation, today = world
    text = command.format(today=today, week_ago=today - D(days=7), in_a_week=today + D(days=7))
    reply = ask(conversation, text)
    assert reply.content.strip() and "didn't understand" not in reply.content
    assert jargon(reply.content) == [], reply.content
    if model_reads_json:
        assert "{" in model_data(reply)  # the model's data is unchanged


def test_a_week_reads_sets_reps_and_load_without_quotes(world):
    conversation, _ = world
    reply = ask(conversation, "show week 1")
    assert "1. Back Squat 3×8-10 @ 135 lbs" in reply.content
    assert '1. "Back Squat" 3×"8-10" @ "135 lbs"' in model_data(reply)


def test_an_activity_reads_its_numbers_with_their_units(world):
    conversation, today = world
    reply = ask(conversation, "show my last run")
    assert f"Easy run (running, {(today - D(days=1)).isoformat()})" in reply.content
    assert "average heart rate 148 bpm" in reply.content and "distance 9 km" in reply.content


def test_a_comparison_reads_its_differences_in_words(world):
    conversation, _ = world
    ids = sorted(a.pk for a in conversation.athlete.activities.all())
    reply = ask(conversation, f"compare activities {ids[0]} {ids[1]}")
    assert jargon(reply.content) == [], reply.content
    assert "against the first:" in reply.content


def test_an_applied_change_is_acknowledged_in_words(world):
    conversation, _ = world
    ask(conversation, "set exercise 1.1.1 sets 4 load 140 lbs")
    batch = PendingToolBatch.objects.get(conversation=conversation)
    decision = proposals.apply(
        batch_id=batch.pk, user=conversation.athlete, revision=batch.revision
    )
    run_turn(placeholder=decision.followup, provider=OfflineProvider())
    decision.followup.refresh_from_db()
    text = decision.followup.content
    assert "number of sets 3 → 4" in text and "load 135 lbs → 140 lbs" in text, text
    assert jargon(text) == [] and '"' not in text, text
    assert "workingSets 3 → 4" in PendingToolBatch.objects.get(pk=batch.pk).results[0]["summary"]


def test_a_medication_logged_at_once_reads_in_words_in_the_chat(world):
    conversation, _ = world
    ask(conversation, "I took 400 mg ibuprofen this morning")
    event = Message.objects.get(conversation=conversation, role=Message.Role.EVENT)
    assert event.content.startswith("Logged medication ibuprofen, 400 mg, taken "), event.content
    assert '"' not in event.content


def test_a_session_change_is_acknowledged_with_its_fields_in_words(world):
    conversation, today = world
    ask(conversation, f"set session 1.2 date {(today + D(days=2)).isoformat()}")
    batch = PendingToolBatch.objects.get(conversation=conversation)
    decision = proposals.apply(
        batch_id=batch.pk, user=conversation.athlete, revision=batch.revision
    )
    run_turn(placeholder=decision.followup, provider=OfflineProvider())
    decision.followup.refresh_from_db()
    assert "Week 1, Session 2: changed date" in decision.followup.content
    assert jargon(decision.followup.content) == [], decision.followup.content
