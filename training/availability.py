"""The days an athlete can't train on: marked and cleared by the athlete on their calendar page,
shown to their coach on the coach's calendar, and the schedule family's rule for the dry run.

**Marking.** Only the athlete marks or clears their own days (``mark``, ``clear``): a day is a
date inside the calendar's bounds, with an optional note of at most ``NOTE_CHARS`` characters; an
athlete keeps at most ``MAX_MARKED`` marked days from today on (bounded consumption per user).
Marking a day already marked updates its note.

**The rule** (``RULES`` in ``training.tools``, found by ``coach.rules``): the dry run of any change
(the chat's card, the coach's calendar, the program editor) warns, in words, for each session the
change puts on such a day: a session that was not there before the run and is there after it, so
a session already sitting on a marked day is not warned about again by an unrelated change. It
warns and never refuses: the coach may know better (a race day the athlete forgot), and the
athlete reads the warning on the card before pressing Apply.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import IntegrityError, transaction

from coach.vocabulary import DAY_NAMES
from config.params import date_bounds

from .calendar import dated_sessions
from .models import UnavailableDay

MAX_MARKED = 120  # marked days from today on, per athlete
NOTE_CHARS = 120


class AvailabilityError(ValueError):
    """A day that can't be marked; the message says why, for a person."""


def parse_day(raw: Any) -> datetime.date:
    text = str(raw or "").strip()
    try:
        day = datetime.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise AvailabilityError(f"Choose the day as YYYY-MM-DD (got {text[:20]!r}).")
    earliest, latest = date_bounds()
    if not earliest <= day <= latest:
        raise AvailabilityError(
            f"The day must be between {earliest.isoformat()} and {latest.isoformat()}."
        )
    return day


def mark(
    *, athlete: Any, day: datetime.date, note: str = "", today: datetime.date
) -> UnavailableDay:
    """Mark ``day`` as one ``athlete`` can't train on (again: its note is updated)."""
    note = " ".join(str(note or "").split())
    if len(note) > NOTE_CHARS:
        raise AvailabilityError(f"The note is {len(note)} characters; keep it to {NOTE_CHARS}.")
    with transaction.atomic():
        existing = UnavailableDay.objects.select_for_update().filter(athlete=athlete, date=day)
        found = existing.first()
        if found is not None:
            found.note = note
            found.save(update_fields=["note"])
            return found
        ahead = UnavailableDay.objects.filter(athlete=athlete, date__gte=today).count()
        if day >= today and ahead >= MAX_MARKED:
            raise AvailabilityError(
                f"You have {ahead} days marked from today on, the most there can be; clear some "
                "first."
            )
        try:
            with transaction.atomic():
                return UnavailableDay.objects.create(athlete=athlete, date=day, note=note)
        except IntegrityError:  # marked at the same moment from another tab
            return UnavailableDay.objects.get(athlete=athlete, date=day)


def clear(*, athlete: Any, mark_id: int) -> datetime.date | None:
    """Clear one of ``athlete``'s own marks; None when there is no such mark of theirs (someone
    else's mark is "not found", never "forbidden")."""
    found = UnavailableDay.objects.filter(pk=mark_id, athlete=athlete).first()
    if found is None:
        return None
    found.delete()
    return found.date


def _on_marked_days(ctx: Any) -> dict[int, tuple[datetime.date, str]]:
    if getattr(ctx, "program", None) is None or ctx.athlete is None:
        return {}
    marked = UnavailableDay.objects.filter(athlete=ctx.athlete).values("date")
    return dated_sessions(program_id=ctx.program.pk, dates=marked)


class UnavailableDaysRule:
    """The dry run's warning for a session put on a day the athlete can't train (``coach.rules``):
    ``before`` is read before the run, ``warnings`` inside it, before the rollback."""

    name = "unavailable_days"

    def before(self, ctx: Any) -> set[tuple[int, datetime.date]]:
        return {(pk, day) for pk, (day, _) in _on_marked_days(ctx).items()}

    def warnings(self, ctx: Any, before: set[tuple[int, datetime.date]]) -> list[str]:
        return [
            f"{where} falls on {day.isoformat()} ({DAY_NAMES[day.weekday()]}), a day the athlete "
            "marked as one they can't train on."
            for pk, (day, where) in _on_marked_days(ctx).items()
            if (pk, day) not in before
        ]


RULE = UnavailableDaysRule()
