"""What the chat tells the rest of the site, as Django signals: it names no receiver, as the
journal's ``changed`` names none.

``messages_shown`` (sender ``Message``): the athlete ``athlete_id``'s page showed them
``messages`` of the conversation ``conversation_id`` (the chat page, or its feed of unprompted
messages). A receiver may keep what
the athlete has read (the coach's inbox counts the coach's messages not read yet). Sent only when
a shown message is from the athlete's coach (``Message.Role.COACH``), so a page without one costs
no query.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.dispatch import Signal

from .models import Message

messages_shown = Signal()


def shown(*, athlete_id: int, conversation_id: int, messages: Sequence[Message]) -> None:
    """Send ``messages_shown`` when ``messages`` hold one from the athlete's coach."""
    if any(m.role == Message.Role.COACH for m in messages):
        messages_shown.send(
            sender=Message,
            athlete_id=athlete_id,
            conversation_id=conversation_id,
            messages=list(messages),
        )
