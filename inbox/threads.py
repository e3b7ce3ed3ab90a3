"""Messages between a coach and an athlete: the coach writes from the inbox (``send``), the
athlete reads it in their chat, labelled as their coach (``chat.services.coach_post``: a ``coach``
message, escaped on the page, quoted as data for the model), and answers there; the coach reads
the answers in their inbox of replies (``reply_rows``) and in the athlete's thread (``thread``).

**Who.** ``athlete_for`` finds the athlete among the people ``user`` may ``action``: a coach
reaches only their athletes (``access.policy``'s ``REVIEW``); staff read every thread
(``READ``) and write none. Anyone else's athlete is "not found".

**Rate.** A coach sends at most ``INBOX_MESSAGES_PER_MINUTE`` messages in any 60 seconds, counted
from the messages themselves under a lock of the coach's row (two tabs are counted in turn).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from access import policy
from chat import services as chat
from chat.models import Message
from config.params import id_param

from . import counts

RATE_WINDOW = datetime.timedelta(minutes=1)
THREAD_LIMIT = 50


def athlete_for(user: Any, athlete_id: Any, *, action: str = policy.REVIEW) -> Any:
    """The athlete ``athlete_id`` if ``user`` may ``action`` them; ``LookupError`` otherwise."""
    pk = id_param(str(athlete_id))
    if pk is None:
        raise LookupError("No such athlete.")
    people = policy.visible(get_user_model().objects.all(), user, action=action)
    athlete = people.filter(pk=pk, is_active=True).first()
    if athlete is None or athlete.pk == getattr(user, "pk", None):
        raise LookupError("No such athlete.")
    return athlete


def thread(user: Any, athlete: Any, *, action: str = policy.REVIEW) -> list[Message]:
    """The coach's messages to ``athlete`` and the athlete's replies (``counts.replies``), the
    newest ``THREAD_LIMIT``, oldest first."""
    conversations = counts.coach_conversations(user, action=action).filter(athlete=athlete)
    written = Message.objects.filter(conversation__in=conversations, role=Message.Role.COACH)
    answered = counts.replies(user, action=action).filter(conversation__athlete=athlete)
    ids = list(written.values_list("pk", flat=True).order_by("-pk")[:THREAD_LIMIT])
    ids += list(answered.values_list("pk", flat=True).order_by("-pk")[:THREAD_LIMIT])
    newest = sorted(ids)[-THREAD_LIMIT:]
    return list(Message.objects.filter(pk__in=newest).select_related("author").order_by("pk"))


def mark_thread_read(coach: Any, messages: list[Message]) -> None:
    """The coach has read every reply shown (one mark per conversation)."""
    newest: dict[int, int] = {}
    for message in messages:
        newest[message.conversation_id] = max(message.pk, newest.get(message.conversation_id, 0))
    for conversation_id, up_to in newest.items():
        counts.mark_read(user_id=coach.pk, conversation_id=conversation_id, up_to=up_to)


def check_rate(coach: Any, now: datetime.datetime) -> None:
    limit = int(settings.INBOX_MESSAGES_PER_MINUTE)
    if limit <= 0:
        return
    sent = Message.objects.filter(
        role=Message.Role.COACH, author=coach, created_at__gt=now - RATE_WINDOW
    ).count()
    if sent >= limit:
        raise ValidationError(
            f"You can send at most {limit} messages a minute. Your message is still here: send "
            "it again in a minute.",
            code="rate_limited",
        )


def send(coach: Any, athlete: Any, text: str) -> Message:
    """Post ``text`` into the athlete's current conversation as their coach. ``ValidationError``
    for an empty, too long or rate-limited message (nothing sent); ``PermissionDenied`` unless
    ``coach`` coaches the athlete's current program (another coach's athlete, staff, an athlete
    with no program)."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=coach.pk).first()
        check_rate(coach, timezone.now())
        conversation = chat.conversation_for_athlete(athlete=athlete)
        if conversation is None:
            raise PermissionDenied(
                "This athlete has no program yet, so there is no chat to write into."
            )
        message = chat.coach_post(conversation=conversation, coach=coach, text=text)
    counts.mark_read(user_id=coach.pk, conversation_id=conversation.pk, up_to=message.pk)
    return message


def reply_rows(coach: Any, *, action: str = policy.REVIEW) -> list[dict[str, Any]]:
    """One row per athlete who has answered ``coach``: the newest reply, when, and how many are
    unread; newest first (three queries)."""
    latest = dict(
        counts.replies(coach, action=action)
        .order_by()
        .values("conversation__athlete_id")
        .annotate(last=Max("pk"))
        .values_list("conversation__athlete_id", "last")
    )
    unread = counts.unread_by_athlete(coach) if action == policy.REVIEW else {}
    messages = Message.objects.filter(pk__in=latest.values()).select_related(
        "conversation__athlete"
    )
    rows = [
        {
            "athlete": m.conversation.athlete,
            "last": m,
            "unread": unread.get(m.conversation.athlete_id, 0),
        }
        for m in messages
    ]
    rows.sort(key=lambda r: (r["unread"] == 0, -r["last"].pk))
    return rows
