"""The upload's Celery task through the real parts: a broker (redis-server and the embedded
Redis) and a `celery worker` process reading the test database."""

import time

import pytest

from tests.factories import UserFactory
from tests.training import files
from training.imports import import_job_create
from training.models import Activity, ImportJob, ImportStatus
from training.tasks import import_job

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_worker_process_imports_an_uploaded_job(celery_worker_process):
    _, log = celery_worker_process
    athlete = UserFactory()
    job = import_job_create(
        athlete=athlete, files=[("run.gpx", files.gpx()), ("bad.tcx", b"<nope")]
    )
    import_job.delay(job.pk)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status == ImportStatus.DONE:
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"the job never finished; worker log:\n{log.read_text()[-3000:]}")
    assert job.summary == (
        "imported 1 activities, 0 sleep records, skipped 0 duplicates, 1 files failed"
    )
    assert Activity.objects.filter(athlete=athlete).count() == 1
    assert ImportJob.objects.get(pk=job.pk).files.filter(ok=False).get().name == "bad.tcx"
