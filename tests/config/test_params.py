"""Dates and ids taken from URLs (``config.params``, issue 18 item 10): out of range is a 404 that
says what the page accepts, never a 500."""

from __future__ import annotations

import datetime

import pytest
from django.http import Http404
from django.urls import reverse

from chat.models import Conversation
from config.params import MAX_ID, date_param, id_param, int_param
from nutrition.access import household_for
from tests.factories import build_program

TODAY = datetime.date(2026, 11, 25)


@pytest.fixture
def athlete(db, client):
    program = build_program(weeks=1, sessions=1, exercises=1)
    Conversation.objects.create(program=program, athlete=program.athlete)
    household_for(program.athlete, create=True)
    client.force_login(program.athlete)
    return program.athlete


@pytest.mark.parametrize("week", ["9999-12-31", "0001-01-01"])
def test_meal_plan_at_the_ends_of_the_calendar_is_a_404_naming_the_range(client, athlete, week):
    response = client.get(reverse("nutrition:meals"), {"week": week})
    assert response.status_code == 404
    assert "week must be between 2000-01-01 and 2100-12-31" in response.content.decode()


def test_meal_plan_week_that_is_not_a_date_is_a_404_that_says_so(client, athlete):
    response = client.get(reverse("nutrition:meals"), {"week": "next-tuesday"})
    assert response.status_code == 404
    assert "week must be a date written YYYY-MM-DD (got &#x27;next-tuesday&#x27;)" in (
        response.content.decode()
    )


def test_meal_plan_range_is_a_setting_kept_a_month_inside_python_dates(client, athlete, settings):
    settings.URL_DATE_MAX = "9999-12-31"
    settings.URL_DATE_MIN = "0001-01-01"
    response = client.get(reverse("nutrition:meals"), {"week": "9999-12-31"})
    assert response.status_code == 404
    assert "between 0001-02-01 and 9999-11-30" in response.content.decode()
    # the last week is shown, without a link to the week after it (which can't be shown)
    response = client.get(reverse("nutrition:meals"), {"week": "9999-11-30"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "← Previous week" in html
    assert "Next week →" not in html
    html = client.get(reverse("nutrition:meals"), {"week": "0001-02-01"}).content.decode()
    assert "← Previous week" not in html  # a Thursday: the week before ends before the range
    html = client.get(reverse("nutrition:meals"), {"week": "0001-02-08"}).content.decode()
    assert "?week=0001-02-01" in html


def test_meal_plan_links_stop_at_the_configured_range(client, athlete):
    html = client.get(reverse("nutrition:meals"), {"week": "2100-12-31"}).content.decode()
    assert "Next week →" not in html
    assert "?week=2100-12-20" in html  # the week before is still there
    html = client.get(reverse("nutrition:meals"), {"week": "2000-01-05"}).content.decode()
    assert "← Previous week" in html  # 1999-12-27's week still holds 2000-01-01 and 02
    assert "?week=2000-01-01" in html  # its first day the range holds: the link works
    assert client.get(reverse("nutrition:meals"), {"week": "2000-01-01"}).status_code == 200


@pytest.mark.parametrize("number", [str(2**63), "9" * 40])
def test_program_panel_for_a_number_past_any_id_is_a_404(client, athlete, number):
    response = client.get(reverse("chat:program"), {"program": number})
    assert response.status_code == 404


@pytest.mark.parametrize("number", [2**63, 10**30])
def test_an_id_past_a_64_bit_key_in_a_path_is_a_404(client, athlete, number):
    response = client.get(f"/conversations/{number}/feed/")
    assert response.status_code == 404


def test_the_largest_id_still_routes(client, athlete):
    response = client.get(f"/conversations/{MAX_ID}/feed/")
    assert response.status_code == 204  # no such conversation: nothing new in it


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        *[("12", 12), (str(MAX_ID), MAX_ID), (str(MAX_ID + 1), None), ("-1", None)],
        *[("\u0661", None), ("", None), (None, None), ("1e3", None)],
    ],
)
def test_id_param(raw, expected):
    assert id_param(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("3", 3), ("", 7), (None, 7), ("x", 7), ("-4", 0), ("9" * 5000, 1000), ("-" + "9" * 50, 0)],
)
def test_int_param(raw, expected):
    assert int_param(raw, default=7) == expected


def test_date_param_keeps_the_default_for_nothing(settings):
    assert date_param("", default=TODAY, name="date") == TODAY
    assert date_param("2026-11-02", default=TODAY, name="date") == datetime.date(2026, 11, 2)
    with pytest.raises(Http404, match="date must be between"):
        date_param("2101-01-01", default=TODAY, name="date")
    with pytest.raises(Http404, match="YYYY-MM-DD"):
        date_param("20261102", default=TODAY, name="date")


def test_the_calendar_reads_the_same_range(client, athlete, settings):
    settings.URL_DATE_MAX = "9999-12-31"
    settings.URL_DATE_MIN = "0001-01-01"
    for date in ("9999-11-30", "0001-02-01"):
        for view in ("month", "week"):
            response = client.get(reverse("training:calendar"), {"date": date, "view": view})
            assert response.status_code == 200, (date, view)
    response = client.get(reverse("training:calendar"), {"date": "9999-12-31"})
    assert response.status_code == 400
    assert "The calendar shows 0001-02-01 to 9999-11-30" in response.content.decode()
