"""The athlete's calendar as an iCal feed at a secret address.

Every scheduled session (one with a ``scheduled_date``) of the athlete's programs is an all-day
VEVENT whose UID comes from the session's primary key, so calendar apps update it in place.
``FeedEvent`` rows remember what was last published: when a session moves (or is renamed) its
``SEQUENCE`` goes up; when it is removed (or loses its date) its row stays as a tombstone,
published as ``STATUS:CANCELLED`` with a higher sequence, so subscribed calendars drop it.

``sync_feed_events`` brings the rows up to date; the feed view calls it on every download, and
every committed change of the athlete's data calls it right after (``renumber_after_change``,
connected to the journal's ``changed`` signal in ``LibraryConfig.ready()``), so a move is
numbered by the change that made it even if nobody downloads in between.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from icalendar import Calendar, Event

from programs.models import Session

from .models import CalendarFeed, FeedEvent

PRODID = "-//Spotter//Training calendar//EN"
UID_DOMAIN = "spotter"
TOKEN_BYTES = 32
SUMMARY_CHARS = 200


def _new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def feed_for(*, athlete: Any) -> CalendarFeed:
    """The athlete's feed, created with a fresh token the first time."""
    feed = CalendarFeed.objects.filter(athlete=athlete).first()
    if feed is None:
        feed, _ = CalendarFeed.objects.get_or_create(
            athlete=athlete, defaults={"token": _new_token()}
        )
    return feed


@transaction.atomic
def rotate_feed_token(*, athlete: Any) -> CalendarFeed:
    """Give the feed a new secret token; the old address answers 404 from now on."""
    feed = feed_for(athlete=athlete)
    feed.token = _new_token()
    feed.rotated_at = timezone.now()
    feed.save(update_fields=["token", "rotated_at"])
    return feed


def feed_by_token(*, token: str) -> CalendarFeed | None:
    """The feed with this token, if its athlete is still active."""
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    return (
        CalendarFeed.objects.select_related("athlete")
        .filter(token=token, athlete__is_active=True)
        .first()
    )


@transaction.atomic
def sync_feed_events(*, feed: CalendarFeed) -> list[FeedEvent]:
    """Update the feed's events from the athlete's sessions; returns them all (cancelled ones
    included), by date. The feed row is locked so two downloads can't number a move twice."""
    CalendarFeed.objects.select_for_update().filter(pk=feed.pk).first()
    now = timezone.now()
    known = {event.session_pk: event for event in FeedEvent.objects.filter(feed=feed)}
    scheduled = Session.objects.filter(
        week__program__athlete_id=feed.athlete_id,
        week__program__as_template__isnull=True,  # a coach's template is nobody's plan
        scheduled_date__isnull=False,
    ).values_list("pk", "scheduled_date", "name")
    new, changed = [], []
    for pk, date, name in scheduled:
        summary = name[:SUMMARY_CHARS]
        event = known.pop(pk, None)
        if event is None:
            new.append(
                FeedEvent(feed=feed, session_pk=pk, date=date, summary=summary, updated_at=now)
            )
        elif event.cancelled_at is not None or event.date != date or event.summary != summary:
            event.date, event.summary, event.cancelled_at = date, summary, None
            changed.append(event)
    changed += [event for event in known.values() if event.cancelled_at is None]
    for event in changed:
        event.sequence += 1
        event.updated_at = now
        if event.session_pk in known:
            event.cancelled_at = now
    FeedEvent.objects.bulk_create(new)
    FeedEvent.objects.bulk_update(
        changed, ["date", "summary", "sequence", "cancelled_at", "updated_at"]
    )
    return list(FeedEvent.objects.filter(feed=feed).order_by("date", "session_pk"))


def sync_feed_events_for(*, athlete: Any) -> int:
    """After sessions of ``athlete`` changed: number the changes in their feed now. Returns how
    many events the feed holds (0 when the athlete has no feed yet: nothing to number)."""
    feed = CalendarFeed.objects.filter(athlete=athlete).first()
    return len(sync_feed_events(feed=feed)) if feed is not None else 0


def renumber_after_change(*, athlete: Any, **_signal: Any) -> None:
    """The receiver of ``journal.signals.changed``: a change set (or its undo) was committed."""
    sync_feed_events_for(athlete=athlete)


def _description(session: Session) -> str:
    program = session.week.program
    lines = [f"{program.name}, week {session.week.position} ({session.week.phase})"]
    lines += [
        f"{e.name}: {e.working_sets} × {e.reps} @ {e.target_load}" for e in session.exercises.all()
    ]
    cardio = getattr(session, "cardio", None)
    if cardio is not None:
        parts = [cardio.get_type_display(), cardio.modality, f"{cardio.duration} min"]
        lines.append(" ".join(part for part in parts if part))
    if session.completed:
        lines.append("Completed.")
    return "\n".join(lines)


def build_feed(*, feed: CalendarFeed) -> bytes:
    """The feed as iCalendar bytes (RFC 5545), events brought up to date first."""
    events = sync_feed_events(feed=feed)
    live_pks = [e.session_pk for e in events if e.cancelled_at is None]
    sessions = (
        Session.objects.filter(pk__in=live_pks)
        .select_related("week__program", "cardio")
        .prefetch_related("exercises")
        .in_bulk()
    )
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", f"Spotter: {feed.athlete.get_username()}")
    calendar.add("x-published-ttl", "PT1H")
    for event in events:
        calendar.add_component(_vevent(event, sessions.get(event.session_pk)))
    return calendar.to_ical()


def _vevent(event: FeedEvent, session: Session | None) -> Event:
    vevent = Event()
    vevent.add("uid", f"session-{event.session_pk}@{UID_DOMAIN}")
    vevent.add("dtstamp", event.updated_at)
    vevent.add("last-modified", event.updated_at)
    vevent.add("dtstart", event.date)
    vevent.add("dtend", event.date + datetime.timedelta(days=1))
    vevent.add("summary", event.summary)
    vevent.add("sequence", event.sequence)
    vevent.add("transp", "TRANSPARENT")
    if event.cancelled_at is not None or session is None:
        vevent.add("status", "CANCELLED")
    else:
        vevent.add("status", "CONFIRMED")
        vevent.add("description", _description(session))
    return vevent
