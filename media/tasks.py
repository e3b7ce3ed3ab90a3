"""The media family's Celery task: read one photo (``media.services.photo_read``).

It runs in the worker with a soft time limit of ``MEDIA_OCR_TIME_LIMIT`` seconds (the read then
fails alone, saying so) and a hard one ten seconds later; a read the hard limit killed is failed
the next time its sender looks (``services.settle_stale``). Delivered twice (``acks_late``), it
reads once: the read is claimed under a row lock. The tests run it eagerly, in process, like every
task of the suite (``CELERY_TASK_ALWAYS_EAGER``; no time limit applies there).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import transaction

from . import services
from .models import PhotoRead

logger = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    soft_time_limit=settings.MEDIA_OCR_TIME_LIMIT,
    time_limit=settings.MEDIA_OCR_TIME_LIMIT + 10,
)
def read_photo(read_id: int) -> None:
    services.photo_read(read_id)


def queue_read(read: PhotoRead) -> None:
    """Send the read to the worker once the photo is committed. A broker out of reach is logged,
    not raised: the photo is kept, and the read fails as not read in time when its sender next
    looks (``services.settle_stale``), telling them to send it again."""

    def send() -> None:
        try:
            read_photo.delay(read.pk)
        except Exception as exc:  # kombu's OperationalError, a socket error: the broker is down
            logger.warning("Photo read %s not queued (the broker is unreachable): %s", read.pk, exc)

    transaction.on_commit(send)
