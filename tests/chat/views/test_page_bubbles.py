"""What the chat page keeps between loads (``chat_tags.bubble_cache``: a plain bubble rendered once
per process) and what it reads (``chat.views.common.PAGE_FIELDS``): one athlete never sees
another's bubble, a change shows on the next load, and every kind of message is shown from the
one query that reads the history."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse, set_script_prefix

from chat import proposals, services
from chat.models import Message
from chat.templatetags import chat_tags
from tests.calls import RENAME
from tests.chat.helpers import propose
from tests.factories import UserFactory, build_program

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_bubbles():
    chat_tags.BUBBLES.clear()
    yield
    chat_tags.BUBBLES.clear()


def athlete_with_page(text: str) -> tuple[Client, object]:
    athlete = build_program(weeks=1, sessions=1, exercises=1).athlete
    conversation = services.conversation_for_athlete(athlete=athlete)
    Message.objects.create(conversation=conversation, role=Message.Role.USER, content=text)
    client = Client()
    client.force_login(athlete)
    return client, conversation


def exchange(conversation, question: str, answer: str, **reply) -> Message:
    asked = Message.objects.create(
        conversation=conversation, role=Message.Role.USER, content=question
    )
    return Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        content=answer,
        status=reply.pop("status", Message.Status.COMPLETE),
        reply_to=asked,
        **reply,
    )


def test_one_athletes_kept_bubbles_never_show_on_anothers_page():
    alice, alice_chat = athlete_with_page("alice's secret squat max")
    bob, bob_chat = athlete_with_page("bob's secret deadlift max")
    exchange(alice_chat, "alice asks", "alice's answer")
    exchange(bob_chat, "bob asks", "bob's answer")
    for _ in range(2):  # the second round is served from the kept bubbles
        alice_page = alice.get("/").content.decode()
        bob_page = bob.get("/").content.decode()
        assert "alice&#x27;s secret squat max" in alice_page and "alice" not in bob_page
        assert "bob&#x27;s secret deadlift max" in bob_page and "bob" not in alice_page


def test_the_second_load_renders_no_plain_bubble_again(monkeypatch):
    client, conversation = athlete_with_page("hello")
    exchange(conversation, "how heavy?", "Go **heavy**.")
    first = client.get("/").content.decode()
    rendered = []
    monkeypatch.setattr(
        chat_tags.BUBBLES, "put", lambda key, html: rendered.append(key), raising=True
    )
    second = client.get("/").content.decode()
    assert rendered == []
    assert "<strong>heavy</strong>" in second
    assert first.count('id="message-') == second.count('id="message-') == 3


def test_a_new_message_and_a_finished_reply_show_on_the_next_load():
    client, conversation = athlete_with_page("hello")
    waiting = exchange(conversation, "what now?", "", status=Message.Status.PENDING)
    page = client.get("/").content.decode()
    assert "bubble-thinking" in page
    Message.objects.filter(pk=waiting.pk).update(
        status=Message.Status.COMPLETE, content="Rest today."
    )
    Message.objects.create(conversation=conversation, role=Message.Role.USER, content="thanks!")
    page = client.get("/").content.decode()
    assert "Rest today." in page and "thanks!" in page
    assert "bubble-thinking" not in page


def test_a_retried_reply_shows_its_new_text_and_a_coachs_new_name_shows():
    client, conversation = athlete_with_page("hello")
    reply = exchange(conversation, "what now?", "First answer.")
    coach = UserFactory(first_name="Dana", last_name="Smith")
    Message.objects.create(
        conversation=conversation, role=Message.Role.COACH, content="Nice work", author=coach
    )
    page = client.get("/").content.decode()
    assert "First answer." in page and "Dana Smith" in page
    Message.objects.filter(pk=reply.pk).update(attempt=2, content="Second answer.")
    User.objects.filter(pk=coach.pk).update(first_name="Danielle")
    page = client.get("/").content.decode()
    assert "Second answer." in page and "First answer." not in page
    assert "Danielle Smith" in page and "Dana Smith" not in page


def test_an_applied_plan_offers_undo_and_after_undo_the_event_stays_without_it(program_owner):
    client, conversation = program_owner
    batch = propose(conversation, RENAME)
    proposals.apply(batch_id=batch.pk, user=conversation.athlete, revision=batch.revision)
    page = client.get("/").content.decode()
    assert ">Undo</button>" in page
    client.post(reverse("chat:batch_undo", args=[batch.pk]))
    page = client.get("/").content.decode()
    assert ">Undo</button>" not in page
    assert page.count('class="event-line"') >= 2  # the applied event, then the undone one


@pytest.fixture
def program_owner():
    athlete = build_program(weeks=1, sessions=2, exercises=2).athlete
    client = Client()
    client.force_login(athlete)
    return client, services.conversation_for_athlete(athlete=athlete)


def test_every_kind_of_message_is_shown_from_the_one_history_query(program_owner):
    """A field the page reads but doesn't load (``PAGE_FIELDS``) costs a query per message: the
    page with every kind of message twice makes as many queries as with each kind once."""
    client, conversation = program_owner
    coach = UserFactory(first_name="Dana")

    def every_kind() -> None:
        exchange(conversation, "q", "an answer")
        exchange(conversation, "q", "it broke", status=Message.Status.FAILED)
        exchange(conversation, "q", "", status=Message.Status.PENDING)
        Message.objects.create(
            conversation=conversation, role=Message.Role.COACH, content="hey", author=coach
        )
        Message.objects.create(
            conversation=conversation, role=Message.Role.EVENT, content="Reminder sent."
        )

    batch = propose(conversation, RENAME)  # an applied plan: its event offers Undo
    proposals.apply(batch_id=batch.pk, user=conversation.athlete, revision=batch.revision)
    counts = []
    for _ in range(2):
        every_kind()
        chat_tags.BUBBLES.clear()
        client.get("/")  # the panel, changed by the applied plan, is rendered again once
        chat_tags.BUBBLES.clear()
        with CaptureQueriesContext(connection) as queries:
            page = client.get("/").content.decode()
        counts.append(len(queries.captured_queries))
        assert ">Retry</button>" in page and ">Undo</button>" in page and "Dana" in page
        assert "bubble-thinking" in page and "an answer" in page
    assert counts[0] == counts[1]


@pytest.mark.parametrize(
    "name", ["chat:message_poll", "chat:message_stream", "chat:message_retry", "chat:batch_undo"]
)
@pytest.mark.parametrize("prefix", ["/", "/spotter/"])
def test_pk_url_is_the_reversed_url(name, prefix):
    set_script_prefix(prefix)
    try:
        html = Template("{% load chat_tags %}{% pk_url name pk %}").render(
            Context({"name": name, "pk": 4071})
        )
        assert html == reverse(name, args=[4071])
        assert html.startswith(prefix)
    finally:
        set_script_prefix("/")


@pytest.mark.parametrize("name", ["chat:home", "chat:conversations", "logout", "inbox:badge"])
@pytest.mark.parametrize("prefix", ["/", "/spotter/"])
def test_url_once_is_the_reversed_url(name, prefix):
    set_script_prefix(prefix)
    try:
        html = Template("{% load chat_tags %}{% url_once name %}").render(Context({"name": name}))
        assert html == reverse(name)
        assert html.startswith(prefix)
    finally:
        set_script_prefix("/")
