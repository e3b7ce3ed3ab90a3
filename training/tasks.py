"""Celery tasks of the training app: a task takes an id and calls a service."""

import datetime
import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from config.celery import BROKER_ERRORS

from .imports import import_job_run, import_jobs_waiting

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, soft_time_limit=600, time_limit=660)
def import_job(job_id: int) -> None:
    import_job_run(job_id=job_id)


def send_import(job_id: int) -> bool:
    """Hand an import job to the broker now. When the broker can't take it (down, or frozen past
    REDIS_TIMEOUT), log and return False: the job and its files are saved either way, and
    ``requeue_imports`` sends it once the broker is back. A job sent twice is imported once
    (``import_job_run`` claims it under a lock)."""
    try:
        import_job.delay(job_id)
    except BROKER_ERRORS as exc:
        logger.warning("The broker is unreachable; import job %s waits for it: %s", job_id, exc)
        return False
    return True


@shared_task
def requeue_imports() -> int:
    """Send again every import job still queued after IMPORT_REQUEUE_SECONDS: its first hand-off
    failed, or its task was lost. Returns how many were sent."""
    before = timezone.now() - datetime.timedelta(seconds=settings.IMPORT_REQUEUE_SECONDS)
    return sum(send_import(job_id) for job_id in import_jobs_waiting(queued_before=before))
