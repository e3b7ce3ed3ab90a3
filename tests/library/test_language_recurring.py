"""A library workout repeated on the calendar in everyday words (``library.tools.language``):
"every monday" with no end runs to the plan's last day (the most the calendar holds), a span is
counted in the repeat's own steps ("every day for 2 weeks" is 14), what no daily or weekly repeat
says is refused in words, and the title may follow "the" and precede "workout"."""

from __future__ import annotations

import datetime

import pytest

from coach.llm.base import Turn, World
from coach.llm.offline.understand import understand
from coach.tools.base import ToolContext
from library.tools.said import count_said
from tests.factories import LibraryWorkoutFactory, ProgramFactory, UserFactory, WeekFactory

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 26)  # a Thursday


@pytest.fixture
def program():
    """Four weeks from Monday 16 November: the plan ends on Sunday 13 December."""
    athlete = UserFactory()
    program = ProgramFactory(athlete=athlete, start_date=datetime.date(2026, 11, 16))
    for _ in range(4):
        WeekFactory(program=program)
    for title in ("Kettlebell Complex", "Hill Repeats"):
        LibraryWorkoutFactory(owner=athlete, title=title)
    return program


def read(program, text: str):
    ctx = ToolContext(athlete=program.athlete, program=program, user=program.athlete)
    world = World(ctx=ctx, today=TODAY, turns=[Turn(role="user", content=text)])
    return understand(text, world)


def calls(program, text: str) -> list[tuple[str, dict]]:
    found = read(program, text)
    assert found is not None and found.ask is None and not found.problem, (text, found)
    return [(c.name, c.arguments) for c in found.calls]


def pk(title: str) -> int:
    return LibraryWorkoutFactory._meta.model.objects.get(title=title).pk


@pytest.mark.parametrize(
    ("text", "title", "extra"),
    [
        (
            "put the Kettlebell Complex on my calendar every monday",
            "Kettlebell Complex",
            {"date": "2026-11-30", "recurrence": "weekly", "until": "2026-12-13"},
        ),
        (
            "pop Hill Repeats in every wednesday pls",
            "Hill Repeats",
            {"date": "2026-12-02", "recurrence": "weekly", "until": "2026-12-13"},
        ),
        (
            "add Hill Repeats to my calendar on saturdays",
            "Hill Repeats",
            {"date": "2026-11-28", "recurrence": "weekly", "until": "2026-12-13"},
        ),
        (
            "schedule Hill Repeats every day for 2 weeks starting tomorrow",
            "Hill Repeats",
            {"date": "2026-11-27", "recurrence": "daily", "count": 14},
        ),
        (
            "put Hill Repeats on my schedule every day for a week starting tomorrow",
            "Hill Repeats",
            {"date": "2026-11-27", "recurrence": "daily", "count": 7},
        ),
        (
            "schedule the Kettlebell Complex every tuesday for 3 weeks",
            "Kettlebell Complex",
            {"date": "2026-12-01", "recurrence": "weekly", "count": 3},
        ),
        (
            "can you put the Hill Repeats workout on my calendar for tomorrow",
            "Hill Repeats",
            {"date": "2026-11-27"},
        ),
    ],
)
def test_a_repeat_is_scheduled_as_said(program, text, title, extra):
    assert calls(program, text) == [("add_workout_to_calendar", {"workout_id": pk(title), **extra})]


@pytest.mark.parametrize(
    "text",
    [
        "schedule Hill Repeats every other day",
        "put Hill Repeats on my calendar every monday and thursday",
        "schedule Hill Repeats every weekday",
        "schedule Hill Repeats twice a week",
    ],
)
def test_a_repeat_no_daily_or_weekly_schedule_says_is_refused_in_words(program, text):
    found = read(program, text)
    assert found.calls == [] and "every day or every week" in found.problem


def test_an_end_that_is_no_count_is_asked_with_chips_that_schedule(program):
    found = read(program, "schedule Hill Repeats every monday until christmas")
    assert found.calls == [] and found.ask is not None
    assert [calls(program, chip) for chip in found.ask.options] == [
        [
            (
                "add_workout_to_calendar",
                {"workout_id": pk("Hill Repeats"), "date": "2026-11-30", "recurrence": "weekly"}
                | {"count": n},
            )
        ]
        for n in (4, 8)
    ]


def test_every_day_to_a_plan_end_beyond_the_tools_52_times_is_asked():
    athlete = UserFactory()
    program = ProgramFactory(athlete=athlete, start_date=datetime.date(2026, 11, 16))
    for _ in range(12):
        WeekFactory(program=program)
    LibraryWorkoutFactory(owner=athlete, title="Hill Repeats")
    found = read(program, "schedule Hill Repeats every day starting tomorrow")
    assert found.calls == [] and found.ask.question.startswith("How many times")
    weekly = calls(program, "schedule Hill Repeats every monday")  # 10 Mondays: within 52
    assert weekly[0][1]["until"] == "2027-02-07"


def test_every_monday_without_a_program_asks_how_many_times():
    athlete = UserFactory()
    LibraryWorkoutFactory(owner=athlete, title="Hill Repeats")
    world = World(ctx=ToolContext(athlete=athlete, program=None), today=TODAY)
    found = understand("schedule Hill Repeats every monday", world)
    assert found.calls == [] and found.ask.question.startswith("How many times")


@pytest.mark.parametrize(
    ("text", "recurrence", "count"),
    [
        ("for three weeks", "weekly", 3),
        ("for 2 weeks", "daily", 14),
        ("for a week", "daily", 7),
        ("for a week", "weekly", 1),
        ("for 14 days", "weekly", 2),
        ("for 10 days", "weekly", None),  # no whole weeks: asked
        ("6 times", "daily", 6),
        ("for the next 60 days", "daily", 60),
        ("every monday", "weekly", None),
    ],
)
def test_a_span_is_counted_in_the_repeats_steps(text, recurrence, count):
    assert count_said(text, recurrence) == count


def test_a_stretching_search_for_a_body_part_keeps_both(program):
    [(name, arguments)] = calls(program, "do you have any stretching routines for tight hips")
    assert name == "search_workout_library"
    assert "stretching" in arguments["query"] and "hips" in arguments["query"]
