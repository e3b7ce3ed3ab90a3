"""What the inbox does when the chat does something (connected at import, from ``InboxConfig``):

* the athlete's page showed their coach's messages → they are read (``counts.mark_read``);
* the coach wrote to the athlete, or approved or declined their changes (from the inbox, the
  batch's admin page or the timeline: every path writes the same rows) → the athlete gets an
  e-mail once the transaction commits (``notify``, unless they switched it off).

Receivers only hand work on: the rules are in ``counts`` and ``notify``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from chat.models import BatchDecision, Message
from chat.signals import messages_shown

from . import counts, tasks

TOLD = (BatchDecision.Kind.APPROVED, BatchDecision.Kind.DECLINED)


@receiver(messages_shown, dispatch_uid="inbox.read_on_show")
def read_on_show(
    sender: Any, *, athlete_id: int, conversation_id: int, messages: list, **kwargs: Any
) -> None:
    counts.mark_read(
        user_id=athlete_id, conversation_id=conversation_id, up_to=max(m.pk for m in messages)
    )


@receiver(post_save, sender=Message, dispatch_uid="inbox.coach_wrote")
def coach_wrote(sender: Any, instance: Message, created: bool, **kwargs: Any) -> None:
    if created and instance.role == Message.Role.COACH and instance.author_id is not None:
        pk = instance.pk
        transaction.on_commit(lambda: tasks.queue(tasks.tell_athlete, message_id=pk))


@receiver(post_save, sender=BatchDecision, dispatch_uid="inbox.coach_decided")
def coach_decided(sender: Any, instance: BatchDecision, created: bool, **kwargs: Any) -> None:
    if created and instance.kind in TOLD and instance.actor_id is not None:
        pk = instance.pk
        transaction.on_commit(lambda: tasks.queue(tasks.tell_athlete, decision_id=pk))
