"""Reading CSV bytes: decoding, the delimiter, and numbers with the line they came from."""

from __future__ import annotations

import csv
import datetime
import io

from django.conf import settings

from .base import FileFormatError


def rows(data: bytes) -> list[list[str]]:
    """All non-empty rows of a CSV file (UTF-8 with or without BOM, else Latin-1; comma,
    semicolon or tab), decoded as they are read and stopped past ``IMPORT_MAX_ROWS`` data rows
    (plus the header), so an oversized file is refused before it fills memory."""
    try:
        return _rows(data, "utf-8-sig")
    except UnicodeDecodeError:
        return _rows(data, "latin-1")


def _rows(data: bytes, encoding: str) -> list[list[str]]:
    cap = settings.IMPORT_MAX_ROWS
    text = io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline="")
    first = text.readline()
    delimiter = max(",;\t", key=first.count)
    text.seek(0)
    table: list[list[str]] = []
    reader = csv.reader(text, delimiter=delimiter)
    for row in reader:
        if not any(row):
            continue
        if len(table) > cap:
            raise FileFormatError(
                f"has more than {cap:,} rows; split it into files of at most {cap:,} rows "
                "and import each",
                where=f"line {reader.line_num}",
            )
        table.append(row)
    return table


def header(data: bytes) -> list[str]:
    table = rows(data[:4096] + b"\n")
    return [cell.strip() for cell in table[0]] if table else []


def number(
    text: str | None,
    *,
    field: str,
    line: int,
    low: float,
    high: float,
    decimal: str = ".",
    thousands: str = ",",
) -> float | None:
    """A number in ``[low, high]`` or None when empty (``--`` counts as empty)."""
    text = (text or "").strip()
    if text in ("", "--", "-"):
        return None
    cleaned = text.replace("\xa0", "").replace(" ", "")
    if thousands:
        cleaned = cleaned.replace(thousands, "")
    if decimal != ".":
        cleaned = cleaned.replace(decimal, ".")
    try:
        value = float(cleaned)
    except ValueError as exc:
        raise FileFormatError(f"{field} {text!r} is not a number", where=f"line {line}") from exc
    if not low <= value <= high:
        raise FileFormatError(
            f"{field} {text} is out of range ({low:g} to {high:g})", where=f"line {line}"
        )
    return value


def integer(text: str | None, **kwargs) -> int | None:
    value = number(text, **kwargs)
    return None if value is None else round(value)


def clock(text: str | None, *, field: str, line: int) -> int | None:
    """Seconds from ``hh:mm:ss``, ``mm:ss`` or ``hh:mm:ss.f`` (``--`` is empty)."""
    text = (text or "").strip()
    if text in ("", "--"):
        return None
    parts = text.replace(",", ".").split(":")
    try:
        values = [float(p) for p in parts]
    except ValueError as exc:
        raise FileFormatError(f"{field} {text!r} is not hh:mm:ss", where=f"line {line}") from exc
    if not 1 <= len(values) <= 3:
        raise FileFormatError(f"{field} {text!r} is not hh:mm:ss", where=f"line {line}")
    seconds = 0.0
    for value in values:
        seconds = seconds * 60 + value
    return round(seconds)


def iso_date_or_datetime(
    text: str, *, line: int
) -> tuple[datetime.date | None, datetime.datetime | None]:
    """(date, None) for ``2026-11-20``; (None, datetime) for ``2026-11-20T07:30[:00][+01:00]``
    (a naive date-time is in the athlete's time zone)."""
    text = (text or "").strip()
    try:
        if len(text) == 10:
            return datetime.date.fromisoformat(text), None
        return None, datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise FileFormatError(
            f"date {text!r} is not an ISO date (2026-11-20) or date-time (2026-11-20T07:30)",
            where=f"line {line}",
        ) from exc
