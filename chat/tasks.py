"""Celery tasks. They take ids, load the object and call a service.

``run_agent`` is safe to deliver twice (``acks_late``): the agent claims the placeholder under a
row lock and does nothing when it is already running or finished. ``expire_proposals`` is the
periodic sweep of batches left undecided for ``PROPOSAL_TTL_DAYS`` (an open batch past its time
also expires the moment anyone looks at it).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from . import proposals
from .agent import run_turn
from .models import Message

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def run_agent(self, message_id: int) -> None:
    """Fill the assistant placeholder ``message_id`` with the coach's reply."""
    placeholder = Message.objects.filter(pk=message_id).first()
    if placeholder is None:
        logger.warning("run_agent: message %s no longer exists", message_id)
        return
    run_turn(placeholder=placeholder)


@shared_task
def expire_proposals() -> int:
    """Expire the batches past their time; returns how many."""
    return proposals.expire_due()
