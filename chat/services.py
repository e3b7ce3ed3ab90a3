"""The chat's services: finding the athlete's conversation and sending a message.

``message_send`` saves the athlete's message, then a "coach is thinking" placeholder, and queues
the agent on commit. It never applies anything, whatever the text says: only ``chat.proposals``
decides batches.

**Rate limit.** One athlete sends at most ``CHAT_RATE_LIMIT_PER_MINUTE`` messages in any 60
seconds (10 by default; 0 turns it off). The count is of their own messages in the database, not a
cache: the messages are already there (one indexed query), every web process and server sees the
same count without a shared cache to configure (Django's default cache is per process), and it
can't drift from what was really sent. The conversation's row is updated first in the same
transaction, which locks it, so two posts at the same moment are counted one after the other.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Subquery
from django.utils import timezone

from programs.models import Program

from .access import athlete_conversations
from .models import Conversation, Message
from .proposals.core import queue_reply

MAX_MESSAGE_CHARS = 4000
RATE_WINDOW = datetime.timedelta(minutes=1)
RATE_LIMITED = "rate_limited"


def conversation_for_athlete(*, athlete) -> Conversation | None:
    """The athlete's conversation about their newest program (created on first use); None when
    they have no program."""
    if athlete is None or not getattr(athlete, "is_authenticated", False):
        return None
    newest = Program.objects.filter(athlete=athlete).order_by("-created_at", "-pk")
    # One query on every page: the conversation about the newest program, with that program.
    conversation = (
        athlete_conversations(athlete)
        .filter(program=Subquery(newest.values("pk")[:1]))
        .select_related("program")
        .order_by("-pk")
        .first()
    )
    if conversation is not None:
        return conversation
    program = newest.first()
    if program is None:
        return None
    conversation = Conversation.objects.create(athlete=athlete, program=program)
    conversation.program = program  # already loaded: the page needs it
    return conversation


def message_send(*, conversation: Conversation, text: str) -> tuple[Message, Message]:
    """Save the athlete's message and a placeholder for the reply; queue the agent on commit.

    Raises ``ValidationError`` (nothing saved) unless the stripped text has 1 to 4000 characters,
    or with ``code="rate_limited"`` and ``params["retry_after"]`` (seconds) when the athlete has
    sent ``CHAT_RATE_LIMIT_PER_MINUTE`` messages in the last minute."""
    text = (text or "").replace("\x00", "").strip()  # PostgreSQL can't store NUL characters
    if not text:
        raise ValidationError("Type a message first.", code="empty")
    if len(text) > MAX_MESSAGE_CHARS:
        raise ValidationError(
            f"Messages can be at most {MAX_MESSAGE_CHARS} characters (this one has {len(text)}).",
            code="too_long",
        )
    with transaction.atomic():
        # First, so the row stays locked until commit: one athlete's posts are counted in turn.
        now = timezone.now()
        Conversation.objects.filter(pk=conversation.pk).update(updated_at=now)
        check_rate(athlete_id=conversation.athlete_id, now=now)
        user_message = Message.objects.create(
            conversation=conversation,
            role=Message.Role.USER,
            content=text,
            status=Message.Status.COMPLETE,
        )
        placeholder = queue_reply(conversation=conversation, reply_to=user_message)
    return user_message, placeholder


def check_rate(*, athlete_id: int, now: datetime.datetime) -> None:
    """Raise ``ValidationError(code="rate_limited")`` when the athlete has sent
    ``CHAT_RATE_LIMIT_PER_MINUTE`` messages in the minute before ``now``."""
    limit = int(settings.CHAT_RATE_LIMIT_PER_MINUTE)
    if limit <= 0:
        return
    recent = list(
        Message.objects.filter(
            conversation__athlete_id=athlete_id,
            role=Message.Role.USER,
            created_at__gt=now - RATE_WINDOW,
        )
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
