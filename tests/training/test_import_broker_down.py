"""An upload while the broker can't take work keeps the files, says so, and is imported later."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from kombu.exceptions import OperationalError

from tests.training import files
from training.models import ImportJob, ImportStatus
from training.tasks import requeue_imports

pytestmark = pytest.mark.django_db


@pytest.fixture
def athlete_client(client, django_user_model):
    user = django_user_model.objects.create_user("runner", password="x")
    client.force_login(user)
    return client


def _broker_down(*_args, **_kwargs):
    raise OperationalError("Timeout reading from socket")


def test_an_upload_while_the_broker_is_down_keeps_its_files_and_says_the_import_waits(
    athlete_client, monkeypatch
):
    monkeypatch.setattr("training.tasks.import_job.delay", _broker_down)
    response = athlete_client.post(
        "/training/import/", {"files": [SimpleUploadedFile("a.gpx", files.gpx())]}, follow=True
    )
    assert response.status_code == 200
    job = ImportJob.objects.get()
    assert job.status == ImportStatus.QUEUED
    assert job.files.get().data  # the bytes are kept for the import
    assert "the import starts by itself as soon as it is back" in response.content.decode()


def test_the_sweep_sends_again_only_the_jobs_left_queued_past_their_time(
    athlete_client, monkeypatch, settings
):
    monkeypatch.setattr("training.tasks.import_job.delay", _broker_down)
    athlete_client.post("/training/import/", {"files": [SimpleUploadedFile("a.gpx", files.gpx())]})
    waiting = ImportJob.objects.get()
    athlete_client.post("/training/import/", {"files": [SimpleUploadedFile("b.gpx", files.gpx())]})
    settings.IMPORT_REQUEUE_SECONDS = 120
    ImportJob.objects.filter(pk=waiting.pk).update(
        created_at=waiting.created_at - datetime.timedelta(seconds=121)
    )
    sent = []
    monkeypatch.setattr("training.tasks.import_job.delay", sent.append)
    assert requeue_imports() == 1
    assert sent == [waiting.pk]


def test_the_sweep_leaves_a_job_queued_while_the_broker_is_still_down(athlete_client, monkeypatch):
    monkeypatch.setattr("training.tasks.import_job.delay", _broker_down)
    athlete_client.post("/training/import/", {"files": [SimpleUploadedFile("a.gpx", files.gpx())]})
    ImportJob.objects.update(created_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC))
    assert requeue_imports() == 0
    assert ImportJob.objects.get().status == ImportStatus.QUEUED
