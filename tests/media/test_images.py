"""A photo is checked before it is decoded (bytes, type, pixels from the header) and decoded
within the same limits (``media.images``): each refusal names the limit."""

import io

import pytest
from PIL import Image

from media.images import PhotoError, check, decode
from tests.media.conftest import picture


def test_an_accepted_picture_is_checked_from_its_header():
    checked = check(picture((40, 30), "JPEG"))
    assert (checked.format, checked.width, checked.height, checked.content_type) == (
        "JPEG", 40, 30, "image/jpeg"
    )  # fmt: skip


def test_an_empty_file_is_refused():
    with pytest.raises(PhotoError, match="empty"):
        check(b"")


def test_too_many_bytes_are_refused_before_anything_is_decoded(settings):
    settings.MEDIA_PHOTO_MAX_MB = 1
    with pytest.raises(PhotoError, match="at most 1 MB"):
        check(b"\xff\xd8" + b"0" * (1024 * 1024))


def test_a_file_that_is_no_picture_is_refused():
    with pytest.raises(PhotoError, match="isn't a picture"):
        check(b"%PDF-1.7 this is a recipe, honest")


def test_a_picture_type_the_reader_does_not_take_is_refused():
    with pytest.raises(PhotoError, match="ICO pictures can't be read"):
        check(picture((32, 32), "ICO"))


def test_too_many_pixels_in_the_header_are_refused_before_decoding(settings):
    settings.MEDIA_PHOTO_MAX_PIXELS = 1000
    with pytest.raises(PhotoError, match="40 × 30 pixels"):
        check(picture((40, 30)))
    with pytest.raises(PhotoError, match="40 × 30 pixels"):
        decode(picture((40, 30)))


def test_a_picture_cut_short_fails_to_decode_with_a_clear_message():
    whole = picture((400, 300), "JPEG", quality=90)
    with pytest.raises(PhotoError, match="damaged or cut short"):
        decode(whole[: len(whole) // 2])


def test_decoding_turns_the_photo_upright_and_scales_it_down(settings):
    settings.MEDIA_OCR_MAX_SIDE = 100
    out = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotated 90° (a phone held upright)
    Image.new("RGB", (400, 200), "white").save(out, "JPEG", exif=exif)
    image = decode(out.getvalue())
    assert image.size == (50, 100) and image.mode == "RGB"
