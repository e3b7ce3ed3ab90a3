"""The chat's services: finding the athlete's conversation and sending a message.

``message_send`` saves the athlete's message, then a "coach is thinking" placeholder, and queues
the agent on commit. It never applies anything, whatever the text says: only ``chat.proposals``
decides batches.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from programs.models import Program

from .access import athlete_conversations
from .models import Conversation, Message
from .proposals.core import queue_reply

MAX_MESSAGE_CHARS = 4000


def conversation_for_athlete(*, athlete) -> Conversation | None:
    """The athlete's conversation about their newest program (created on first use); None when
    they have no program."""
    if athlete is None or not getattr(athlete, "is_authenticated", False):
        return None
    program = Program.objects.filter(athlete=athlete).order_by("-created_at", "-pk").first()
    if program is None:
        return None
    conversation = athlete_conversations(athlete).filter(program=program).order_by("-pk").first()
    if conversation is None:
        conversation = Conversation.objects.create(athlete=athlete, program=program)
    return conversation


def message_send(*, conversation: Conversation, text: str) -> tuple[Message, Message]:
    """Save the athlete's message and a placeholder for the reply; queue the agent on commit.

    Raises ``ValidationError`` (nothing saved) unless the stripped text has 1 to 4000 characters."""
    text = (text or "").replace("\x00", "").strip()  # PostgreSQL can't store NUL characters
    if not text:
        raise ValidationError("Type a message first.", code="empty")
    if len(text) > MAX_MESSAGE_CHARS:
        raise ValidationError(
            f"Messages can be at most {MAX_MESSAGE_CHARS} characters (this one has {len(text)}).",
            code="too_long",
        )
    with transaction.atomic():
        user_message = Message.objects.create(
            conversation=conversation,
            role=Message.Role.USER,
            content=text,
            status=Message.Status.COMPLETE,
        )
        placeholder = queue_reply(conversation=conversation, reply_to=user_message)
        Conversation.objects.filter(pk=conversation.pk).update(updated_at=timezone.now())
    return user_message, placeholder
