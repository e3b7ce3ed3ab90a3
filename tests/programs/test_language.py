"""The program family's everyday sentences (``programs.tools.language``) → the exact tool calls,
or a question with chips, or a refusal in words, through ``understand`` over a real program."""

from __future__ import annotations

import pytest

from coach.llm.offline.understand import family_languages
from coach.tools.base import ToolContext
from programs.tools.language import LANGUAGE
from programs.tools.reads import GetWeekArgs, read_week

from .language_support import build_world, calls, ex, say

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(db):
    return build_world()


def test_a_swap_with_no_week_changes_the_exercise_from_this_week_on(built):
    assert calls(say(built, "swap squats for lunges")) == [
        ex(w, 1, 1, name="Lunges") for w in (1, 2, 3, 4)
    ]


def test_a_weekday_narrows_it_to_this_weeks_session(built):
    assert calls(say(built, "can you change my back squat to front squat on monday")) == [
        ex(1, 1, 1, name="Front squat")
    ]


def test_next_week_and_week_n(built):
    assert calls(say(built, "next week do dips instead of push-ups")) == [ex(2, 3, 2, name="Dips")]
    assert calls(say(built, "in week 3 swap barbell rows for seal rows")) == [
        ex(3, 2, 2, name="Seal rows")
    ]


def test_a_whole_name_beats_the_last_word_of_another(built):
    # "deadlifts" is Deadlift, not Romanian Deadlift as well
    assert calls(say(built, "swap deadlifts for trap bar deadlifts on friday")) == [
        ex(1, 3, 1, name="Trap bar deadlifts")
    ]


def test_numbers_in_words_and_shorthand(built):
    assert calls(say(built, "make bench press three sets of ten this week")) == [
        ex(1, 2, 1, workingSets=3, reps="10")
    ]
    assert calls(say(built, "leg press 4x12 on monday please")) == [
        ex(1, 1, 3, workingSets=4, reps="12")
    ]


def test_one_more_set_and_one_fewer(built):
    assert calls(say(built, "one more set of push-ups on friday")) == [ex(1, 3, 2, workingSets=4)]
    assert calls(say(built, "drop a set from friday's deadlifts")) == [ex(1, 3, 1, workingSets=2)]


def test_fewer_reps_shifts_the_range(built):
    assert calls(say(built, "fewer reps on the plank on monday")) == [ex(1, 1, 4, reps="6-8")]


def test_loads_and_rests_with_units(built):
    assert calls(say(built, "set wednesday's bench to 100 kg")) == [
        ex(1, 2, 1, targetLoad="100 kg")
    ]
    assert calls(say(built, "put monday's squats at 225 lbs")) == [
        ex(1, 1, 1, targetLoad="225 lbs")
    ]
    assert calls(say(built, "give me 3 minutes rest on friday's deadlifts")) == [
        ex(1, 3, 1, restSeconds=180)
    ]
    assert calls(say(built, "rest 90s between sets of bench on wednesday")) == [
        ex(1, 2, 1, restSeconds=90)
    ]


def test_heavier_without_a_load_is_a_question_with_loads_as_chips(built):
    result = say(built, "make the overhead press heavier on wednesday")
    assert result.ask is not None and result.calls == []
    assert result.ask.options == ("put Overhead Press at 140 lbs", "put Overhead Press at 145 lbs")


def test_make_it_heavier_with_nothing_to_point_at_is_a_question(built):
    result = say(built, "make it heavier")
    assert result.ask is not None and "?" in result.ask.question and result.calls == []


def test_it_means_the_exercise_just_changed(built):
    before = [("modify_exercise", ex(1, 2, 3, name="Landmine press")[1])]
    assert calls(say(built, "skip it", before=before)) == [ex(1, 2, 3, skipped=True)]


def test_add_after_a_position_at_the_end_and_before_a_name(built):
    ((name, args),) = calls(
        say(built, "Add bench press after exercise 2 in Monday's workout this week")
    )
    assert (name, args["weekNumber"], args["sessionNumber"], args["position"]) == (
        "add_exercise", 1, 1, 3,
    )  # fmt: skip
    assert args["exercise"] == {
        "name": "Bench press",
        "reps": "10",
        "targetLoad": "bodyweight",
        "workingSets": 3,
        "warmupSets": 0,
        "restSeconds": 120,
    }
    ((_, args),) = calls(say(built, "add hip thrusts 3x8 at 60kg to monday after the RDLs"))
    assert (args["position"], args["exercise"]["workingSets"], args["exercise"]["reps"]) == (
        3,
        3,
        "8",
    )
    assert args["exercise"]["targetLoad"] == "60 kg"
    ((_, args),) = calls(say(built, "add calf raises at the end of monday's workout"))
    assert (args["sessionNumber"], args["position"]) == (1, "end")


def test_remove_by_ordinal_and_the_last_one(built):
    assert calls(say(built, "Remove the last exercise from Monday's workout this week")) == [
        ("remove_exercise", {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 4})
    ]
    assert calls(say(built, "take out the first exercise of wednesday's workout")) == [
        ("remove_exercise", {"weekNumber": 1, "sessionNumber": 2, "exerciseNumber": 1})
    ]


def test_an_exercise_number_out_of_range_is_refused_naming_the_count(built):
    result = say(built, "Remove exercise 10 from Monday's workout this week")
    assert result.calls == [] and "has 4 exercises" in result.problem


def test_skip_today_is_this_weeks(built):
    assert calls(say(built, "I can't do squats today, skip that exercise")) == [
        ex(1, 1, 1, skipped=True)
    ]


def test_move_to_the_start_and_before_another(built):
    assert calls(say(built, "move planks to the start of monday's workout")) == [
        (
            "reorder_exercises",
            {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 4, "newPosition": 1},
        )
    ]
    assert calls(say(built, "I want to do rows before bench on wednesday")) == [
        (
            "reorder_exercises",
            {"weekNumber": 1, "sessionNumber": 2, "exerciseNumber": 2, "newPosition": 1},
        )
    ]


def test_sessions_renamed_copied_and_deleted(built):
    assert calls(say(built, "Rename this Wednesday's workout to 'Push Day A'")) == [
        ("modify_session", {"weekNumber": 1, "sessionNumber": 2, "updates": {"name": "Push Day A"}})
    ]
    assert calls(say(built, "copy monday's workout into next week")) == [
        (
            "copy_session",
            {
                "sourceWeekNumber": 1,
                "sourceSessionNumber": 1,
                "targetWeekNumber": 2,
                "position": "end",
            },
        )
    ]
    assert calls(say(built, "delete the friday session this week")) == [
        ("remove_session", {"weekNumber": 1, "sessionNumber": 3})
    ]


def test_a_rest_day_is_this_weeks_day_and_a_taken_day_is_a_question(built):
    assert calls(say(built, "Make Sunday a rest day")) == [
        (
            "add_session",
            {
                "weekNumber": 1,
                "position": "end",
                "session": {"name": "Rest", "exercises": [], "dayOfWeek": "Sunday"},
            },
        )
    ]
    result = say(built, "make monday a rest day")
    assert result.calls == [] and "Lower Body" in result.ask.question


def test_a_cardio_day_in_minutes(built):
    ((_, args),) = calls(say(built, "Add a 30-minute zone 2 cardio day on Saturday this week"))
    assert args["weekNumber"] == 1
    assert args["session"]["cardio"] == {"type": "zone2", "duration": 30}
    assert args["session"]["dayOfWeek"] == "Saturday"


def test_a_deload_week_copies_the_weeks_sessions_with_fewer_sets(built):
    ((name, args),) = calls(say(built, "I need a deload week after week two"))
    week = args["weeks"][0]
    assert (name, args["position"], week["phase"]) == ("add_week", 3, "Deload")
    assert [s["name"] for s in week["sessions"]] == ["Lower Body", "Upper Body", "Full Body"]
    assert {e["workingSets"] for s in week["sessions"] for e in s["exercises"]} == {2}


def test_what_is_on_a_day_reads_that_day_of_its_week_in_words(built):
    assert calls(say(built, "what's on wednesday?")) == [
        ("get_week", {"weekNumber": 1, "dayOfWeek": "Wednesday"})
    ]
    ctx = ToolContext(athlete=built.athlete, program=built.program, user=built.athlete)
    spoken = read_week(ctx=ctx, args=GetWeekArgs(weekNumber=1, dayOfWeek="Wednesday")).spoken
    assert "Bench Press" in spoken and "Back Squat" not in spoken and "{" not in spoken
    assert calls(say(built, "show me week 4")) == [("get_week", {"weekNumber": 4})]


def test_ambiguous_words_are_a_question_with_each_candidate_as_a_chip(built):
    result = say(built, "change the press to dips")
    assert result.calls == []
    assert result.ask.options == (
        "change the Bench Press to dips",
        "change the Leg Press to dips",
        "change the Overhead Press to dips",
    )


def test_the_day_settles_an_ambiguous_word(built):
    ((_, args),) = calls(say(built, "put some bicep curls after the rows on wednesday"))
    assert (args["sessionNumber"], args["position"]) == (2, 3)


def test_two_steps_are_one_batch_and_the_second_follows_the_first(built):
    assert calls(say(built, "Change squats to lunges and increase reps to 12")) == [
        *(ex(w, 1, 1, name="Lunges") for w in (1, 2, 3, 4)),
        *(ex(w, 1, 1, reps="12") for w in (1, 2, 3, 4)),
    ]
    assert calls(say(built, "swap monday's squats for lunges and add a set to the planks")) == [
        ex(1, 1, 1, name="Lunges"),
        ex(1, 1, 4, workingSets=4),
    ]


def test_every_declared_example_is_understood(built):
    assert ("Training programs", LANGUAGE) in family_languages()
    for intent in LANGUAGE.intents:
        for example in intent.examples:
            result = say(built, example)
            assert result is not None and not result.problem, (example, result)
            assert result.calls or result.ask, example
