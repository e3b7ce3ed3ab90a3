"""Lighter or realigned plans and one-off workouts in everyday words (training.tools.language)."""

from __future__ import annotations

import pytest

from .language_helpers import calls, grid, say

pytestmark = pytest.mark.django_db


@pytest.fixture
def program():
    return grid()


@pytest.mark.parametrize(
    ("message", "days"),
    [
        ("I'm wiped out, make the next week easier", 7),
        ("I've been sick, go easy on me for the next five days", 5),
        ("make the next 4 days lighter", 4),
        ("lighten the plan for the next two weeks", 14),
        ("take it easy this week", 7),
        ("i need to lighten things up for the next 5 days", 5),  # blind set 3
    ],
)
def test_lighter_days(program, message, days):
    assert calls(program, message) == [("lighten_plan", {"days": days})]


def test_a_few_days_is_a_question_with_day_counts_as_chips(program):
    understood = say(program, "go easy on me for a few days")
    assert understood.ask is not None and not understood.calls
    assert calls(program, understood.ask.options[1]) == [("lighten_plan", {"days": 5})]
    assert say(program, "lighten up my plan, I'm tired").ask.options == understood.ask.options


def test_a_lighter_stretch_beyond_the_bounds_names_them(program):
    understood = say(program, "make the next 20 days easier")
    assert "3 to 14" in understood.problem and not understood.calls


@pytest.mark.parametrize(
    "message",
    ["I missed a few days, can you realign my plan?", "realign my program", "get me back on track"],
)
def test_realign(program, message):
    assert calls(program, message) == [("realign_plan", {})]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "add an easy 30 minute run on saturday",
            {"date": "2026-11-28", "sport": "RUNNING", "duration": 30, "intensity": "easy"},
        ),
        (
            "put a 1 hour bike ride on sunday",
            {"date": "2026-11-29", "sport": "CYCLING", "duration": 60},
        ),
        (
            "schedule a 45 min swim tomorrow",
            {"date": "2026-11-27", "sport": "SWIMMING", "duration": 45},
        ),
        (
            "add a half hour swim tomorrow",
            {"date": "2026-11-27", "sport": "SWIMMING", "duration": 30},
        ),
        (
            "add a 40 minute interval run the day after tomorrow at 4:30 per km",
            {
                "date": "2026-11-28",
                "sport": "RUNNING",
                "duration": 40,
                "intensity": "intervals",
                "target_pace": "4:30 /km",
            },
        ),
        (
            "add a 10 km run on saturday",
            {"date": "2026-11-28", "sport": "RUNNING", "description": "10 km"},
        ),
        (
            "Add a 40-minute tempo run on Saturday",
            {"date": "2026-11-28", "sport": "RUNNING", "duration": 40, "intensity": "tempo"},
        ),
    ],
)
def test_a_one_off_workout_with_its_units(program, message, expected):
    [(name, arguments)] = calls(program, message)
    assert name == "create_custom_workout"
    assert {k: arguments.get(k) for k in expected} == expected
    assert arguments["name"]


def test_a_pace_written_per_km_without_spaces(program):
    [(_, arguments)] = calls(program, "add a 8 km tempo run next tuesday at 4:45/km")
    assert arguments["target_pace"] == "4:45 /km" and arguments["date"] == "2026-12-01"
    assert arguments["description"] == "8 km"


def test_a_workout_without_a_sport_asks_which(program):
    understood = say(program, "schedule an interval session on saturday")
    assert understood.ask is not None and not understood.calls
    [(name, arguments)] = calls(program, understood.ask.options[1])
    assert (name, arguments["sport"], arguments["intensity"]) == (
        "create_custom_workout",
        "CYCLING",
        "intervals",
    )


def test_a_duration_beyond_the_bounds_is_refused(program):
    understood = say(program, "add a 2 minute run tomorrow")
    assert "5 to 600" in understood.problem and not understood.calls
