import pytest
from django.db import IntegrityError, transaction

from chat.models import Message, PendingToolBatch
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db


def make_batch(conversation, status="pending", **fields):
    return PendingToolBatch.objects.create(
        conversation=conversation, status=status, program_version=1, **fields
    )


@pytest.mark.parametrize("second", ["pending", "failed", "stale"])
def test_a_conversation_has_at_most_one_open_batch(second):
    conversation = ConversationFactory()
    make_batch(conversation, status="pending")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_batch(conversation, status=second)


def test_decided_batches_do_not_count_as_open():
    conversation = ConversationFactory()
    make_batch(conversation, status="applied")
    make_batch(conversation, status="cancelled")
    open_one = make_batch(conversation, status="pending")
    assert open_one.is_open
    assert [b.is_open for b in conversation.batches.all()] == [False, False, True]


def test_two_conversations_each_have_their_own_open_batch():
    make_batch(ConversationFactory())
    make_batch(ConversationFactory())
    assert PendingToolBatch.objects.filter(status="pending").count() == 2


def test_revision_is_at_least_one():
    with pytest.raises(IntegrityError), transaction.atomic():
        make_batch(ConversationFactory(), revision=0)


def test_status_must_be_known():
    with pytest.raises(IntegrityError), transaction.atomic():
        make_batch(ConversationFactory(), status="maybe")


@pytest.mark.parametrize(
    ("role", "status", "content", "visible"),
    [
        ("user", "complete", "hi", True),
        ("event", "complete", "You applied 1 change.", True),
        ("assistant", "complete", "Hello", True),
        ("assistant", "failed", "The coach is busy right now.", True),
        ("assistant", "complete", "", False),
        ("assistant", "pending", "", False),
        ("assistant", "running", "", False),
        ("tool", "complete", "Awaiting", False),
    ],
)
def test_which_messages_are_visible(role, status, content, visible):
    message = Message.objects.create(
        conversation=ConversationFactory(), role=role, status=status, content=content
    )
    assert message.is_visible is visible


def test_messages_are_in_the_order_they_were_written():
    conversation = ConversationFactory()
    first = Message.objects.create(conversation=conversation, role="user", content="a")
    second = Message.objects.create(conversation=conversation, role="assistant", content="b")
    assert list(conversation.messages.all()) == [first, second]


def test_every_chat_object_names_its_program():
    conversation = ConversationFactory()
    message = Message.objects.create(conversation=conversation, role="user", content="a")
    batch = make_batch(conversation)
    assert conversation.get_owner_object() == conversation.program
    assert message.get_owner_object() == conversation.program
    assert batch.get_owner_object() == conversation.program


def test_the_admin_is_read_only_and_a_coach_sees_only_their_athletes(client):
    from tests.factories import CoachFactory, UserFactory, build_program

    coach = CoachFactory()
    mine = ConversationFactory(program=build_program(weeks=1, sessions=1, exercises=1, coach=coach))
    theirs = ConversationFactory()
    client.force_login(coach)
    listing = client.get("/admin/chat/conversation/")
    assert listing.status_code == 200
    assert f"/admin/chat/conversation/{mine.pk}/change/" in listing.content.decode()
    assert f"/admin/chat/conversation/{theirs.pk}/change/" not in listing.content.decode()
    assert client.get(f"/admin/chat/conversation/{theirs.pk}/change/").status_code in (
        302,
        403,
        404,
    )
    assert client.get("/admin/chat/conversation/add/").status_code == 403
    client.force_login(UserFactory())
    assert client.get("/admin/chat/conversation/").status_code == 302
