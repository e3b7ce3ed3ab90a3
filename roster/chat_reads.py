"""What the roster reads of the chat: proposals waiting for the coach and the athlete's messages.

The chat is not a family, so the roster reads its models here, in one module, through the
batches' public status (``PendingToolBatch.BatchStatus.AWAITING_REVIEW``, what the admin's review
queue filters on): the chat offers no function for it yet. Each read takes every athlete at once.
"""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from chat.models import Conversation, Message, PendingToolBatch

from .findings import Finding, Limits, pain_finding
from .models import FlagKind

AWAITING = PendingToolBatch.BatchStatus.AWAITING_REVIEW


def waiting(athlete_ids: list[int]) -> dict[int, int]:
    """How many proposals wait for the coach's review, per athlete (one query)."""
    rows = (
        PendingToolBatch.objects.filter(status=AWAITING, conversation__athlete_id__in=athlete_ids)
        .values("conversation__athlete_id")
        .annotate(n=Count("pk"))
    )
    return {row["conversation__athlete_id"]: row["n"] for row in rows}


def findings(athlete_ids: list[int], today: datetime.date, limits: Limits) -> list[Finding]:
    """A proposal waiting longer than ``review_hours``; pain words in the athlete's messages."""
    found: list[Finding] = []
    cutoff = timezone.now() - datetime.timedelta(hours=limits.review_hours)
    for batch in PendingToolBatch.objects.filter(
        status=AWAITING, conversation__athlete_id__in=athlete_ids, created_at__lte=cutoff
    ).select_related("conversation"):
        hours = int((timezone.now() - batch.created_at).total_seconds() // 3600)
        found.append(
            Finding(
                athlete_id=batch.conversation.athlete_id,
                kind=FlagKind.REVIEW,
                evidence_key=f"batch:{batch.pk}",
                summary=f"A proposed change has waited {hours} hours for your review",
                occurred_on=timezone.localdate(batch.created_at),
                source="proposal",
                link=reverse("admin:chat_pendingtoolbatch_change", args=[batch.pk]),
            )
        )
    since = today - datetime.timedelta(days=limits.note_days)
    messages = Message.objects.filter(
        role=Message.Role.USER,
        conversation__athlete_id__in=athlete_ids,
        created_at__date__gte=since,
    ).values("pk", "content", "created_at", "conversation_id", "conversation__athlete_id")
    for message in messages:
        finding = pain_finding(
            athlete_id=message["conversation__athlete_id"],
            key=f"message:{message['pk']}",
            text=message["content"],
            source="chat message",
            on=timezone.localdate(message["created_at"]),
            link=reverse("admin:chat_conversation_timeline", args=[message["conversation_id"]]),
            limits=limits,
        )
        if finding:
            found.append(finding)
    return found


def conversations_of(athlete_id: int) -> list[tuple[int, str]]:
    """The athlete's conversations, newest first, as ``(id, title)`` for links to their
    read-only timelines in the admin."""
    rows = (
        Conversation.objects.filter(athlete_id=athlete_id)
        .order_by("-updated_at")
        .values_list("pk", "title")
    )
    return [(pk, title or f"Conversation {pk}") for pk, title in rows]


def by_athlete(rows: list[Finding]) -> dict[int, list[Finding]]:
    grouped: dict[int, list[Finding]] = defaultdict(list)
    for row in rows:
        grouped[row.athlete_id].append(row)
    return grouped
