"""A photo's bytes checked before anything decodes them, and decoded within the limits.

``check`` runs in the web request: it reads only the header (Pillow's ``Image.open`` is lazy) to
learn the type and the pixel size, and refuses a file too big in bytes, of a type the reader
doesn't take, or with more pixels than ``MEDIA_PHOTO_MAX_PIXELS``. ``decode`` runs in the worker:
Pillow's decompression-bomb guard (``Image.MAX_IMAGE_PIXELS``) is set to the same limit and made
an error at any size over it (Pillow only warns up to twice its limit), so a file whose header
lies still can't make the worker expand it; the pixels are turned upright by the EXIF orientation
and scaled down to ``MEDIA_OCR_MAX_SIDE``. Nothing of the original (EXIF, GPS) is kept: the text
is read from the decoded pixels and the bytes are dropped (``media.services``).
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from django.conf import settings
from PIL import Image, ImageOps, UnidentifiedImageError

# What Pillow names the formats a recipe photo may come in (a phone's camera gives JPEG; screen
# shots PNG; WebP from a browser's "save image").
ACCEPTED = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp", "GIF": "image/gif",
            "BMP": "image/bmp", "TIFF": "image/tiff"}  # fmt: skip


class PhotoError(ValueError):
    """A photo that can't be read; the message is for the athlete and names the limit."""


@dataclass(frozen=True)
class Checked:
    format: str
    width: int
    height: int
    size: int

    @property
    def content_type(self) -> str:
        return ACCEPTED[self.format]


def max_bytes() -> int:
    return settings.MEDIA_PHOTO_MAX_MB * 1024 * 1024


def check(data: bytes) -> Checked:
    """The photo's type and size from its header; ``PhotoError`` naming the limit otherwise."""
    if not data:
        raise PhotoError("The photo is empty; choose a picture of the recipe.")
    if len(data) > max_bytes():
        raise PhotoError(
            f"The photo is {len(data) / 1024 / 1024:.1f} MB; at most "
            f"{settings.MEDIA_PHOTO_MAX_MB} MB can be read. Send a smaller picture."
        )
    try:
        with Image.open(io.BytesIO(data)) as image:
            fmt, (width, height) = image.format or "", image.size
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        raise PhotoError(
            "That file isn't a picture the reader takes (JPEG, PNG, WebP, GIF, BMP or TIFF)."
        ) from None
    if fmt not in ACCEPTED:
        raise PhotoError(f"{fmt or 'That'} pictures can't be read; send a JPEG, PNG or WebP.")
    if width * height > settings.MEDIA_PHOTO_MAX_PIXELS:
        raise PhotoError(
            f"The photo has {width} × {height} pixels; at most "
            f"{settings.MEDIA_PHOTO_MAX_PIXELS / 1e6:g} million can be read."
        )
    return Checked(format=fmt, width=width, height=height, size=len(data))


def decode(data: bytes) -> Image.Image:
    """The photo's pixels, upright, RGB, at most ``MEDIA_OCR_MAX_SIDE`` on its longer side."""
    check(data)
    Image.MAX_IMAGE_PIXELS = settings.MEDIA_PHOTO_MAX_PIXELS
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                image.seek(0)  # a GIF's or TIFF's first frame
                image.load()
                upright = ImageOps.exif_transpose(image).convert("RGB")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoError(
            f"The photo decodes to more than {settings.MEDIA_PHOTO_MAX_PIXELS / 1e6:g} million "
            "pixels and was not read."
        ) from None
    except (OSError, ValueError, SyntaxError):
        raise PhotoError("The photo is damaged or cut short and could not be decoded.") from None
    upright.thumbnail((settings.MEDIA_OCR_MAX_SIDE, settings.MEDIA_OCR_MAX_SIDE))
    return upright


def stripped(data: bytes) -> tuple[bytes, int, int]:
    """The photo to keep with a recipe: its decoded pixels (upright, within the limits above),
    at most ``MEDIA_KEEP_MAX_SIDE`` on the longer side, encoded again as a JPEG with no metadata
    at all (no EXIF: no GPS position, no camera serial; Pillow writes none unless given it)."""
    upright = decode(data)
    upright.thumbnail((settings.MEDIA_KEEP_MAX_SIDE, settings.MEDIA_KEEP_MAX_SIDE))
    bare = Image.new("RGB", upright.size)  # pixels only: no info, no EXIF carried over
    bare.paste(upright)
    out = io.BytesIO()
    bare.save(out, "JPEG", quality=85, optimize=True)
    return out.getvalue(), bare.width, bare.height
