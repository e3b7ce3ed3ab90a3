"""The periodic computation of needs-attention flags (``CELERY_BEAT_SCHEDULE["roster-flags"]``)."""

from celery import shared_task

from . import services


@shared_task(name="roster.tasks.compute_flags")
def compute_flags() -> dict[str, int]:
    done = services.compute_flags()
    return {"created": done.created, "cleared": done.cleared, "woke": done.woke}
