"""The open chat's feed of unprompted messages (``chat:message_feed``): what no flow of the page
fetches by itself (a coach's post from the admin, a delivered reminder) arrives while the page is
open; replies, placeholders and events never come through it (their own flows show them), and
another athlete's conversation gives nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from chat import services
from chat.models import Message
from tests.factories import build_program

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def feed(client, conversation, after: int):
    url = reverse("chat:message_feed", args=[conversation.pk]) + f"?after={after}"
    return client.get(url, headers=HX)


def reminder(conversation, text: str = "Reminder: creatine (08:00)") -> Message:
    """A delivered reminder as ``chat.reminders.deliver_due`` writes it: a coach message that
    answers nothing."""
    return Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        status=Message.Status.COMPLETE,
        content=text,
    )


def test_the_page_tells_its_script_where_the_feed_starts(client, coach_user, coached_conversation):
    athlete = coached_conversation.athlete
    seen = reminder(coached_conversation, "Seen already")
    client.force_login(athlete)
    html = client.get(reverse("chat:conversation", args=[coached_conversation.pk])).content.decode()
    assert f'data-feed="{reverse("chat:message_feed", args=[coached_conversation.pk])}"' in html
    assert f'data-feed-after="{seen.pk}"' in html
    assert 'data-feed-every="20.0"' in html


def test_a_coach_post_and_a_reminder_come_through_the_feed_once(
    client, coach_user, coached_conversation
):
    conversation = coached_conversation
    client.force_login(conversation.athlete)
    assert feed(client, conversation, 0).status_code == 204  # nothing yet

    post = services.coach_post(
        conversation=conversation, coach=coach_user, text="Deload <b>now</b>"
    )
    delivered = reminder(conversation)
    response = feed(client, conversation, 0)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="message-{post.pk}"' in html and "Your coach" in html
    assert "Deload &lt;b&gt;now&lt;/b&gt;" in html  # escaped
    assert f'id="message-{delivered.pk}"' in html and "Reminder: creatine" in html
    assert response["X-Feed-After"] == str(delivered.pk)
    # Asked again after what it gave, the feed is empty.
    assert feed(client, conversation, delivered.pk).status_code == 204


def test_the_feed_asks_after_any_message_id_however_large(client, coached_conversation):
    """Ids grow past any small bound: asked after a message's id, the feed gives nothing older."""
    conversation = coached_conversation
    newest = Message.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    late = Message.objects.create(
        pk=newest + 5_000,
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        status=Message.Status.COMPLETE,
        content="Reminder: stretch (21:00)",
    )
    client.force_login(conversation.athlete)
    assert feed(client, conversation, late.pk - 1)["X-Feed-After"] == str(late.pk)
    assert feed(client, conversation, late.pk).status_code == 204
    url = reverse("chat:message_feed", args=[conversation.pk])
    for bad in ("-1", "abc", "9" * 19):
        assert client.get(f"{url}?after={bad}", headers=HX).status_code == 400


def test_replies_placeholders_and_the_athletes_messages_never_come_through_it(
    client, coached_conversation
):
    conversation = coached_conversation
    client.force_login(conversation.athlete)
    user_message, placeholder = services.message_send(conversation=conversation, text="hello")
    placeholder.refresh_from_db()
    Message.objects.filter(pk=placeholder.pk).update(
        status=Message.Status.COMPLETE, content="Hi there"
    )
    assert placeholder.reply_to_id == user_message.pk  # a reply: its own poll shows it
    assert feed(client, conversation, 0).status_code == 204


def test_another_athletes_conversation_gives_nothing(client, coach_user, coached_conversation):
    services.coach_post(conversation=coached_conversation, coach=coach_user, text="Private")
    reminder(coached_conversation)
    other = build_program(weeks=1, sessions=1, exercises=1).athlete
    client.force_login(other)
    response = feed(client, coached_conversation, 0)
    assert response.status_code == 204 and b"Private" not in response.content


def test_the_feed_needs_a_login(client, coached_conversation):
    reminder(coached_conversation)
    response = feed(client, coached_conversation, 0)
    # htmx's way: the page is sent to the login (HX-Redirect), and nothing of the conversation
    assert response["HX-Redirect"].startswith(reverse("login"))
    assert b"Reminder" not in response.content and "X-Feed-After" not in response
