"""What one imported file may hold, checked before a parser builds anything from it: its size
(after gunzip, read in chunks and stopped at the cap, so a gzip bomb is never expanded whole),
its track points (counted by a streaming pass that keeps nothing), and the dates it carries.
CSV rows are capped where they are read (``csv_common.rows``). Every limit is a setting
(``IMPORT_*`` in config/settings/base.py); a refusal is a ``FileFormatError`` saying what to do.

Dates outside ``IMPORT_EARLIEST_DATE`` … today + ``IMPORT_FUTURE_DAYS`` refuse the whole file
(files are all or nothing): such a date is nearly always a wrong date format or device clock, and
importing the rest would hide it. The error names the line (CSV) or the record.
"""

from __future__ import annotations

import datetime
import gzip
import io
import struct
import zlib

import defusedxml.ElementTree as SafeET
from django.conf import settings
from django.utils import timezone

from .base import FileFormatError, Parsed

MIB = 1024 * 1024
CHUNK = 256 * 1024
# FIT global message numbers that the FIT importer keeps one by one: session, record, sleep_level.
FIT_KEPT_MESSAGES = frozenset({18, 20, 275})
XML_POINTS = {"gpx": "trkpt", "tcx": "Trackpoint"}


def max_file_bytes() -> int:
    return settings.IMPORT_FILE_MAX_MB * MIB


def too_large(size_word: str) -> FileFormatError:
    mb = settings.IMPORT_FILE_MAX_MB
    return FileFormatError(
        f"{size_word} more than {mb} MB; split the activities into smaller files "
        f"(at most {mb} MB each, unzipped) and import each",
        where="file",
    )


def check_size(size: int) -> None:
    """A file's size, known before it is read (on disk, or an upload's stored bytes)."""
    if size > max_file_bytes():
        raise too_large("is")


def gunzip(data: bytes) -> bytes:
    """A ``.gz`` file expanded chunk by chunk, stopped as soon as it passes the cap."""
    limit = max_file_bytes()
    out = io.BytesIO()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            while chunk := stream.read(CHUNK):
                if out.tell() + len(chunk) > limit:
                    raise too_large("expands to")
                out.write(chunk)
    except (OSError, EOFError, zlib.error) as exc:
        raise FileFormatError(f"not a readable gzip file ({exc})", where="file") from exc
    return out.getvalue()


def _points_cap_error(what: str) -> FileFormatError:
    cap = settings.IMPORT_MAX_POINTS
    return FileFormatError(
        f"has more than {cap:,} {what}; split the activity into files of at most {cap:,} "
        "and import each",
        where="file",
    )


def check_xml_points(data: bytes, kind: str) -> None:
    """Count GPX ``trkpt`` / TCX ``Trackpoint`` elements in one streaming pass that drops every
    element once it ends, so memory stays flat whatever the file holds. A file that can't be read
    is left to its parser, which names the line."""
    wanted = XML_POINTS[kind]
    cap = settings.IMPORT_MAX_POINTS
    count = 0
    open_elements: list = []
    try:
        for event, element in SafeET.iterparse(io.BytesIO(data), events=("start", "end")):
            if event == "start":
                open_elements.append(element)
                continue
            open_elements.pop()
            if open_elements:
                del open_elements[-1][-1]  # the element that just ended is its parent's last
            if element.tag.rsplit("}", 1)[-1] == wanted:
                count += 1
                if count > cap:
                    raise _points_cap_error("track points")
    except FileFormatError:
        raise
    except Exception:  # malformed or forbidden XML: the parser reports it with its place
        return


def check_fit_points(data: bytes) -> None:
    """Count the FIT messages the importer keeps (records, sessions, sleep levels) from the
    message headers alone: no field is decoded. A file that can't be walked is left to the
    parser, which names the record."""
    cap = settings.IMPORT_MAX_POINTS
    count = 0
    offset = 0
    while offset + 12 <= len(data):
        header_size = data[offset]
        if header_size < 12 or data[offset + 8 : offset + 12] != b".FIT":
            return
        (data_size,) = struct.unpack_from("<I", data, offset + 4)
        position, end = offset + header_size, min(offset + header_size + data_size, len(data))
        sizes: dict[int, tuple[int, int]] = {}  # local type -> (global number, message size)
        while position < end:
            record_header = data[position]
            position += 1
            if record_header & 0x80:  # compressed timestamp header: a data message
                local = (record_header >> 5) & 0x03
            elif record_header & 0x40:  # definition message
                if position + 5 > end:
                    return
                big_endian = data[position + 1] == 1
                (number,) = struct.unpack_from(">H" if big_endian else "<H", data, position + 2)
                fields = data[position + 4]
                position += 5
                if position + 3 * fields > end:
                    return
                size = sum(data[position + 3 * i + 1] for i in range(fields))
                position += 3 * fields
                if record_header & 0x20:  # developer fields
                    developer = data[position] if position < end else 0
                    if position + 1 + 3 * developer > end:
                        return
                    size += sum(data[position + 1 + 3 * i + 1] for i in range(developer))
                    position += 1 + 3 * developer
                sizes[record_header & 0x0F] = (number, size)
                continue
            else:
                local = record_header & 0x0F
            if local not in sizes:
                return
            number, size = sizes[local]
            position += size
            if number in FIT_KEPT_MESSAGES:
                count += 1
                if count > cap:
                    raise _points_cap_error("records")
        offset += header_size + data_size + 2  # files may be chained, each with its CRC


def check_dates(parsed: Parsed) -> None:
    """Every activity and night within ``IMPORT_EARLIEST_DATE`` … today (UTC) +
    ``IMPORT_FUTURE_DAYS``."""
    earliest = datetime.date.fromisoformat(settings.IMPORT_EARLIEST_DATE)
    latest = timezone.now().date() + datetime.timedelta(days=settings.IMPORT_FUTURE_DAYS)
    csv = parsed.format.endswith("-csv")  # one record a line after the header, as its parser
    dated = [
        (f"line {n + 1}" if csv else f"activity {n}", a.start.date() if a.start else a.day, a.name)
        for n, a in enumerate(parsed.activities, start=1)
    ]
    dated += [
        (f"line {n + 1}" if csv else f"sleep record {n}", s.night, "")
        for n, s in enumerate(parsed.sleep, start=1)
    ]
    for where, day, name in dated:
        if day is not None and not earliest <= day <= latest:
            label = f" ({name!r})" if name else ""
            raise FileFormatError(
                f"the date {day.isoformat()}{label} is outside {earliest.isoformat()} to "
                f"{latest.isoformat()}; correct it (or the device's clock) and import the "
                "file again",
                where=where,
            )
