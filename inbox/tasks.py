"""The inbox's Celery tasks: they take ids and call ``notify``. ``queue`` hands one to the broker
and, when the broker can't take it, logs and drops that e-mail (the message or decision itself is
committed and shown in the chat; only the e-mail about it is lost)."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

from chat.recovery import BROKER_ERRORS

from . import notify

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def tell_athlete(*, message_id: int | None = None, decision_id: int | None = None) -> bool:
    return notify.tell_athlete(message_id=message_id, decision_id=decision_id)


@shared_task(ignore_result=True)
def send_digests() -> int:
    return notify.send_digests()


def queue(task: Any, **kwargs: Any) -> None:
    try:
        task.delay(**kwargs)
    except BROKER_ERRORS as exc:
        logger.warning(
            "The broker is unreachable; e-mail %s %s not sent: %s", task.name, kwargs, exc
        )
