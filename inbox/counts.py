"""Unread counts, both ways, each in one query (the roster and the badges read them).

* **The athlete's unread**: their coach's messages (``chat.Message`` with ``role="coach"``) in
  their own conversations, newer than their ``ReadMark`` there. The chat page marks them read when
  it shows one (``chat.signals.messages_shown``, received in ``inbox.receivers``).
* **The coach's unread replies**: an athlete's messages in a conversation the coach has written
  into, posted after the coach's first message there, newer than the coach's ``ReadMark``. Opening
  the athlete's thread in the inbox (``inbox:compose``) marks them read. Only the athletes the coach
  reviews for (``access.policy``'s ``REVIEW``: the coach of their current conversation's program)
  are counted: another coach's athletes never appear.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from access import policy
from chat.access import Subject, athlete_conversations
from chat.models import Conversation, Message

from .models import ReadMark


def coach_conversations(coach: Any, *, action: str = policy.REVIEW) -> QuerySet[Conversation]:
    """The conversations about programs ``coach`` may ``action`` (REVIEW: the ones they coach),
    whose program still belongs to the conversation's athlete."""
    rule = policy.scope(coach, Subject, action=action)
    programs = Subject.objects.all() if rule is None else Subject.objects.filter(rule)
    return Conversation.objects.filter(
        program__in=programs.values("pk"), program__athlete_id=F("athlete_id")
    )


def _mark(user: Any) -> Subquery:
    marks = ReadMark.objects.filter(user=user, conversation=OuterRef("conversation"))
    return Coalesce(Subquery(marks.values("last_read_id")[:1]), Value(0))


def replies(coach: Any, *, action: str = policy.REVIEW) -> QuerySet[Message]:
    """Every athlete's message that answers the coach: in a conversation the coach wrote into,
    after their first message there. Annotated with ``mark`` (the coach's read mark)."""
    first = Message.objects.filter(
        conversation=OuterRef("conversation"), role=Message.Role.COACH
    ).order_by("pk")
    return (
        Message.objects.filter(
            role=Message.Role.USER, conversation__in=coach_conversations(coach, action=action)
        )
        .annotate(first_coach=Subquery(first.values("pk")[:1]), mark=_mark(coach))
        .filter(pk__gt=F("first_coach"))
    )


def unread_by_athlete(coach: Any) -> dict[int, int]:
    """Athlete id → the replies ``coach`` hasn't read, for the athletes who have any (one query)."""
    rows = (
        replies(coach)
        .filter(pk__gt=F("mark"))
        .order_by()
        .values("conversation__athlete_id")
        .annotate(n=Count("pk"))
        .values_list("conversation__athlete_id", "n")
    )
    return dict(rows)


def unread_replies(coach: Any) -> int:
    return replies(coach).filter(pk__gt=F("mark")).count()


def unread_for_athlete(athlete: Any) -> int:
    """The coach's messages ``athlete`` hasn't seen yet, across their conversations (one query)."""
    if not policy.is_active(athlete):
        return 0
    return (
        Message.objects.filter(
            Q(role=Message.Role.COACH), conversation__in=athlete_conversations(athlete)
        )
        .annotate(mark=_mark(athlete))
        .filter(pk__gt=F("mark"))
        .count()
    )


def mark_read(*, user_id: int, conversation_id: int, up_to: int) -> None:
    """``user`` has read ``conversation`` up to message ``up_to`` (a mark only moves forward)."""
    moved = ReadMark.objects.filter(
        user_id=user_id, conversation_id=conversation_id, last_read_id__lt=up_to
    ).update(last_read_id=up_to)
    if moved:
        return
    try:
        with transaction.atomic():
            ReadMark.objects.get_or_create(
                user_id=user_id, conversation_id=conversation_id, defaults={"last_read_id": up_to}
            )
    except IntegrityError:  # made by a request at the same moment: move it forward instead
        ReadMark.objects.filter(
            user_id=user_id, conversation_id=conversation_id, last_read_id__lt=up_to
        ).update(last_read_id=up_to)
