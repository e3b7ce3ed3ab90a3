"""Celery tasks. They take ids, load the object and call a service.

``run_agent`` is safe to deliver twice (``acks_late``): the agent claims the placeholder under a
row lock for the run the task names and does nothing when it is already running, finished, or
another run is current. When the database can't be reached (``OperationalError``: down, out of
connections) it retries with exponential back-off, at most ``DB_RETRIES`` times; a reply still
unanswered after that is recovered by the sweep. ``recover_replies`` is that sweep
(``chat.recovery``): Celery beat runs it every ``AGENT_RECOVERY_INTERVAL`` seconds, and every
worker runs it once when it starts (and loads the tokenizer's vocabulary beside it, so the first
reply after a start doesn't wait for it). ``expire_proposals`` is the periodic sweep of batches left
undecided for ``PROPOSAL_TTL_DAYS`` (an open batch past its time also expires the moment anyone
looks at it). ``deliver_reminders`` posts the wellness reminders due now (``chat.reminders``).
"""

from __future__ import annotations

import logging
import threading

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db import OperationalError, connection

from coach.llm import tokens

from . import proposals, recovery, reminders
from .agent import run_turn
from .models import Message

logger = logging.getLogger(__name__)

DB_RETRIES = 5  # back-off 1, 2, 4, 8, 16 s (with jitter): about half a minute in all


@recovery.runs_agent
@shared_task(
    bind=True,
    acks_late=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    autoretry_for=(OperationalError,),
    max_retries=DB_RETRIES,
    retry_backoff=1,
    retry_backoff_max=30,
    retry_jitter=True,
)
def run_agent(self, message_id: int, attempt: int | None = None) -> None:
    """Fill the assistant placeholder ``message_id`` with the coach's reply (run ``attempt``)."""
    placeholder = Message.objects.filter(pk=message_id).first()
    if placeholder is None:
        logger.warning("run_agent: message %s no longer exists", message_id)
        return
    run_turn(placeholder=placeholder, attempt=attempt)


@shared_task
def expire_proposals() -> int:
    """Expire the batches past their time; returns how many."""
    return proposals.expire_due()


@shared_task
def deliver_reminders() -> int:
    """Post the reminders whose local time has come (Celery beat, every minute)."""
    return reminders.deliver_due()


@shared_task
def recover_replies() -> int:
    """Recover the replies that can't finish by themselves; returns how many were acted on."""
    result = recovery.sweep()
    if result.total:
        logger.warning("Recovered replies: %s", result)
    return result.total


@worker_ready.connect
def recover_at_start(**_kwargs) -> None:
    """A worker's start-up check: recover what a killed worker left (runs in the main thread)."""
    try:
        recover_replies()
    except Exception:
        logger.exception("The start-up recovery sweep failed; Celery beat will run it again")
    finally:
        connection.close()


@worker_ready.connect
def warm_the_tokenizer(**_kwargs) -> threading.Thread:
    """Load the token counter's vocabulary in a thread of its own as the worker starts: every
    turn counts its prompt's tokens, and the first one would otherwise load it (returns the
    thread, for tests)."""
    thread = threading.Thread(target=tokens.warm_up, name="tokenizer-warm-up", daemon=True)
    thread.start()
    return thread
