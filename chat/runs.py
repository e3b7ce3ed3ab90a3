"""Which run of the agent owns a reply's placeholder (``Message.attempt``): ``claim`` moves it
PENDING → RUNNING for one run under a row lock, so a redelivered task never makes a second reply,
and ``give_back`` returns it (RUNNING → PENDING) when the database fails mid-turn, so the retried
task can claim it again. ``chat.agent`` calls them around each turn."""

from __future__ import annotations

import logging

from django.db import OperationalError, transaction
from django.utils import timezone

from .models import Message

logger = logging.getLogger("chat.agent")


# --- claiming the placeholder --------------------------------------------------------------------


def claim(*, message_id: int, attempt: int | None = None) -> bool:
    """Move the placeholder PENDING → RUNNING for run ``attempt`` (the current run when None);
    False when it isn't waiting for that run."""
    with transaction.atomic():
        message = Message.objects.select_for_update().filter(pk=message_id).first()
        if message is None or message.role != Message.Role.ASSISTANT:
            return False
        if message.status != Message.Status.PENDING:
            return False
        if attempt is not None and attempt != message.attempt:
            logger.info(
                "Task for run %s of reply %s: run %s is current",
                attempt,
                message_id,
                message.attempt,
            )
            return False
        message.status = Message.Status.RUNNING
        message.started_at = timezone.now()
        message.save(update_fields=["status", "started_at"])
    return True


def give_back(message_id: int, attempt: int | None) -> None:
    """The database failed mid-turn. Best effort: RUNNING → PENDING for this run, so the retried
    task can claim it (while the database is out of reach, the sweep restarts it after its
    deadline)."""
    logger.warning("Database unreachable during reply %s; giving it back", message_id)
    running = Message.objects.filter(pk=message_id, status=Message.Status.RUNNING)
    try:
        (running if attempt is None else running.filter(attempt=attempt)).update(
            status=Message.Status.PENDING, started_at=None
        )
    except OperationalError:
        logger.warning("Could not give reply %s back; the sweep will", message_id)
