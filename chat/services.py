"""The chat's services: the athlete's conversations (the one to open, the list, a new one),
sending a message, and the coach's post.

**Conversations.** ``/`` opens the athlete's most recently active conversation about their current
program (created on first use). **New conversation** starts another about the current program,
unless the latest one has no message yet (that one is opened instead: empty conversations don't
pile up). A conversation's title is its first message (the athlete's or their coach's), cut to 80
characters. Conversations about an earlier program stay in the list, readable and read-only
(``chat.access``): posting there is refused with ``code="read_only"``.

**The coach's post.** The athlete's coach writes into a conversation from the admin
(``coach_post``). It is a ``coach`` message: the athlete sees it marked as from their coach, and the
model reads it on its next turn as the coach's words, quoted (``chat.notes.coach_note``). It does
not start a model turn: the coach is talking to the athlete, and the model answers the athlete's
next message knowing what the coach said.

``message_send`` saves the athlete's message, then a "coach is thinking" placeholder, and queues
the agent on commit. It never applies anything, whatever the text says: only ``chat.proposals``
decides batches.

**Rate limit.** One athlete sends at most ``CHAT_RATE_LIMIT_PER_MINUTE`` messages in any 60
seconds (10 by default; 0 turns it off). The count is of their own messages in the database, not a
cache: the messages are already there (one indexed query), every web process and server sees the
same count without a shared cache to configure (Django's default cache is per process), and it
can't drift from what was really sent. The conversation's row is updated first in the same
transaction, which locks it, so two posts at the same moment are counted one after the other.

**Idempotent sending.** The page sends each message it composes with a key (a UUID it makes, kept
while it sends the same text again). A post whose answer was lost (a web process killed after it
stored the message, a network that dropped) can be sent again: when the conversation already has
a message sent with the key, the post gets that message and its reply as they are now; nothing is
stored, no second reply is started and the re-send isn't counted against the rate limit. The key
is unique per conversation in the database (``message_one_per_idempotency_key``), so two posts with
one key at the same moment, on two web processes, still make one message: the second fails on the
constraint, its transaction is rolled back and it answers with the first. A key sent again with
another text is refused (``code="key_reused"``) and changes nothing. A post without a key is stored
as before. A conversation is only reached through its owner's list, so no one can probe another
athlete's keys.
"""

from __future__ import annotations

import datetime
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, QuerySet, Subquery, Value, When
from django.utils import timezone

from coach.plan import plan

from .access import athlete_conversations, current_program_subquery, may_post_as_coach
from .models import Conversation, Message
from .proposals.core import queue_reply

MAX_MESSAGE_CHARS = 4000
TITLE_CHARS = 80
RATE_WINDOW = datetime.timedelta(minutes=1)
RATE_LIMITED = "rate_limited"
READ_ONLY = "read_only"
KEY_REUSED = "key_reused"
FEED_LIMIT = 20  # unprompted messages a feed answer carries; the next asks for the rest


def read_only_reason(conversation: Conversation) -> str:
    return (
        f"This conversation is about an earlier program ({conversation.program.name}); it can be "
        "read but not continued. Start a new conversation about your current program."
    )


def current_program(athlete) -> Any | None:
    """The athlete's newest program (``chat.access.current_program_id``), from the plan's family
    (``coach.plan``)."""
    return plan().current(athlete)


def conversation_for_athlete(*, athlete) -> Conversation | None:
    """The athlete's most recently active conversation about their current (newest) program,
    created on first use; None when they have no program."""
    if athlete is None or not getattr(athlete, "is_authenticated", False):
        return None
    newest = plan().newest(athlete)
    # One query on most pages: the latest conversation about the newest program, with it.
    conversation = (
        athlete_conversations(athlete)
        .filter(program=Subquery(newest.values("pk")[:1]))
        .select_related("program")
        .order_by("-updated_at", "-pk")
        .first()
    )
    if conversation is None:
        program = newest.first()
        if program is None:
            return None
        conversation = Conversation.objects.create(athlete=athlete, program=program)
        conversation.program = program  # already loaded: the page needs it
    conversation._spotter_read_only = False  # about the current program by construction
    return conversation


def conversation_list(*, athlete) -> QuerySet[Conversation]:
    """Every conversation the athlete may read, most recently active first, with its program."""
    return athlete_conversations(athlete).select_related("program").order_by("-updated_at", "-pk")


def conversation_new(*, athlete) -> Conversation | None:
    """A new conversation about the athlete's current program (None without one). The latest
    conversation about it is reused while it has no message.

    Two clicks at once make one conversation: the program's row is locked first, so the second
    click reads the conversations only after the first has committed its new one (locking the
    latest conversation instead let the second click, queued on that row, still see it as the
    latest and make another)."""
    program = current_program(athlete)
    if program is None:
        return None
    with transaction.atomic():
        plan().lock(program)
        latest = athlete_conversations(athlete).filter(program=program).order_by("-pk").first()
        if latest is not None and not latest.messages.exists():
            return latest
        return Conversation.objects.create(athlete=athlete, program=program)


def title_from(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1] + "…"


def _clean(text: str) -> str:
    """The stripped text, or ``ValidationError`` unless it has 1 to 4000 characters."""
    text = (text or "").replace("\x00", "").strip()  # PostgreSQL can't store NUL characters
    if not text:
        raise ValidationError("Type a message first.", code="empty")
    if len(text) > MAX_MESSAGE_CHARS:
        raise ValidationError(
            f"Messages can be at most {MAX_MESSAGE_CHARS} characters (this one has {len(text)}).",
            code="too_long",
        )
    return text


def _touch(conversation: Conversation, *, now: datetime.datetime, text: str) -> bool:
    """Mark the conversation active (locking its row until commit) and give it its title if it
    has none yet, in one query; False (nothing written) when it is read-only."""
    updated = Conversation.objects.filter(
        pk=conversation.pk, program_id=current_program_subquery()
    ).update(
        updated_at=now,
        title=Case(When(title="", then=Value(title_from(text))), default=F("title")),
    )
    return bool(updated)


def message_send(
    *, conversation: Conversation, text: str, key: uuid.UUID | None = None
) -> tuple[Message, Message | None]:
    """Save the athlete's message and a placeholder for the reply; queue the agent on commit.

    Raises ``ValidationError`` (nothing saved) unless the stripped text has 1 to 4000 characters,
    with ``code="read_only"`` in a conversation about an earlier program, or with
    ``code="rate_limited"`` and ``params["retry_after"]`` (seconds) when the athlete has sent
    ``CHAT_RATE_LIMIT_PER_MINUTE`` messages in the last minute.

    ``key`` (see **Idempotent sending**): when the conversation already has the athlete's message
    sent with it, that message and its reply as they are now are returned, nothing is written and
    nothing is counted; with another text, ``ValidationError(code="key_reused")``. The reply is
    None only for a keyed message whose reply is gone (replies are never deleted)."""
    text = _clean(text)
    if key is not None:
        earlier = _sent_with(conversation, key)
        if earlier is not None:
            return _again(earlier, text)
    try:
        with transaction.atomic():
            # First, so the row stays locked until commit: one athlete's posts are counted in turn.
            now = timezone.now()
            if not _touch(conversation, now=now, text=text):
                raise ValidationError(read_only_reason(conversation), code=READ_ONLY)
            # Stored before the count, so a same-key post that got here second fails on the
            # constraint (a re-send) instead of being counted against the limit.
            user_message = Message.objects.create(
                conversation=conversation,
                role=Message.Role.USER,
                content=text,
                status=Message.Status.COMPLETE,
                idempotency_key=key,
            )
            check_rate(athlete_id=conversation.athlete_id, now=now, excluding=user_message.pk)
            placeholder = queue_reply(conversation=conversation, reply_to=user_message)
    except IntegrityError:
        # Two posts with one key at once (two web processes): the one that committed first won;
        # this one's transaction is rolled back whole, and it answers with the winner.
        earlier = _sent_with(conversation, key) if key is not None else None
        if earlier is None:
            raise
        return _again(earlier, text)
    return user_message, placeholder


def _sent_with(conversation: Conversation, key: uuid.UUID) -> Message | None:
    return Message.objects.filter(
        conversation=conversation, role=Message.Role.USER, idempotency_key=key
    ).first()


def _again(earlier: Message, text: str) -> tuple[Message, Message | None]:
    """The answer to a post whose key ``earlier`` was sent with: it and its latest reply."""
    if earlier.content != text:
        raise ValidationError(
            "This message's key was already used for another message in this conversation, so "
            "it wasn't sent. Send it again: the page gives it a new key.",
            code=KEY_REUSED,
        )
    reply = (
        Message.objects.filter(reply_to=earlier, role=Message.Role.ASSISTANT)
        .order_by("-pk")
        .first()
    )
    return earlier, reply


def coach_post(*, conversation: Conversation, coach, text: str) -> Message:
    """Save the coach's message into the athlete's conversation (no model turn is started).

    Raises ``PermissionDenied`` unless ``coach`` is the coach of the conversation's program and the
    conversation isn't read-only; ``ValidationError`` as ``message_send`` for the text."""
    text = _clean(text)
    with transaction.atomic():
        touched = _touch(conversation, now=timezone.now(), text=text)
        conversation = Conversation.objects.select_related("program").get(pk=conversation.pk)
        if not touched or not may_post_as_coach(coach, conversation):
            raise PermissionDenied(
                "Only the athlete's coach can post into this conversation, and only while it is "
                "about the athlete's current program."
            )
        return Message.objects.create(
            conversation=conversation,
            role=Message.Role.COACH,
            author=coach,
            content=text,
            status=Message.Status.COMPLETE,
        )


def check_rate(*, athlete_id: int, now: datetime.datetime, excluding: int | None = None) -> None:
    """Raise ``ValidationError(code="rate_limited")`` when the athlete has sent
    ``CHAT_RATE_LIMIT_PER_MINUTE`` messages in the minute before ``now`` (``excluding``: the
    message being sent, already stored)."""
    limit = int(settings.CHAT_RATE_LIMIT_PER_MINUTE)
    if limit <= 0:
        return
    recent = list(
        Message.objects.filter(
            conversation__athlete_id=athlete_id,
            role=Message.Role.USER,
            created_at__gt=now - RATE_WINDOW,
        )
        .exclude(pk=excluding)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return
    retry_after = max(1, int((recent[-1] + RATE_WINDOW - now).total_seconds() + 0.999))
    raise ValidationError(
        f"You can send at most {limit} message{'s' if limit != 1 else ''} a minute. Your message is still here: send it "
        f"again in {retry_after} second{'s' if retry_after != 1 else ''}.",
        code=RATE_LIMITED,
        params={"retry_after": retry_after},
    )


def unprompted_messages(*, athlete, conversation_id: int, after: int) -> list[Message]:
    """The messages of the athlete's conversation newer than ``after`` that no click or message
    of theirs asked for, so no open page fetches them by itself: a coach's post, and a coach
    message with no message it answers (a delivered reminder). Replies, placeholders, events and
    follow-ups reach the page through the flow that made them. Someone else's conversation gives
    nothing.

    Most asks find nothing, and nothing needs no access check (the answer is the same for anyone):
    one small query without the check's subquery says so (a third of the CPU of the full one,
    which builds and compiles the ownership join); the full query runs only when there is
    something to give."""
    unprompted = Q(role=Message.Role.COACH) | Q(
        role=Message.Role.ASSISTANT, reply_to__isnull=True, status=Message.Status.COMPLETE
    )
    newer = Message.objects.filter(unprompted, conversation_id=conversation_id, pk__gt=after)
    if not newer.exists():
        return []
    return list(
        Message.objects.filter(
            unprompted,
            conversation__in=athlete_conversations(athlete),
            conversation_id=conversation_id,
            pk__gt=after,
        )
        .select_related("author")
        .order_by("pk")[:FEED_LIMIT]
    )
