"""A session said in one clause and moved in the next (training.tools.language): "I missed
yesterday's session, can we do it tomorrow", "tomorrow's session can wait, push it back a day".
"it" / "that one" is the session just named; a session said as missed is in the past; no day said
is a question whose chips are understood; words before it that ask for more are never one move."""

from __future__ import annotations

import pytest

from .language_helpers import calls, grid, ref, say

pytestmark = pytest.mark.django_db

# Today is Thursday 26 November 2026 (week 2): yesterday is Upper Body A, tomorrow Lower Body B.


@pytest.fixture
def program():
    return grid()


def move(week: int, day: str, new_date: str):
    return [
        (
            "reschedule_workout",
            {"workout_id": ref(week, day), "new_date": new_date, "strategy": "swap"},
        )
    ]


@pytest.mark.parametrize(
    ("message", "week", "day", "new_date"),
    [
        ("I missed yesterday's session, can we do it tomorrow", 2, "Upper Body A", "2026-11-27"),
        (
            "didnt get to yesterdays workout, can i make it up tomorrow",
            2,
            "Upper Body A",
            "2026-11-27",
        ),
        (
            "i skipped yesterday's session. could we do that one the day after tomorrow?",
            2,
            "Upper Body A",
            "2026-11-28",
        ),
        ("forgot about today's workout, fit it in tomorrow", 2, "Tempo Run", "2026-11-27"),
        ("tomorrow's session can wait, push it back a day pls", 2, "Lower Body B", "2026-11-28"),
        (
            "legs are still fried, tomorrow's session can wait, push it back a day",
            2,
            "Lower Body B",
            "2026-11-28",
        ),
        # Missed is in the past: Sunday's long run is last Sunday's (week 1), not this week's.
        ("i missed my long run on sunday, can i do it on saturday", 1, "Long Run", "2026-11-28"),
        ("I missed sunday's session, move it to tomorrow", 1, "Long Run", "2026-11-27"),
    ],
)
def test_the_session_said_first_moves_to_the_day_said_after(program, message, week, day, new_date):
    assert calls(program, message) == move(week, day, new_date)


def test_and_push_the_rest_after_the_day_pushes(program):
    message = "I missed yesterday's session, can we do it tomorrow and push the rest"
    [(name, arguments)] = calls(program, message)
    assert (name, arguments["new_date"], arguments["strategy"]) == (
        "reschedule_workout",
        "2026-11-27",
        "push",
    )


def test_a_missed_session_with_no_day_asks_which_with_chips_that_move_it(program):
    understood = say(program, "missed today's workout, can we do it some other day?")
    assert understood.calls == [] and understood.ask is not None
    assert understood.ask.question == "To which day should Tempo Run (Thursday, November 26) move?"
    assert [calls(program, chip) for chip in understood.ask.options] == [
        move(2, "Tempo Run", "2026-11-27"),
        move(2, "Tempo Run", "2026-11-28"),
    ]


@pytest.mark.parametrize(
    "message",
    [
        "is it bad that i missed yesterday's workout?",
        "I missed yesterday's session",
        # More is asked before the session: one move would leave the skip out.
        "skip friday, tomorrow's session can wait, push it back a day",
    ],
)
def test_what_asks_for_no_move_or_for_more_is_never_one_move(program, message):
    understood = say(program, message)
    assert understood is None or not any(c.name == "reschedule_workout" for c in understood.calls)
