"""Sending and reading photos (``media.services``): per-person bounds, one read per photo, every
failure ending that read alone with a message, the photo's bytes (and its EXIF) never kept."""

import datetime
import io

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone
from PIL import Image

from media import services
from media.models import PhotoRead
from media.ocr import Line
from tests.factories import UserFactory
from tests.media.conftest import picture

pytestmark = pytest.mark.django_db

CARD = [Line("Oat Bowl", 34, 0.9), Line("Ingredients", 20, 0.9), Line("1/2 cup rolled oats", 20, 0.9),
        Line("1 tsp honey", 20, 0.9), Line("a handful of love", 20, 0.9), Line("Method", 20, 0.9),
        Line("1. Mix.", 20, 0.9)]  # fmt: skip


@pytest.fixture
def engine(monkeypatch):
    """The OCR engine replaced by the card above (the engine itself: test_photo_flow)."""
    seen = []
    monkeypatch.setattr(services.ocr, "read_lines", lambda image: seen.append(image.size) or CARD)
    return seen


def test_a_read_photo_keeps_the_text_and_the_recipe_and_drops_the_bytes(engine):
    athlete = UserFactory()
    read = services.photo_submit(owner=athlete, data=picture((80, 60), "JPEG"))
    assert read.status == "queued" and bytes(read.photo)
    services.photo_read(read.pk)
    read.refresh_from_db()
    assert (read.status, read.photo, engine) == ("done", None, [(80, 60)])
    assert read.text.splitlines()[0] == "Oat Bowl"
    assert read.reading["title"] == "Oat Bowl"
    assert [i["ingredient"] for i in read.reading["ingredients"]] == ["rolled oats", "honey"]
    assert read.reading["unread"] == ["a handful of love"]
    assert read.seconds is not None and read.finished_at is not None


def test_the_gps_position_in_a_photo_is_not_kept(engine):
    exif = Image.Exif()
    exif[0x8825] = {1: "N", 2: (51.0, 30.0, 0.0), 3: "W", 4: (0.0, 7.0, 0.0)}  # GPS IFD
    out = io.BytesIO()
    Image.new("RGB", (80, 60), "white").save(out, "JPEG", exif=exif)
    assert b"GPS" in out.getvalue() or b"\x88\x25" in out.getvalue()
    read = services.photo_submit(owner=UserFactory(), data=out.getvalue())
    services.photo_read(read.pk)
    read.refresh_from_db()
    assert read.photo is None
    stored = f"{read.text}{read.reading}{read.error}"
    assert "51" not in stored and "GPS" not in stored


def test_a_redelivered_task_reads_the_photo_once(engine):
    read = services.photo_submit(owner=UserFactory(), data=picture())
    services.photo_read(read.pk)
    services.photo_read(read.pk)
    assert len(engine) == 1


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (SoftTimeLimitExceeded(), "took longer than 30 s"),
        (RuntimeError("onnx exploded"), "The reader failed on this photo"),
    ],
)
def test_one_failing_read_fails_alone_with_a_message_and_drops_the_bytes(
    monkeypatch, settings, error, message
):
    settings.MEDIA_OCR_TIME_LIMIT = 30

    def fail(image):
        raise error

    monkeypatch.setattr(services.ocr, "read_lines", fail)
    athlete = UserFactory()
    bad = services.photo_submit(owner=athlete, data=picture())
    good = services.photo_submit(owner=athlete, data=picture())
    services.photo_read(bad.pk)
    monkeypatch.setattr(services.ocr, "read_lines", lambda image: CARD)
    services.photo_read(good.pk)
    bad.refresh_from_db()
    good.refresh_from_db()
    assert (bad.status, bad.photo) == ("failed", None) and message in bad.error
    assert good.status == "done"


def test_a_damaged_photo_fails_with_the_decoder_s_reason(engine):
    whole = picture((400, 300), "JPEG", quality=90)
    read = services.photo_submit(owner=UserFactory(), data=whole[: len(whole) // 2])
    services.photo_read(read.pk)
    read.refresh_from_db()
    assert read.status == "failed" and "damaged or cut short" in read.error and engine == []


def test_a_bad_photo_is_refused_before_anything_is_kept():
    with pytest.raises(services.MediaError) as refused:
        services.photo_submit(owner=UserFactory(), data=b"not a picture")
    assert refused.value.code == "VALIDATION_ERROR"
    assert not PhotoRead.objects.exists()


def test_one_person_sends_at_most_the_photos_a_minute_the_setting_allows(settings):
    settings.MEDIA_PHOTOS_PER_MINUTE, settings.MEDIA_PHOTOS_AT_ONCE = 2, 10
    athlete, other = UserFactory(), UserFactory()
    for _ in range(2):
        services.photo_submit(owner=athlete, data=picture())
    with pytest.raises(services.MediaError, match="2 photos in the last minute") as refused:
        services.photo_submit(owner=athlete, data=picture())
    assert refused.value.code == "RATE_LIMITED"
    services.photo_submit(owner=other, data=picture())  # someone else is not held up
    PhotoRead.objects.filter(owner=athlete).update(
        created_at=timezone.now() - datetime.timedelta(minutes=2)
    )
    services.photo_submit(owner=athlete, data=picture())


def test_one_person_has_at_most_the_reads_at_once_the_setting_allows(settings, engine):
    settings.MEDIA_PHOTOS_PER_MINUTE, settings.MEDIA_PHOTOS_AT_ONCE = 10, 1
    athlete = UserFactory()
    first = services.photo_submit(owner=athlete, data=picture())
    with pytest.raises(services.MediaError, match="still being read"):
        services.photo_submit(owner=athlete, data=picture())
    services.photo_read(first.pk)
    services.photo_submit(owner=athlete, data=picture())


def test_a_read_the_worker_never_finished_fails_when_looked_at_and_frees_its_place(settings):
    settings.MEDIA_PHOTOS_AT_ONCE, settings.MEDIA_OCR_TIME_LIMIT = 1, 30
    athlete = UserFactory()
    lost = services.photo_submit(owner=athlete, data=picture())
    PhotoRead.objects.filter(pk=lost.pk).update(
        created_at=timezone.now() - datetime.timedelta(seconds=91)
    )
    services.photo_submit(owner=athlete, data=picture())  # the lost one is settled first
    lost.refresh_from_db()
    assert (lost.status, lost.photo) == ("failed", None) and "wasn't read in time" in lost.error


def test_a_finished_read_becomes_recipe_create_s_arguments_with_the_unread_lines_in_its_notes(
    engine,
):
    read = services.photo_submit(owner=UserFactory(), data=picture())
    services.photo_read(read.pk)
    read.refresh_from_db()
    call = services.recipe_call(read)
    assert call.arguments == {
        "title": "Oat Bowl",
        "ingredients": [
            {"ingredient": "rolled oats", "quantity": 0.5, "unit": "cup"},
            {"ingredient": "honey", "quantity": 1, "unit": "tsp"},
        ],
        "instructions": "1. Mix.",
        "notes": "Read from a photo; these lines were not read as ingredients or steps:\n"
        "- a handful of love",
    }
