"""Celery tasks of the training app: a task takes an id and calls a service."""

from celery import shared_task

from .imports import import_job_run


@shared_task(acks_late=True, soft_time_limit=600, time_limit=660)
def import_job(job_id: int) -> None:
    import_job_run(job_id=job_id)
