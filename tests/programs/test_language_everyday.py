"""The program family's everyday sentences beyond the first grammar (issue 20, the unseen
sentences): "from now on", decimal loads, the weight said as "the weight", a skip said without
the word skip, politeness around a request, and a day's question said loosely."""

from __future__ import annotations

import pytest

from .language_support import build_world, calls, ex, say

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(db):
    return build_world()


@pytest.mark.parametrize(
    "message",
    ["I want 5 sets on squats from now on", "going forward do 5 sets on squats"],
)
def test_from_now_on_changes_every_week_from_this_one(built, message):
    assert calls(say(built, message)) == [ex(w, 1, 1, workingSets=5) for w in (1, 2, 3, 4)]


def test_from_now_on_with_a_day_keeps_the_day_in_every_week(built):
    # without "from now on" a weekday means this week's session only
    assert calls(say(built, "swap the leg press for hack squats on monday from now on")) == [
        ex(w, 1, 3, name="Hack squats") for w in (1, 2, 3, 4)
    ]


@pytest.mark.parametrize(
    ("message", "load"),
    [
        ("bench 62.5kg on wednesday", "62.5 kg"),
        ("set wednesday's bench to 102.5 kilos", "102.5 kg"),
        ("bench at 185lbs on wednesday", "185 lbs"),
    ],
)
def test_a_load_with_tenths_and_its_unit(built, message, load):
    assert calls(say(built, message)) == [ex(1, 2, 1, targetLoad=load)]


def test_the_weight_on_an_exercise_down_to_a_load(built):
    assert calls(say(built, "drop the weight on deadlifts to 275 lbs")) == [
        ex(w, 3, 1, targetLoad="275 lbs") for w in (1, 2, 3, 4)
    ]


@pytest.mark.parametrize(
    "message",
    ["i cant do deadlifts on friday", "my back hurts, no deadlifts on friday"],
)
def test_a_skip_said_without_the_word_skip(built, message):
    assert calls(say(built, message)) == [ex(1, 3, 1, skipped=True)]


def test_politeness_anywhere_is_skipped(built):
    removed = ("remove_exercise", {"weekNumber": 1, "sessionNumber": 3, "exerciseNumber": 4})
    assert calls(say(built, "get rid of the farmer carry on friday pls")) == [removed]
    assert calls(say(built, "could you please get rid of the farmer carry on friday thanks")) == [
        removed
    ]


def test_doing_an_exercise_first_moves_it(built):
    assert calls(say(built, "can we do face pulls first on wednesday")) == [
        (
            "reorder_exercises",
            {"weekNumber": 1, "sessionNumber": 2, "exerciseNumber": 4, "newPosition": 1},
        )
    ]


def test_a_rest_said_before_the_exercise(built):
    assert calls(say(built, "make rest 90 sec on leg press")) == [
        ex(w, 1, 3, restSeconds=90) for w in (1, 2, 3, 4)
    ]


def test_whats_on_for_a_day_is_the_weeks_read(built):
    [(name, _)] = calls(say(built, "whats on for monday"))
    assert name == "get_week"


def test_from_next_week_on_changes_every_week_after_this_one(built):
    assert calls(say(built, "skip squats from next week on")) == [
        ex(w, 1, 1, skipped=True) for w in (2, 3, 4)
    ]
    assert calls(say(built, "swap squats for lunges starting next week")) == [
        ex(w, 1, 1, name="Lunges") for w in (2, 3, 4)
    ]


def test_a_pain_then_no_exercise_today_skips_this_weeks_as_seed_000_says(built):
    # seed 000: "I can't do squats today, skip that exercise" is this week's squats
    assert calls(say(built, "my knee hurts, no squats today")) == [ex(1, 1, 1, skipped=True)]


def test_a_skip_whose_reason_holds_words_of_time_is_not_this_weeks_skip(built):
    result = say(built, "skip squats until the end of the block")
    assert result is None or result.calls == []


@pytest.mark.parametrize(
    "message", ["i dont want to do planks on monday", "im not doing planks on monday"]
)
def test_not_wanting_to_do_an_exercise_on_a_day_skips_it(built, message):
    assert calls(say(built, message)) == [ex(1, 1, 4, skipped=True)]


@pytest.mark.parametrize("message", ["less weight on squats", "lower the weight on the bench"])
def test_less_weight_without_a_load_asks_how_light_with_loads_as_chips(built, message):
    result = say(built, message)
    assert result is not None and result.calls == [] and result.ask is not None
    assert result.ask.options and all("lbs" in option for option in result.ask.options)


def test_a_load_added_or_taken_off_moves_the_load_in_its_own_unit(built):
    assert calls(say(built, "add 10 lbs to squats")) == [
        ex(w, 1, 1, targetLoad="145 lbs") for w in (1, 2, 3, 4)
    ]
    assert calls(say(built, "take 10 lbs off the deadlift on friday")) == [
        ex(1, 3, 1, targetLoad="125 lbs")
    ]


def test_a_load_added_in_another_unit_is_refused_in_words(built):
    result = say(built, "put 2.5 kg more on the bench")
    assert result is not None and result.calls == [] and "135 lbs" in result.problem


def test_a_number_without_its_unit_asks_which_with_chips(built):
    result = say(built, "bump the bench to 12")
    assert result is not None and result.calls == [] and result.ask is not None
    assert result.ask.options == (
        "bump the bench to 12 lbs",
        "bump the bench to 12 kg",
        "bump the bench to 12 reps",
    )
    [(_, arguments)] = calls(say(built, "bump the bench to 62.5 kg on wednesday"))
    assert arguments["updates"] == {"targetLoad": "62.5 kg"}


def test_a_deload_without_the_word_week(built):
    [(name, arguments)] = calls(say(built, "deload after week 3 pls"))
    assert name == "add_week" and arguments["position"] == 4


def test_a_past_tense_report_is_no_typo_of_the_exercise(built):
    # "benched" is not corrected to "bench": a report of a lift is no change of the plan
    result = say(built, "benched 62.5kg today")
    assert result is None or result.calls == []


def test_rows_said_of_a_plan_with_two_rows_asks_which_with_both_as_chips(built):
    result = say(built, "could we do 4 sets on rows this week")
    assert result is not None and result.calls == [] and result.ask is not None
    assert "Barbell Row" in result.ask.question and "Dumbbell Row" in result.ask.question
    assert len(result.ask.options) == 2


def test_lighter_on_rows_of_a_plan_with_two_rows_asks_which_row_not_a_generic_question(built):
    result = say(built, "go lighter on the rows this week, 115 lbs")
    assert result is not None and result.calls == [] and result.ask is not None
    assert "Barbell Row" in result.ask.question and "Dumbbell Row" in result.ask.question
