"""What a URL may carry, parsed in one place: dates, ids and small counts, from its path or its
query string (issue 18 item 10).

Every view takes a date or an id from a URL through here, so nothing a person can type reaches
the database or date arithmetic unchecked: a date outside ``URL_DATE_MIN``..``URL_DATE_MAX`` (a
week start minus a day at 0001-01-01, plus a week at 9999-12-31, overflowed) and an id past a
64-bit key (SQLite's ``OverflowError``, PostgreSQL's ``DataError``) are a 404 that says what the
page accepts, never a 500.

* ``<id:name>`` in a route: a database id, digits up to 2**63 - 1; a larger number matches no
  route (404). Registered here, and ``config.urls`` imports this module before any app's URLs.
* ``id_param``: the same rule for a query-string value (None when it isn't an id).
* ``date_param``: ``YYYY-MM-DD`` within the configured range, else ``Http404`` with the reason.
* ``int_param``: a small count (a week number, a poll attempt), clamped to 0..1,000.
"""

from __future__ import annotations

import datetime
import re

from django.conf import settings
from django.http import Http404
from django.urls import register_converter

MAX_ID = 2**63 - 1  # BigAutoField's largest key, on SQLite and PostgreSQL alike
MAX_COUNT = 1000
# a month inside the dates Python has, so a page can step a week or a month either way
EARLIEST = datetime.date(1, 2, 1)
LATEST = datetime.date(9999, 11, 30)
_DIGITS = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() also says yes to "١٢" and "²"


class IdConverter:
    """``<id:name>``: a database id, as ``<int:name>`` but never past a 64-bit key."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("not a database id")  # the route doesn't match: a 404
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(IdConverter, "id")


def id_param(raw: str | None) -> int | None:
    """A database id from the query string, or None when it isn't one (not digits, too big)."""
    if raw is None or not _DIGITS.fullmatch(raw):
        return None
    number = int(raw)
    return number if number <= MAX_ID else None


def int_param(raw: str | None, *, default: int) -> int:
    """A small count from the query string (a week number, a poll attempt): 0 to 1,000."""
    text = (raw or "").strip()
    if not text:
        return default
    if not re.fullmatch(r"-?[0-9]+", text):
        return default
    if len(text) > 6:  # far past MAX_COUNT either way; spares int() a huge string
        return 0 if text.startswith("-") else MAX_COUNT
    return max(0, min(int(text), MAX_COUNT))


def date_bounds() -> tuple[datetime.date, datetime.date]:
    """The dates a page's URL may name (settings ``URL_DATE_MIN``, ``URL_DATE_MAX``), kept a
    month inside the dates Python has (``EARLIEST``, ``LATEST``)."""
    return (
        max(datetime.date.fromisoformat(settings.URL_DATE_MIN), EARLIEST),
        min(datetime.date.fromisoformat(settings.URL_DATE_MAX), LATEST),
    )


def date_param(raw: str | None, *, default: datetime.date, name: str) -> datetime.date:
    """A date from the query string, ``YYYY-MM-DD``; empty means ``default``. Anything else, or
    a date outside ``date_bounds()``, is a 404 whose message names what is accepted."""
    text = (raw or "").strip()
    if not text:
        return default
    earliest, latest = date_bounds()
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
            raise ValueError(text)
        value = datetime.date.fromisoformat(text)
    except ValueError:
        raise Http404(f"{name} must be a date written YYYY-MM-DD (got {text[:20]!r}).") from None
    if not earliest <= value <= latest:
        raise Http404(
            f"{name} must be between {earliest.isoformat()} and {latest.isoformat()} "
            f"(got {value.isoformat()})."
        )
    return value
