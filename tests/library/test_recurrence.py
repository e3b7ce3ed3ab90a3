import datetime

import pytest

from library.recurrence import expand_dates

D = datetime.date


def test_no_recurrence_is_just_the_start_date():
    assert expand_dates(start=D(2026, 12, 1)) == [D(2026, 12, 1)]


def test_an_iso_string_start_is_accepted():
    assert expand_dates(start="2026-12-01") == [D(2026, 12, 1)]


def test_weekly_with_count_gives_that_many_dates_a_week_apart():
    assert expand_dates(start=D(2026, 12, 1), recurrence="weekly", count=4) == [
        D(2026, 12, 1),
        D(2026, 12, 8),
        D(2026, 12, 15),
        D(2026, 12, 22),
    ]


def test_daily_until_includes_the_until_date_and_crosses_a_month_end():
    assert expand_dates(start=D(2026, 11, 29), recurrence="daily", until=D(2026, 12, 2)) == [
        D(2026, 11, 29),
        D(2026, 11, 30),
        D(2026, 12, 1),
        D(2026, 12, 2),
    ]


def test_weekly_until_stops_on_or_before_until():
    dates = expand_dates(start=D(2026, 12, 1), recurrence="weekly", until="2026-12-21")
    assert dates == [D(2026, 12, 1), D(2026, 12, 8), D(2026, 12, 15)]


def test_exactly_52_occurrences_are_allowed():
    dates = expand_dates(start=D(2026, 1, 1), recurrence="weekly", count=52)
    assert len(dates) == 52 and dates[-1] == D(2026, 12, 24)
    until = expand_dates(start=D(2026, 1, 1), recurrence="daily", until=D(2026, 2, 21))
    assert len(until) == 52


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"recurrence": "weekly", "count": 53}, "from 1 to 52"),
        ({"recurrence": "daily", "count": 0}, "from 1 to 52"),
        ({"recurrence": "daily", "until": D(2026, 3, 1)}, "more than 52 sessions; at most 52"),
        ({"recurrence": "weekly", "until": D(2028, 1, 1)}, "more than 52 sessions"),
        ({"recurrence": "monthly", "count": 2}, "recurrence must be one of daily, weekly"),
        ({"recurrence": "weekly"}, "exactly one end: until (a date) or count (1 to 52)"),
        ({"recurrence": "weekly", "count": 2, "until": D(2026, 3, 1)}, "exactly one end"),
        ({"count": 3}, "only apply with a recurrence"),
        ({"recurrence": "daily", "until": D(2025, 12, 31)}, "is before the start"),
        ({"recurrence": "daily", "until": "next week"}, "until must be a date in YYYY-MM-DD"),
        ({"recurrence": "daily", "count": True}, "whole number from 1 to 52"),
    ],
)
def test_bad_recurrences_are_clear_errors(kwargs, message):
    with pytest.raises(ValueError) as error:
        expand_dates(start=D(2026, 1, 1), **kwargs)
    assert message in str(error.value)


def test_a_bad_start_is_a_clear_error():
    with pytest.raises(ValueError, match="start must be a date in YYYY-MM-DD form"):
        expand_dates(start="tomorrow")
