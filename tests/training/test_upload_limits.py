"""The upload guard (config/uploads.py): a body over UPLOAD_MAX_MB is refused before it is read,
under WSGI and under ASGI (what bin/serve runs), and a file over UPLOAD_FILE_MAX_MB fails alone
while the other files of the upload import."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import FileUploadHandler

from config.asgi import application
from tests.factories import UserFactory
from tests.training import bombs, files
from training.imports import import_job_run
from training.models import Activity, ImportJob

pytestmark = pytest.mark.django_db
MIB = bombs.MIB
TOO_LARGE = "This upload is larger than 100 MB; choose fewer or smaller files"


@pytest.fixture
def athlete(client):
    user = UserFactory()
    client.force_login(user)
    return user


class CountingInput:
    """A request body that records every read."""

    def __init__(self):
        self.read_bytes = 0

    def read(self, size=-1):
        chunk = b"-" * (64 * 1024 if size is None or size < 0 else min(size, 64 * 1024))
        self.read_bytes += len(chunk)
        return chunk

    def readline(self, size=-1):
        return self.read(size)


def test_a_body_over_the_limit_is_refused_on_content_length_before_it_is_read(client, athlete):
    body = CountingInput()
    response = client.generic(
        "POST",
        "/training/import/",
        CONTENT_LENGTH=str(256 * MIB),
        CONTENT_TYPE="multipart/form-data; boundary=xyz",
        **{"wsgi.input": body},
    )
    assert response.status_code == 413
    assert TOO_LARGE in response.content.decode()
    assert body.read_bytes == 0
    assert not ImportJob.objects.exists()


def _scope(headers: list[tuple[bytes, bytes]]) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/training/import/",
        "raw_path": b"/training/import/",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


def _serve(scope: dict, *, chunks: int, chunk_size: int) -> tuple[int, list[dict]]:
    """Run the ASGI application (config.asgi, as bin/serve does) on a body of ``chunks`` chunks;
    returns how many bytes it pulled and what it sent."""
    pulled = 0
    sent: list[dict] = []

    async def receive():
        nonlocal pulled
        if pulled >= chunks * chunk_size:
            await asyncio.Future()  # the client stays connected until the response is sent
        pulled += chunk_size
        return {
            "type": "http.request",
            "body": b"-" * chunk_size,
            "more_body": pulled < chunks * chunk_size,
        }

    async def send(message):
        sent.append(message)

    async_to_sync(application)(scope, receive, send)
    return pulled, sent


def test_asgi_refuses_a_body_over_the_limit_on_content_length_before_receiving_any():
    pulled, sent = _serve(
        _scope(
            [
                (b"content-length", str(256 * MIB).encode()),
                (b"content-type", b"multipart/form-data; boundary=xyz"),
            ]
        ),
        chunks=256,
        chunk_size=MIB,
    )
    assert pulled == 0
    assert sent[0]["status"] == 413
    assert TOO_LARGE in sent[1]["body"].decode()


def test_asgi_stops_reading_a_body_without_content_length_once_it_passes_the_limit(settings):
    settings.UPLOAD_MAX_MB = 1
    pulled, sent = _serve(
        _scope([(b"content-type", b"multipart/form-data; boundary=xyz")]),
        chunks=64,
        chunk_size=256 * 1024,
    )
    assert pulled <= MIB + 256 * 1024
    assert sent[0]["status"] == 413
    assert "This upload is larger than 1 MB" in sent[1]["body"].decode()


def test_asgi_passes_a_body_within_the_limit_on_to_django():
    pulled, sent = _serve(
        _scope(
            [
                (b"content-length", str(2 * 64 * 1024).encode()),
                (b"content-type", b"application/x-www-form-urlencoded"),
            ]
        ),
        chunks=2,
        chunk_size=64 * 1024,
    )
    assert pulled == 2 * 64 * 1024
    assert sent[0]["status"] == 403  # Django read it all and its CSRF check answered


class Recorder(FileUploadHandler):
    """Placed after the limit handler: the bytes of each file that reach the handlers storing it."""

    received: dict[str, int] = {}

    def new_file(self, field_name, file_name, *args, **kwargs):
        super().new_file(field_name, file_name, *args, **kwargs)
        Recorder.received[file_name] = 0

    def receive_data_chunk(self, raw_data, start):
        Recorder.received[self.file_name] += len(raw_data)
        return raw_data

    def file_complete(self, file_size):
        return None


def test_a_file_over_the_file_limit_fails_alone_and_the_others_import(
    client, athlete, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.UPLOAD_FILE_MAX_MB = 1
    handlers = list(settings.FILE_UPLOAD_HANDLERS)
    settings.FILE_UPLOAD_HANDLERS = [
        *handlers[:-2],
        "tests.training.test_upload_limits.Recorder",
        *handlers[-2:],
    ]
    Recorder.received = {}
    monkeypatch.setattr("training.tasks.import_job.delay", lambda job_id: None)
    big = files.gpx(points=16_000)  # about 3 MB
    assert len(big) > 2 * MIB
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/training/import/",
            {
                "files": [
                    SimpleUploadedFile("run.gpx", files.gpx()),
                    SimpleUploadedFile("big.gpx", big),
                    SimpleUploadedFile("ride.tcx", files.tcx()),
                ]
            },
        )
    assert response.status_code == 302
    assert Recorder.received["big.gpx"] <= MIB  # stopped as soon as it passed the limit
    job = ImportJob.objects.get(athlete=athlete)
    import_job_run(job_id=job.pk)
    job.refresh_from_db()
    lines = {f.name: f.message for f in job.files.all()}
    assert lines["big.gpx"] == (
        "big.gpx: FAILED larger than 1 MB; gzip it (.gz) or split it into smaller files and "
        "upload again"
    )
    assert lines["run.gpx"].startswith("run.gpx: 1 activities")
    assert lines["ride.tcx"].startswith("ride.tcx: 1 activities")
    assert job.summary == (
        "imported 2 activities, 0 sleep records, skipped 0 duplicates, 1 files failed"
    )
    assert Activity.objects.filter(athlete=athlete).count() == 2


def test_the_import_page_states_the_limits(client, athlete):
    page = client.get("/training/import/").content.decode()
    assert "Up to 50 files at once, 25 MB each and 100 MB in all" in page
