"""Expanding "this date, weekly, 4 times" into concrete dates: a pure function over dateutil's
rrule, with the bounds checked before anything is generated."""

from __future__ import annotations

import datetime
from itertools import islice
from typing import Any

from dateutil.rrule import DAILY, WEEKLY, rrule

MAX_OCCURRENCES = 52
RECURRENCES = {"daily": DAILY, "weekly": WEEKLY}


def as_date(value: Any, name: str) -> datetime.date:
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise ValueError(f"{name} must be a date in YYYY-MM-DD form (got {value!r:.40}).")


def expand_dates(
    *,
    start: datetime.date | str,
    recurrence: str | None = None,
    until: datetime.date | str | None = None,
    count: int | None = None,
) -> list[datetime.date]:
    """The dates of a single or recurring schedule, in order, at most 52.

    ``recurrence`` None: just ``start`` (``until`` and ``count`` are then an error). "daily" or
    "weekly": from ``start`` until ``until`` (inclusive) or for ``count`` occurrences; exactly one
    of the two. Raises ``ValueError`` naming the bounds."""
    first = as_date(start, "start")
    if recurrence is None:
        if until is not None or count is not None:
            raise ValueError("until and count only apply with a recurrence (daily or weekly).")
        return [first]
    if recurrence not in RECURRENCES:
        raise ValueError(
            f"recurrence must be one of {', '.join(RECURRENCES)} or none (got {recurrence!r:.40})."
        )
    if (until is None) == (count is None):
        raise ValueError(
            f"A {recurrence} recurrence needs exactly one end: until (a date) or count "
            f"(1 to {MAX_OCCURRENCES})."
        )
    if count is not None:
        if isinstance(count, bool) or not isinstance(count, int):
            raise ValueError(f"count must be a whole number from 1 to {MAX_OCCURRENCES}.")
        if not 1 <= count <= MAX_OCCURRENCES:
            raise ValueError(
                f"count must be from 1 to {MAX_OCCURRENCES} occurrences (got {count})."
            )
        rule = rrule(RECURRENCES[recurrence], dtstart=first, count=count)
    else:
        last = as_date(until, "until")
        if last < first:
            raise ValueError(
                f"until ({last.isoformat()}) is before the start ({first.isoformat()})."
            )
        rule = rrule(RECURRENCES[recurrence], dtstart=first, until=last)
    # One more than allowed tells "too many" without generating an unbounded list.
    dates = [moment.date() for moment in islice(rule, MAX_OCCURRENCES + 1)]
    if len(dates) > MAX_OCCURRENCES:
        raise ValueError(
            f"A {recurrence} schedule from {first.isoformat()} to {as_date(until, 'until')} "
            f"would make more than {MAX_OCCURRENCES} sessions; at most {MAX_OCCURRENCES}."
        )
    return dates
