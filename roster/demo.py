"""The roster's part of the demo: a coach who logs in finds a flagged athlete on top.

``seed_demo`` sends ``coach.plan.demo_seeded`` once every family's ``DEMO`` has run; this receiver
(connected in ``RosterConfig.ready``) runs the families' ``coaching.DEMO_PARTS`` (the programs
family makes Jamie: a missed week and a sore knee in a workout note), then gives Jamie a proposal
waiting for the coach's review since yesterday (a real one: the athlete asks the offline coach to
remove a session, in coach review mode, and clicks Apply Changes), and computes the flags.
Idempotent: an athlete who already has a conversation gets no second proposal.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from chat import proposals
from chat.access import current_program_id
from chat.agent import run_turn
from chat.models import CoachReview, Conversation, PendingToolBatch
from chat.services import message_send
from coach.llm.offline.provider import OfflineProvider

from . import discovery, services

REQUEST = "remove week 3 session 5"
WAITING_SINCE_HOURS = 26  # past ROSTER_REVIEW_HOURS (24): the review is overdue


def seed_roster(sender: Any = None, *, seed: Any, **kwargs: Any) -> None:
    for part in discovery.declared("DEMO_PARTS"):
        part(seed)
    flagged = seed.people.get("flagged")
    if flagged is not None and not Conversation.objects.filter(athlete=flagged).exists():
        waiting_review(flagged)
        seed.lines.append(f"{flagged.username} asked for a change that waits for the coach.")
    done = services.compute_flags(today=seed.today)
    seed.lines.append(f"Roster: {done.created} needs-attention flags for the coaches.")


def waiting_review(athlete: Any) -> PendingToolBatch | None:
    """A high-sensitivity change the athlete applied in coach review mode, sent a day ago."""
    CoachReview.objects.update_or_create(athlete=athlete, defaults={"enabled": True})
    conversation = Conversation.objects.create(
        athlete=athlete, program_id=current_program_id(athlete.pk)
    )
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text=REQUEST)
    run_turn(placeholder=placeholder, provider=OfflineProvider())
    batch = PendingToolBatch.objects.filter(
        conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES
    ).first()
    if batch is None:
        return None
    proposals.apply(batch_id=batch.pk, user=athlete, revision=batch.revision)
    since = timezone.now() - datetime.timedelta(hours=WAITING_SINCE_HOURS)
    PendingToolBatch.objects.filter(pk=batch.pk).update(created_at=since)
    batch.refresh_from_db()
    return batch
