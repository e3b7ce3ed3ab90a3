"""Crisis language in free text is the crisis path (issue 20 point 4; seed 004): whatever else the
sentence holds, the offline coach logs the mood as crisis and nothing else, before any other
reading (a reply to the card, the documented commands, another family's sentence); near misses
("I hurt myself deadlifting", "this workout is killing me") are not. How fast it is read is
measured by ``manage.py bench_understand`` (every eval sentence, the crisis ones included), not by
a timed test here."""

from __future__ import annotations

import datetime

import pytest

from chat.agent import run_turn
from chat.models import Message, ToolCallRecord
from chat.services import message_send
from coach.llm.base import Turn, World
from coach.llm.offline import OfflineProvider
from coach.llm.offline.understand import crisis, understand
from coach.tools.base import ToolContext
from tests.factories import ConversationFactory, UserFactory, build_program
from wellness.models import MoodLog, Reminder

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 26)
CRISIS_CALL = [("log_mood", {"mood": "crisis"})]

ALONE = [
    "I want to kill myself",
    "i wanna kill myself",
    "I'm going to kill myself tonight",
    "i'm thinking of killing myself",
    "I want to kil myself",  # a typo
    "kms",
    "I don't want to be here anymore",
    "I just don't see the point of living anymore",
    "there's no point in going on",
    "i dont want to live anymore",
    "I do not want to be alive",
    "thinking about ending it",
    "I keep thinking about ending it all",
    "I want to end my life",
    "I've been thinking about suicide",
    "I feel suicidal",
    "I want to hurt myself",
    "I've been cutting myself again",
    "I want to die",
    "I can't go on",
    "I can't do this anymore",
    "everyone would be better off without me",
    "there's no reason to live",
    "I have nothing to live for",
    "I CAN'T GO ON.",
    "I don’t want to be here anymore",  # a typographic apostrophe
    # said without "kill" or "suicide" (issue 20's unseen sentences, dev half, and their kind)
    "honestly i dont see the point anymore",
    "everyone would be better off if i wasnt around",
    "i've been thinking of ending it",
    "feel like hurting myself tonight",
    "sometimes i just want to go to sleep and never wake up",
    "i wish i wouldn't wake up",
    "i wish i was dead",
    "no one would notice if i disappeared",
    "nobody would miss me",
    "i want the pain to stop",
    "i just want everything to end",
    "burning myself again",
    "thinking about taking all my pills",
    "what's the point",
    "i want to disappear",
    "life isn't worth living",
    "i just want to sleep forever",
    "i'm done with everything",
    "i hate my life",
    "i can't keep going like this",
    "i want to give up on life",
    # round 2 (issue 20): others happier without the athlete, tired of living
    "everyone would be happier without me",
    "my family would be better off without me",
    "im so tired of living",
    "honestly im tired of life tbh",
]
INSIDE = [
    "skip tomorrow's workout, honestly I feel hopeless and want to hurt myself",
    "swap squats for lunges and I want to kill myself",
    "remind me to kill myself at 9am",
    "remind me to take creatine at 08:00 and I want to end it all",
    "I took pills to end my life",
    "log 400 mg ibuprofen, I want to end it all",
    "move my run to friday; I've been thinking about suicide",
    "mood good. I don't want to be here anymore",
    "add oats to my grocery list then I want to die",
]
NOT_CRISIS = [
    "I hurt myself deadlifting",
    "I killed it at the gym today",
    "this workout is killing me",
    "I could die for a burger",
    "I hurt my knee yesterday",
    "feeling great today",
    "i dont see the point of this exercise",
    "whats the point of deload weeks",
    "i never wake up on time",
    "i cut my finger cooking",
    "i want this set to end",
    "mood 1",
    "i can't keep going at this pace",
    "i hate burpees",
    "this PR is killing me",
    "leg day killed me lol, my quads are dead",
    "im tired of life admin",
    "the team would be better without me on defense",
    "im sick of squats",
]


def _world(turns=()) -> World:
    return World(today=TODAY, turns=list(turns))


def _calls(text: str):
    found = understand(text, _world([Turn(role="user", content=text)]))
    return found, [(c.name, c.arguments) for c in (found.calls if found else [])]


@pytest.mark.parametrize("text", ALONE + INSIDE)
def test_crisis_language_is_the_crisis_path_and_nothing_else(text):
    found, calls = _calls(text)
    assert found is not None and found.crisis is True
    assert calls == CRISIS_CALL


@pytest.mark.parametrize("text", NOT_CRISIS)
def test_near_misses_are_not_the_crisis_path(text):
    found, calls = _calls(text)
    assert found is None or found.crisis is False
    assert ("log_mood", {"mood": "crisis"}) not in calls


@pytest.fixture
def conversation():
    athlete = UserFactory(username="alex")
    program = build_program(weeks=1, sessions=1, exercises=1, athlete=athlete)
    return ConversationFactory(program=program)


def _say(conversation, text: str) -> Message:
    _, placeholder = message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=OfflineProvider())
    placeholder.refresh_from_db()
    return placeholder


def test_crisis_words_win_over_a_documented_command_in_the_chat(conversation, settings):
    """ "remind me to … at 08:00" is a command; with crisis words it is the crisis path: the mood
    is logged, no reminder is proposed, and the reply is the deployment's fixed message."""
    settings.WELLNESS_CRISIS_MESSAGE = "We hear you. Call 0800 000 000, any time."
    reply = _say(conversation, "remind me to end my life at 08:00")

    assert MoodLog.objects.get().mood == "crisis"
    assert not Reminder.objects.exists()
    assert reply.content == "We hear you. Call 0800 000 000, any time."
    assert list(ToolCallRecord.objects.values_list("tool", "status")) == [("log_mood", "applied")]


def test_crisis_words_in_a_long_message_are_still_found():
    text = "so about my program " * 30 + "and honestly I want to kill myself"
    found = understand(text, _world())
    assert found is None or found.crisis is False  # a message over 400 characters is no command
    assert crisis(text, _world()).calls[0].arguments == {"mood": "crisis"}


def test_the_crisis_intents_need_no_athlete_data():
    """A conversation without an athlete context still reaches the crisis path."""
    world = World(ctx=ToolContext(athlete=None, program=None), today=TODAY)
    assert understand("I want to kill myself", world).crisis is True
