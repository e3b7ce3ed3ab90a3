"""Photos read into recipes: sending one (``photo_submit``, checked and bounded per person), reading
it in the worker (``photo_read``) and the ``recipe_create`` call it becomes (``recipe_call``).

A read fails alone: whatever goes wrong with one photo (a damaged file, a decompression bomb, the
time limit, an error in the engine) ends that read as ``failed`` with a message for the athlete,
and its bytes are dropped like a finished read's. A read the worker never finished (the broker
down, the worker killed at its hard limit) is failed the next time anyone looks at it
(``settle_stale``), so it never holds a place of the per-person bound for ever.
"""

from __future__ import annotations

import datetime
import logging
import time
from dataclasses import dataclass
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from coach.render import plain
from nutrition.services import line_reader

from . import images, ocr
from .models import PhotoRead
from .recipe_text import Reading, find_recipe

logger = logging.getLogger(__name__)

MAX_TEXT = 20_000  # characters of read text kept
MAX_NOTES = 8000  # recipe_create's notes
STALE_GRACE = datetime.timedelta(seconds=60)  # past the time limit, before a read counts as lost
BUSY = (PhotoRead.Status.QUEUED, PhotoRead.Status.READING)


class MediaError(Exception):
    """``code``: VALIDATION_ERROR (the photo itself) or RATE_LIMITED (the person's bounds)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def stale_before(now: datetime.datetime | None = None) -> datetime.datetime:
    now = now or timezone.now()
    return now - datetime.timedelta(seconds=settings.MEDIA_OCR_TIME_LIMIT) - STALE_GRACE


def settle_stale(owner: Any) -> int:
    """Fail ``owner``'s reads that were sent too long ago to be still running, and drop the bytes
    of photos kept for a recipe that was not applied within ``MEDIA_KEEP_HOURS``; how many
    reads were failed."""
    now = timezone.now()
    PhotoRead.objects.filter(
        owner=owner,
        status=PhotoRead.Status.DONE,
        photo__isnull=False,
        finished_at__lt=now - datetime.timedelta(hours=settings.MEDIA_KEEP_HOURS),
    ).update(photo=None)
    return PhotoRead.objects.filter(
        owner=owner, status__in=BUSY, created_at__lt=stale_before(now)
    ).update(
        status=PhotoRead.Status.FAILED,
        photo=None,
        error="The photo wasn't read in time (the reader is busy or stopped). Send it again.",
        finished_at=now,
    )


def photo_submit(*, owner: Any, data: bytes, keep: bool = False) -> PhotoRead:
    """Check the photo's bytes and the sender's bounds, and hold the photo until it is read (the
    caller queues ``media.tasks.read_photo`` on commit); with ``keep``, until the recipe's Apply
    (``media.card``). ``MediaError`` changes nothing."""
    try:
        checked = images.check(data)
    except images.PhotoError as exc:
        raise MediaError("VALIDATION_ERROR", str(exc)) from None
    with transaction.atomic():
        # One sender's photos are counted one request at a time: their user row is the lock.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        settle_stale(owner)
        now = timezone.now()
        mine = PhotoRead.objects.filter(owner=owner)
        recent = mine.filter(created_at__gte=now - datetime.timedelta(minutes=1)).count()
        if recent >= settings.MEDIA_PHOTOS_PER_MINUTE:
            raise MediaError(
                "RATE_LIMITED",
                f"You've sent {recent} photos in the last minute (at most "
                f"{settings.MEDIA_PHOTOS_PER_MINUTE}); wait a minute, then send this one again.",
            )
        busy = mine.filter(status__in=BUSY).count()
        if busy >= settings.MEDIA_PHOTOS_AT_ONCE:
            raise MediaError(
                "RATE_LIMITED",
                f"{busy} of your photos are still being read (at most "
                f"{settings.MEDIA_PHOTOS_AT_ONCE} at once); send this one when they're done.",
            )
        return PhotoRead.objects.create(
            owner=owner,
            photo=data,
            keep=keep,
            content_type=checked.content_type,
            byte_size=checked.size,
            width=checked.width,
            height=checked.height,
        )


def _claim(read_id: int) -> PhotoRead | None:
    with transaction.atomic():
        read = PhotoRead.objects.select_for_update().filter(pk=read_id).first()
        if read is None or read.status != PhotoRead.Status.QUEUED:
            return None  # gone, or read already (a redelivered task)
        read.status = PhotoRead.Status.READING
        read.save(update_fields=["status"])
        return read


def _finish(read: PhotoRead, **fields: Any) -> None:
    """End the read; the bytes go, except a photo its sender keeps, read into a recipe: those
    wait for the recipe's Apply (``media.card.apply``; ``settle_stale`` drops them later)."""
    held = read.keep and bool(fields.get("reading", {}).get("ingredients"))
    fields |= {"finished_at": timezone.now()} | ({} if held else {"photo": None})
    PhotoRead.objects.filter(pk=read.pk, status=PhotoRead.Status.READING).update(**fields)


def photo_read(read_id: int) -> None:
    """Read queued photo ``read_id``: decode within the limits, read the text, find the recipe;
    the photo's bytes are dropped either way."""
    read = _claim(read_id)
    if read is None:
        return
    started = time.perf_counter()
    try:
        lines = ocr.read_lines(images.decode(bytes(read.photo)))
        reading = find_recipe(lines, line_reader())
    except images.PhotoError as exc:
        _finish(read, status=PhotoRead.Status.FAILED, error=str(exc))
        return
    except SoftTimeLimitExceeded:
        _finish(
            read,
            status=PhotoRead.Status.FAILED,
            error=f"Reading the photo took longer than {settings.MEDIA_OCR_TIME_LIMIT} s and was "
            "stopped. Try a closer, sharper picture of just the recipe.",
        )
        return
    except Exception:  # one photo's failure is its own: the worker goes on with the next
        logger.exception("Reading photo %s failed", read_id)
        _finish(
            read,
            status=PhotoRead.Status.FAILED,
            error="The reader failed on this photo. Try another picture, or type the recipe.",
        )
        return
    _finish(
        read,
        status=PhotoRead.Status.DONE,
        text="\n".join(line.text for line in lines)[:MAX_TEXT],
        reading=reading.as_json(),
        seconds=round(time.perf_counter() - started, 3),
    )


# --- the proposal --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecipeCall:
    """What a read becomes: ``recipe_create``'s arguments, and the words around them."""

    title: str
    arguments: dict[str, Any]
    read_lines: int
    unread: list[str]


def _notes(reading: Reading) -> str:
    parts = []
    if reading.servings:
        parts.append(f"Serves {reading.servings}.")
    if reading.unread:
        parts.append(
            "Read from a photo; these lines were not read as ingredients or steps:\n"
            + "\n".join(f"- {line}" for line in reading.unread)
        )
    notes = "\n\n".join(parts)
    return notes if len(notes) <= MAX_NOTES else notes[: MAX_NOTES - 1] + "…"


def recipe_call(read: PhotoRead) -> RecipeCall | None:
    """``recipe_create``'s arguments for a finished read, or None when it has no ingredient line
    (a recipe needs one: the athlete reads the text and types it)."""
    if read.status != PhotoRead.Status.DONE:
        return None
    reading = Reading.from_json(read.reading)
    if not reading.ingredients:
        return None
    title = plain(reading.title or "Recipe from a photo", limit=200)
    arguments: dict[str, Any] = {
        "title": title,
        "ingredients": [line.as_args() for line in reading.ingredients[:100]],
    }
    if reading.steps:
        steps = "\n".join(f"{n}. {step}" for n, step in enumerate(reading.steps, start=1))
        arguments["instructions"] = steps[:MAX_NOTES]
    if notes := _notes(reading):
        arguments["notes"] = notes
    return RecipeCall(
        title=title, arguments=arguments, read_lines=len(reading.ingredients), unread=reading.unread
    )
