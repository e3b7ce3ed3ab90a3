"""Several conversations per athlete (issue 8, §2): the list, opening one, New conversation, the
access rule (another athlete's conversation is a 404), and what a conversation about an earlier
program allows once the coach gives the athlete a new one (readable, read-only; an open batch
expires with the reason)."""

from __future__ import annotations

import time

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from chat import proposals, services
from chat.access import is_read_only
from chat.agent import run_turn
from chat.models import BatchDecision, Conversation, Message, PendingToolBatch
from programs.models import Exercise
from tests.chat.helpers import first_exercise, propose
from tests.chat.scripted_provider import ScriptedProvider
from tests.concurrency import at_once
from tests.factories import UserFactory, build_program

HX = {"HX-Request": "true"}
RENAME = (
    "call_rename",
    "modify_exercise",
    {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 1, "updates": {"name": "Goblet Squat"}},
)


@pytest.fixture
def program(db):
    return build_program(weeks=2, sessions=2, exercises=2, start_date=timezone.localdate())


@pytest.fixture
def athlete(program):
    return program.athlete


@pytest.fixture
def athlete_client(client, athlete):
    client.force_login(athlete)
    return client


def say(conversation: Conversation, text: str) -> Message:
    """The athlete sends ``text``; the scripted model answers "Noted."."""
    with transaction.atomic():
        _, placeholder = services.message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=ScriptedProvider().text("Noted."))
    return placeholder


def new_program_for(athlete):
    """The coach gives the athlete a new program (their newest is their current one)."""
    return build_program(weeks=1, sessions=1, exercises=1, athlete=athlete, name="Block 2")


# --- the list, opening one, New conversation ----------------------------------------------------


def test_the_title_is_the_first_message_cut_to_80_characters(athlete):
    conversation = services.conversation_for_athlete(athlete=athlete)
    say(conversation, "  How   should I warm up\nfor squats? " + "x" * 100)
    say(conversation, "And for bench?")
    conversation.refresh_from_db()
    assert conversation.title.startswith("How should I warm up for squats? xxx")
    assert len(conversation.title) == 80 and conversation.title.endswith("…")


def test_new_conversation_starts_another_about_the_current_program(athlete_client, athlete):
    first = services.conversation_for_athlete(athlete=athlete)
    say(first, "Hello")
    response = athlete_client.post(reverse("chat:conversation_new"))
    second = Conversation.objects.exclude(pk=first.pk).get(athlete=athlete)
    assert response.status_code == 302
    assert response["Location"] == reverse("chat:conversation", args=[second.pk])
    assert second.program_id == first.program_id
    # Opened again while it is still empty: the same one, no pile of empty conversations.
    again = athlete_client.post(reverse("chat:conversation_new"))
    assert again["Location"] == reverse("chat:conversation", args=[second.pk])
    assert Conversation.objects.filter(athlete=athlete).count() == 2
    # / opens the one last active.
    say(second, "A second topic")
    assert services.conversation_for_athlete(athlete=athlete) == second


def test_the_list_shows_every_conversation_with_its_title_date_and_program(
    athlete_client, athlete, program
):
    first = services.conversation_for_athlete(athlete=athlete)
    say(first, "About my squats")
    second = services.conversation_new(athlete=athlete)
    say(second, "About <b>bench</b>")
    response = athlete_client.get(reverse("chat:conversations"))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.index("About &lt;b&gt;bench&lt;/b&gt;") < html.index("About my squats")
    assert "<b>bench</b>" not in html
    assert reverse("chat:conversation", args=[first.pk]) in html
    assert program.name in html
    assert timezone.localdate().strftime("%b") in html
    assert "earlier program" not in html


def test_opening_a_conversation_shows_its_messages_only(athlete_client, athlete):
    first = services.conversation_for_athlete(athlete=athlete)
    say(first, "First topic")
    second = services.conversation_new(athlete=athlete)
    say(second, "Second topic")
    html = athlete_client.get(reverse("chat:conversation", args=[first.pk])).content.decode()
    assert ">First topic</div>" in html and ">Second topic</div>" not in html
    assert reverse("chat:message_send", args=[first.pk]) in html
    assert reverse("chat:message_send", args=[second.pk]) not in html
    html = athlete_client.get(reverse("chat:conversation", args=[second.pk])).content.decode()
    assert ">Second topic</div>" in html and ">First topic</div>" not in html


def test_another_athletes_conversation_is_a_404_everywhere(client, athlete):
    conversation = services.conversation_for_athlete(athlete=athlete)
    placeholder = say(conversation, "Mine")
    other = build_program(weeks=1, sessions=1, exercises=1).athlete
    client.force_login(other)
    assert client.get(reverse("chat:conversation", args=[conversation.pk])).status_code == 404
    url = reverse("chat:program") + f"?conversation={conversation.pk}"
    assert client.get(url, headers=HX).status_code == 404
    url = reverse("chat:program") + f"?week=1&program={conversation.program_id}"
    assert client.get(url, headers=HX).status_code == 404
    assert client.get(url).status_code == 404
    post = client.post(reverse("chat:message_send", args=[conversation.pk]), {"text": "hi"})
    assert post.status_code == 404
    assert (
        client.get(reverse("chat:message_poll", args=[placeholder.pk]), headers=HX).status_code
        == 404
    )
    listed = client.get(reverse("chat:conversations")).content.decode()
    assert reverse("chat:conversation", args=[conversation.pk]) not in listed
    assert Message.objects.filter(conversation=conversation, role="user").count() == 1


def test_a_program_given_to_another_athlete_takes_its_conversations_with_it(
    client, athlete, program
):
    conversation = services.conversation_for_athlete(athlete=athlete)
    say(conversation, "Mine")
    program.athlete = UserFactory()
    program.save()
    client.force_login(athlete)
    assert client.get(reverse("chat:conversation", args=[conversation.pk])).status_code == 404


# --- a new program: earlier conversations stay readable, read-only --------------------------------


def test_after_a_new_program_the_old_conversation_is_listed_and_readable(
    athlete_client, athlete, program
):
    old = services.conversation_for_athlete(athlete=athlete)
    say(old, "Question about block one")
    newer = new_program_for(athlete)

    current = services.conversation_for_athlete(athlete=athlete)
    assert current.program == newer and current != old
    assert is_read_only(Conversation.objects.get(pk=old.pk))
    assert not is_read_only(Conversation.objects.get(pk=current.pk))

    listed = athlete_client.get(reverse("chat:conversations")).content.decode()
    assert "Question about block one" in listed and "earlier program" in listed
    page = athlete_client.get(reverse("chat:conversation", args=[old.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Question about block one" in html and "Noted." in html
    assert "earlier program" in html and program.name in html
    assert 'name="text"' not in html  # no composer: a New conversation button instead
    assert reverse("chat:conversation_new") in html
    # The panel shows the program it was about, and its week links stay on it.
    assert f"?week=2&amp;program={old.program_id}" in html
    panel = athlete_client.get(
        reverse("chat:program") + f"?conversation={old.pk}&week=2", headers=HX
    )
    assert panel.status_code == 200 and program.name in panel.content.decode()


def test_posting_into_an_old_conversation_is_refused_with_the_reason(athlete_client, athlete):
    old = services.conversation_for_athlete(athlete=athlete)
    say(old, "Hi")
    new_program_for(athlete)
    with pytest.raises(ValidationError) as refused:
        services.message_send(conversation=old, text="Still there?")
    assert refused.value.code == services.READ_ONLY
    response = athlete_client.post(
        reverse("chat:message_send", args=[old.pk]), {"text": "Still there?"}, headers=HX
    )
    assert response.status_code == 422
    assert "earlier program" in response.content.decode()
    assert not Message.objects.filter(conversation=old, content="Still there?").exists()


def test_an_open_batch_in_an_old_conversation_expires_with_the_reason(
    athlete_client, athlete, program
):
    old = services.conversation_for_athlete(athlete=athlete)
    batch = propose(old, RENAME)
    new_program_for(athlete)

    response = athlete_client.post(
        reverse("chat:batch_apply", args=[batch.pk]), {"revision": batch.revision}, headers=HX
    )
    assert response.status_code == 200
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.EXPIRED
    assert first_exercise(program).name != "Goblet Squat"  # the earlier program is untouched
    decision = BatchDecision.objects.get(batch=batch, kind=BatchDecision.Kind.EXPIRED)
    assert "new program" in decision.note
    event = Message.objects.get(decision=decision)
    assert "new program" in event.content
    assert "new program" in response.content.decode()


def test_opening_an_old_conversation_expires_its_open_batch(athlete_client, athlete):
    old = services.conversation_for_athlete(athlete=athlete)
    batch = propose(old, RENAME)
    new_program_for(athlete)
    html = athlete_client.get(reverse("chat:conversation", args=[old.pk])).content.decode()
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.EXPIRED
    assert "Apply Changes" not in html
    assert "Your coach gave you a new program" in html


def test_undo_from_an_old_conversation_is_refused(athlete, program):
    old = services.conversation_for_athlete(athlete=athlete)
    batch = propose(old, RENAME)
    with transaction.atomic():
        proposals.apply(batch_id=batch.pk, user=athlete, revision=batch.revision)
    assert first_exercise(program).name == "Goblet Squat"
    new_program_for(athlete)
    decision = proposals.undo(batch_id=batch.pk, user=athlete)
    assert decision.outcome == "undo_refused" and "earlier program" in decision.message
    assert Exercise.objects.get(pk=first_exercise(program).pk).name == "Goblet Squat"


def test_the_model_cannot_propose_into_an_old_conversation(athlete):
    old = services.conversation_for_athlete(athlete=athlete)
    with transaction.atomic():
        _, placeholder = services.message_send(conversation=old, text="rename it")
    new_program_for(athlete)  # given while the worker was busy
    run_turn(placeholder=placeholder, provider=ScriptedProvider().calls(RENAME).text("Sorry."))
    assert not PendingToolBatch.objects.filter(conversation=old).exists()
    answer = Message.objects.get(conversation=old, role=Message.Role.TOOL)
    assert answer.is_error and "new program" in answer.content


def test_the_menu_marks_the_open_conversation_whatever_its_id(athlete_client, athlete, program):
    """The chat page's menu (htmx, ``?current=ID``) marks the open conversation; ids grow past any
    small bound."""
    services.conversation_for_athlete(athlete=athlete)
    newest = Conversation.objects.order_by("-pk").values_list("pk", flat=True).first()
    late = Conversation.objects.create(pk=newest + 5_000, athlete=athlete, program=program)
    url = reverse("chat:conversations") + f"?current={late.pk}"
    html = athlete_client.get(url, headers=HX).content.decode()
    opened = f'<li aria-current="page"><a href="{reverse("chat:conversation", args=[late.pk])}">'
    assert opened in html
    assert html.count('aria-current="page"') == 1


@pytest.mark.django_db(transaction=True)
def test_two_new_conversation_clicks_at_once_make_one_conversation(monkeypatch):
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    athlete = program.athlete
    say(services.conversation_for_athlete(athlete=athlete), "About my squats")
    create = Conversation.objects.create

    def slow_create(**fields):  # widen the window between reading the latest and creating
        time.sleep(0.3)
        return create(**fields)

    monkeypatch.setattr(Conversation.objects, "create", slow_create)
    made, errors = at_once(lambda: services.conversation_new(athlete=athlete).pk)
    assert errors == []
    assert len(made) == 2 and made[0] == made[1]  # both clicks open the same new conversation
    assert Conversation.objects.filter(athlete=athlete).count() == 2  # the first and the new one
