"""The iCal feed, read back with the icalendar library as a calendar app would."""

import datetime

import pytest
from icalendar import Calendar

from library.feed import (
    build_feed,
    feed_by_token,
    feed_for,
    rotate_feed_token,
    sync_feed_events,
    sync_feed_events_for,
)
from library.models import FeedEvent
from programs import services as program_services
from programs.models import Session
from tests.factories import CardioBlockFactory, UserFactory, build_program

D = datetime.date


@pytest.fixture
def program(db):
    """Two weeks × three sessions (Mon, Tue, Wed) of two exercises."""
    return build_program(weeks=2, sessions=3, exercises=2, name="Base Block")


@pytest.fixture
def feed(program):
    return feed_for(athlete=program.athlete)


def _events(feed):
    calendar = Calendar.from_ical(build_feed(feed=feed))
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


def _uid(session):
    return f"session-{session.pk}@spotter"


def test_every_scheduled_session_is_an_all_day_event_with_a_stable_uid(program, feed):
    Session.objects.filter(week__program=program, position=3).update(scheduled_date=None)
    calendar = Calendar.from_ical(build_feed(feed=feed))
    assert str(calendar["VERSION"]) == "2.0"
    events = {str(e["UID"]): e for e in calendar.walk("VEVENT")}
    dated = Session.objects.filter(week__program=program, scheduled_date__isnull=False)
    assert set(events) == {_uid(s) for s in dated}
    first = dated.get(week__position=1, position=1)
    event = events[_uid(first)]
    assert event.decoded("DTSTART") == D(2026, 11, 2)
    assert event.decoded("DTEND") == D(2026, 11, 3)
    assert not isinstance(event.decoded("DTSTART"), datetime.datetime)
    assert b"DTSTART;VALUE=DATE:20261102" in build_feed(feed=feed)
    assert str(event["SUMMARY"]) == "Session 1"
    assert str(event["STATUS"]) == "CONFIRMED"
    assert int(event["SEQUENCE"]) == 0
    assert "Back Squat: 3 × 8-10 @ 135 lbs" in str(event["DESCRIPTION"])
    assert "Base Block, week 1" in str(event["DESCRIPTION"])
    assert _events(feed).keys() == events.keys()  # same UIDs on every download


def test_a_cardio_block_and_completion_are_in_the_description(program, feed):
    session = Session.objects.filter(week__program=program).first()
    CardioBlockFactory(session=session, type="zone2", duration=30, modality="Running")
    Session.objects.filter(pk=session.pk).update(completed=True)
    description = str(_events(feed)[_uid(session)]["DESCRIPTION"])
    assert "Zone 2 Running 30 min" in description and description.endswith("Completed.")


def test_moving_a_session_raises_its_sequence_once(program, feed):
    session = Session.objects.get(week__program=program, week__position=1, position=2)
    assert int(_events(feed)[_uid(session)]["SEQUENCE"]) == 0
    Session.objects.filter(pk=session.pk).update(scheduled_date=D(2026, 11, 6))
    moved = _events(feed)[_uid(session)]
    assert moved.decoded("DTSTART") == D(2026, 11, 6)
    assert int(moved["SEQUENCE"]) == 1
    assert int(_events(feed)[_uid(session)]["SEQUENCE"]) == 1  # unchanged on the next download


def test_renaming_a_session_raises_its_sequence(program, feed):
    session = Session.objects.filter(week__program=program).first()
    _events(feed)
    Session.objects.filter(pk=session.pk).update(name="Heavy Day")
    event = _events(feed)[_uid(session)]
    assert (str(event["SUMMARY"]), int(event["SEQUENCE"])) == ("Heavy Day", 1)


def test_a_removed_session_stays_as_a_cancelled_event_with_a_higher_sequence(program, feed):
    session = Session.objects.get(week__program=program, week__position=2, position=1)
    uid, pk = _uid(session), session.pk
    _events(feed)
    program_services.session_remove(session=session)
    event = _events(feed)[uid]
    assert str(event["STATUS"]) == "CANCELLED"
    assert int(event["SEQUENCE"]) == 1
    assert event.decoded("DTSTART") == D(2026, 11, 9)
    assert "DESCRIPTION" not in event
    assert int(_events(feed)[uid]["SEQUENCE"]) == 1  # a tombstone is numbered once
    assert FeedEvent.objects.get(session_pk=pk).cancelled_at is not None


def test_a_session_that_gets_its_date_back_is_confirmed_again(program, feed):
    session = Session.objects.filter(week__program=program).first()
    _events(feed)
    Session.objects.filter(pk=session.pk).update(scheduled_date=None)
    assert str(_events(feed)[_uid(session)]["STATUS"]) == "CANCELLED"
    Session.objects.filter(pk=session.pk).update(scheduled_date=D(2026, 11, 7))
    event = _events(feed)[_uid(session)]
    assert (str(event["STATUS"]), int(event["SEQUENCE"])) == ("CONFIRMED", 2)


def test_the_feed_holds_only_the_athletes_own_sessions(program, feed):
    other = build_program(weeks=1, sessions=2, exercises=1)
    uids = set(_events(feed))
    assert not uids & {_uid(s) for s in Session.objects.filter(week__program=other)}
    assert len(uids) == 6


def test_sync_for_an_athlete_numbers_a_move_without_a_download(program, feed):
    session = Session.objects.filter(week__program=program).first()
    sync_feed_events(feed=feed)
    Session.objects.filter(pk=session.pk).update(scheduled_date=D(2026, 11, 5))
    assert sync_feed_events_for(athlete=program.athlete) == 6
    assert FeedEvent.objects.get(session_pk=session.pk).sequence == 1
    assert sync_feed_events_for(athlete=UserFactory()) == 0


def test_rotating_the_token_retires_the_old_one(program, feed):
    old = feed.token
    assert feed_by_token(token=old) == feed
    rotated = rotate_feed_token(athlete=program.athlete)
    assert rotated.pk == feed.pk and rotated.token != old and len(rotated.token) >= 40
    assert feed_by_token(token=old) is None
    assert feed_by_token(token=rotated.token) == feed
    assert rotated.rotated_at is not None


def test_feed_for_returns_the_same_feed_each_time(program, feed):
    assert feed_for(athlete=program.athlete).token == feed.token


@pytest.mark.parametrize("token", ["", "short", "x" * 65, None])
def test_malformed_tokens_find_no_feed(feed, token):
    assert feed_by_token(token=token) is None


def test_an_inactive_athletes_feed_is_gone(program, feed):
    program.athlete.is_active = False
    program.athlete.save()
    assert feed_by_token(token=feed.token) is None


def test_the_feed_takes_the_same_number_of_queries_for_any_program_size(
    db, django_assert_max_num_queries
):
    small = build_program(weeks=1, sessions=2, exercises=1)
    big = build_program(weeks=52, sessions=6, exercises=5)
    small_feed, big_feed = feed_for(athlete=small.athlete), feed_for(athlete=big.athlete)
    build_feed(feed=big_feed)  # the first download creates every event row in one bulk insert
    Session.objects.filter(week__program=big, week__position__in=[3, 9, 27]).update(
        scheduled_date=D(2030, 1, 1)
    )
    with django_assert_max_num_queries(9) as small_queries:
        build_feed(feed=small_feed)
    with django_assert_max_num_queries(len(small_queries) + 1):
        ical = build_feed(feed=big_feed)
    events = Calendar.from_ical(ical).walk("VEVENT")
    assert len(events) == 52 * 6
    assert sum(int(e["SEQUENCE"]) for e in events) == 3 * 6
