"""Being ill and other round-2 sentences of the schedule family (issue 20): "I'm sick" with no
session or days named is a question with chips (skip today's session, or the next days lighter),
never a guessed write; a named session is a skip with its reason; a lighter plan reads a feeling
said after it, but not another request; a physio session is no workout done."""

from __future__ import annotations

import pytest

from .language_helpers import calls, grid, ref, say


@pytest.fixture
def program(db):
    return grid()


@pytest.mark.parametrize(
    "message", ["I'm sick", "im sick, cant train", "feeling under the weather", "i have a cold"]
)
def test_sick_with_nothing_named_asks_which_change_with_chips(program, message):
    understood = say(program, message)
    assert understood is not None and understood.ask is not None and not understood.calls
    assert "Tempo Run" in understood.ask.question  # today's session, named
    options = understood.ask.options
    assert options[0] == "skip today's workout because I'm sick"
    assert calls(program, options[0]) == [
        ("skip_workout", {"workout_id": ref(2, "Tempo Run"), "reason": "I'm sick"})
    ]
    assert calls(program, options[1]) == [("lighten_plan", {"days": 3})]


@pytest.mark.parametrize(
    ("message", "day"),
    [
        ("can't train today, I'm sick", "Tempo Run"),
        ("im sick, cant train today", "Tempo Run"),
        ("skip tomorrow, im sick", "Lower Body B"),
    ],
)
def test_sick_with_the_session_named_is_a_skip_with_its_reason(program, message, day):
    ((name, args),) = calls(program, message)
    assert name == "skip_workout" and args["workout_id"] == ref(2, day)
    assert "sick" in args["reason"].lower()


def test_sick_of_something_is_not_being_ill(program):
    understood = say(program, "im sick of squats")
    assert understood is None or understood.ask is None


def test_a_lighter_plan_reads_a_feeling_said_after_it_but_not_another_request(program):
    assert calls(program, "make the next 4 days easier, im run down") == [
        ("lighten_plan", {"days": 4})
    ]
    understood = say(program, "make the next 4 days easier, im skipping friday")
    assert understood is None or not understood.calls


def test_a_physio_session_is_no_workout_done(program):
    understood = say(program, "had a physio session yesterday")
    assert understood is None or all(c.name != "mark_workout_complete" for c in understood.calls)


def test_the_plan_this_week_is_read(program):
    assert calls(program, "whats on the plan this week") == [
        ("get_training_plan", {"start_date": "2026-11-23", "end_date": "2026-11-29"})
    ]
