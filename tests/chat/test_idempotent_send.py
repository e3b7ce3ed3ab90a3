"""Sending a message is idempotent (issue 23: a killed web process loses nothing, a re-send
duplicates nothing). The page sends each message it composes with a key; a post whose key this
conversation already has answers as the first post would now (the message and its reply as they
stand), stores nothing, starts no second reply and isn't counted against the rate limit. Two posts
with one key at the same moment make one message (the database's constraint decides). A key sent
again with another text is refused; a post without a key is stored as before."""

from __future__ import annotations

import html as html_lib
import re
import threading
import uuid

import pytest
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from chat import recovery, services
from chat.models import Conversation, Message
from tests.concurrency import at_once
from tests.factories import build_program

HX = {"HX-Request": "true"}
KEY_INPUT = re.compile(r'<input type="hidden" name="key" value="([0-9a-f-]{36})" data-message-key>')


@pytest.fixture
def conversation(db):
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    return services.conversation_for_athlete(athlete=program.athlete)


@pytest.fixture
def athlete_client(client, conversation):
    client.force_login(conversation.athlete)
    return client


@pytest.fixture
def runs(monkeypatch):
    """The reply runs handed to the broker (``recovery.send_run``), by reply id."""
    sent: list[int] = []
    monkeypatch.setattr(recovery, "send_run", lambda placeholder: sent.append(placeholder.pk))
    return sent


def post(client, conversation, text, key=None, **headers):
    """Post as the page does; what the post queues on commit runs (the test's transaction never
    commits)."""
    data = {"text": text} if key is None else {"text": text, "key": str(key)}
    url = reverse("chat:message_send", args=[conversation.pk])
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(url, data, headers=headers)


def messages(conversation, role):
    return Message.objects.filter(conversation=conversation, role=role)


def test_the_same_key_twice_stores_one_message_starts_one_reply_and_answers_with_the_same_bubbles(
    athlete_client, conversation, runs
):
    key = uuid.uuid4()
    first = post(athlete_client, conversation, "When do I squat?", key, **HX)
    again = post(athlete_client, conversation, "When do I squat?", key, **HX)
    assert first.status_code == again.status_code == 200
    sent = messages(conversation, Message.Role.USER).get()
    reply = messages(conversation, Message.Role.ASSISTANT).get()
    assert sent.content == "When do I squat?" and sent.idempotency_key == key
    assert reply.reply_to == sent and reply.status == Message.Status.PENDING
    assert runs == [reply.pk]  # the re-send queued nothing
    for response in (first, again):
        html = response.content.decode()
        assert f'id="message-{sent.pk}"' in html
        assert f'id="message-{reply.pk}"' in html and "bubble-thinking" in html


def test_a_resend_after_the_reply_came_answers_with_the_reply_and_its_suggestions(
    athlete_client, conversation, runs
):
    key = uuid.uuid4()
    post(athlete_client, conversation, "When do I squat?", key, **HX)
    reply = messages(conversation, Message.Role.ASSISTANT).get()
    Message.objects.filter(pk=reply.pk).update(
        status=Message.Status.COMPLETE,
        content="You squat on Monday.",
        suggested_replies=["Thanks!"],
        finished_at=timezone.now(),
    )
    html = post(athlete_client, conversation, "When do I squat?", key, **HX).content.decode()
    assert f'id="message-{reply.pk}"' in html and "You squat on Monday." in html
    assert "bubble-thinking" not in html
    assert 'id="suggestions"' in html and "Thanks!" in html
    assert messages(conversation, Message.Role.USER).count() == 1
    assert messages(conversation, Message.Role.ASSISTANT).count() == 1
    assert len(runs) == 1


def test_after_a_send_the_composer_comes_back_with_a_fresh_key(athlete_client, conversation, runs):
    page = athlete_client.get(reverse("chat:home")).content.decode()
    (first_key,) = KEY_INPUT.findall(page)
    html = post(athlete_client, conversation, "Hello", first_key, **HX).content.decode()
    (next_key,) = KEY_INPUT.findall(html)
    assert uuid.UUID(next_key) and next_key != first_key
    assert messages(conversation, Message.Role.USER).get().idempotency_key == uuid.UUID(first_key)


def test_each_suggested_reply_carries_a_key_of_its_own(athlete_client, conversation, runs):
    Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        content="How did it go?",
        suggested_replies=["Great", "Hard"],
    )
    page = athlete_client.get(reverse("chat:home")).content.decode()
    suggestions = page[page.index('id="suggestions"') : page.index('id="composer"')]
    keys = KEY_INPUT.findall(suggestions)
    assert len(keys) == 2 and len(set(keys)) == 2


def test_a_resend_is_not_counted_against_the_rate_limit(
    athlete_client, conversation, runs, settings
):
    settings.CHAT_RATE_LIMIT_PER_MINUTE = 2
    key = uuid.uuid4()
    assert post(athlete_client, conversation, "one", **HX).status_code == 200
    assert post(athlete_client, conversation, "two", key, **HX).status_code == 200
    assert post(athlete_client, conversation, "two", key, **HX).status_code == 200
    assert post(athlete_client, conversation, "three", **HX).status_code == 429  # still a limit
    sent = messages(conversation, Message.Role.USER).values_list("content", flat=True)
    assert sorted(sent) == ["one", "two"]


def test_a_key_sent_again_with_another_text_is_refused_and_changes_nothing(
    athlete_client, conversation, runs
):
    key = uuid.uuid4()
    post(athlete_client, conversation, "When do I squat?", key, **HX)
    before = Conversation.objects.get(pk=conversation.pk).updated_at
    response = post(athlete_client, conversation, "When do I bench?", key, **HX)
    assert response.status_code == 422
    html = html_lib.unescape(response.content.decode())
    assert "already used for another message" in html
    assert "When do I bench?" in html  # the text stays in the box
    (fresh,) = KEY_INPUT.findall(html)
    assert fresh != str(key)  # sending it again from this box works
    assert list(messages(conversation, Message.Role.USER).values_list("content", flat=True)) == [
        "When do I squat?"
    ]
    assert messages(conversation, Message.Role.ASSISTANT).count() == 1 and len(runs) == 1
    assert Conversation.objects.get(pk=conversation.pk).updated_at == before


def test_a_key_compares_the_text_as_it_is_stored(athlete_client, conversation, runs):
    key = uuid.uuid4()
    post(athlete_client, conversation, "When do I squat?", key, **HX)
    assert post(athlete_client, conversation, "  When do I squat?\n", key, **HX).status_code == 200
    assert messages(conversation, Message.Role.USER).count() == 1


def test_without_a_key_each_post_is_a_message_as_before(athlete_client, conversation, runs):
    assert post(athlete_client, conversation, "Hello", **HX).status_code == 200
    assert post(athlete_client, conversation, "Hello", key="", **HX).status_code == 200
    assert messages(conversation, Message.Role.USER).count() == 2
    assert not messages(conversation, Message.Role.USER).filter(idempotency_key__isnull=False)
    assert len(runs) == 2


@pytest.mark.parametrize(
    # Written out, not made at collection: pytest-xdist's workers must collect the same ids.
    "key",
    [
        "not-a-key",
        "1" * 36,
        "0b7c4f3e-2d55-4c1a-9a57-3f1f6d0e8b210",
        "{0b7c4f3e-2d55-4c1a-9a57-3f1f6d0e8b21}",
    ],
)
def test_a_key_that_is_not_a_uuid_is_refused_and_nothing_is_stored(
    athlete_client, conversation, runs, key
):
    response = post(athlete_client, conversation, "Hello", key, **HX)
    assert response.status_code == 422
    assert "key isn't a UUID" in html_lib.unescape(response.content.decode())
    assert not Message.objects.filter(conversation=conversation).exists() and runs == []


def test_the_same_key_in_another_conversation_is_another_message(
    athlete_client, conversation, runs
):
    key = uuid.uuid4()
    post(athlete_client, conversation, "Hello", key, **HX)
    other = services.conversation_new(athlete=conversation.athlete)
    assert other.pk != conversation.pk
    assert post(athlete_client, other, "Hello", key, **HX).status_code == 200
    assert Message.objects.filter(role=Message.Role.USER, idempotency_key=key).count() == 2


def test_another_athletes_conversation_is_404_and_its_keys_are_not_read(client, conversation, runs):
    key = uuid.uuid4()
    services.message_send(conversation=conversation, text="Mine", key=key)
    stranger = build_program(weeks=1, sessions=1, exercises=1).athlete
    client.force_login(stranger)
    for text in ("Mine", "Something else"):
        assert post(client, conversation, text, key, **HX).status_code == 404
    assert messages(conversation, Message.Role.USER).count() == 1


def test_without_htmx_a_resend_goes_back_to_the_chat_and_stores_nothing(
    athlete_client, conversation, runs
):
    key = uuid.uuid4()
    first = post(athlete_client, conversation, "When do I squat?", key)
    again = post(athlete_client, conversation, "When do I squat?", key)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert messages(conversation, Message.Role.USER).count() == 1


def test_a_post_that_passed_the_look_up_is_stopped_by_the_constraint_and_answers_with_the_first(
    conversation, runs, monkeypatch
):
    """The look-up before the transaction misses a post that commits just after it: the unique
    constraint is what makes the second post a re-send."""
    key = uuid.uuid4()
    first, first_reply = services.message_send(conversation=conversation, text="Hi", key=key)
    look_up = services._sent_with
    calls = []

    def too_early(conversation, key):  # the first post hadn't committed when this one looked
        calls.append(key)
        return None if len(calls) == 1 else look_up(conversation, key)

    monkeypatch.setattr(services, "_sent_with", too_early)
    again, again_reply = services.message_send(conversation=conversation, text="Hi", key=key)
    assert len(calls) == 2  # it did reach the insert, and read the first after the conflict
    assert (again.pk, again_reply.pk) == (first.pk, first_reply.pk)
    assert messages(conversation, Message.Role.USER).count() == 1
    assert messages(conversation, Message.Role.ASSISTANT).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_posts_with_one_key_at_once_make_one_message_and_one_reply(monkeypatch):
    """Two web processes take the same re-send at the same moment: both pass the look-up, the
    database's constraint lets one insert win and the other answers with it."""
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    conversation = services.conversation_for_athlete(athlete=program.athlete)
    runs: list[int] = []
    monkeypatch.setattr(recovery, "send_run", lambda placeholder: runs.append(placeholder.pk))
    look_up = services._sent_with
    local = threading.local()

    def both_too_early(conversation, key):  # each thread's first look-up sees nothing yet
        if not getattr(local, "looked", False):
            local.looked = True
            return None
        return look_up(conversation, key)

    monkeypatch.setattr(services, "_sent_with", both_too_early)
    key = uuid.uuid4()

    def send() -> tuple[int, int]:
        message, reply = services.message_send(conversation=conversation, text="Hi", key=key)
        return message.pk, reply.pk

    answers, errors = at_once(send)
    assert errors == []
    assert len(answers) == 2 and answers[0] == answers[1]
    assert Message.objects.filter(conversation=conversation, role=Message.Role.USER).count() == 1
    reply = Message.objects.get(conversation=conversation, role=Message.Role.ASSISTANT)
    assert runs == [reply.pk]  # one reply run, started by the winner
