"""Wellness numbers and levels in everyday words (issue 20): a mood as a number on the log's five
steps ("mood 2", "log my mood as 4": a mood, never a medicine), a readiness scale named with a
level ("stress is low": never the bare word's 4), a reminder at a part of the day ("at night"),
and the log asked for by its kind ("what meds have I taken this week")."""

from __future__ import annotations

import datetime

import pytest

from coach import guardrails
from coach.llm.base import Turn, World
from coach.llm.offline.understand import understand
from coach.toolcalls import ToolCall

TODAY = datetime.date(2026, 11, 26)  # a Thursday
EVERY_DAY = [1, 2, 3, 4, 5, 6, 7]


def calls(text: str) -> list[tuple[str, dict]]:
    found = understand(text, World(today=TODAY, turns=[Turn(role="user", content=text)]))
    assert found is not None and found.ask is None and not found.problem, (text, found)
    return [(c.name, c.arguments) for c in found.calls]


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        ("mood 2", "poor"),
        ("log my mood as 2", "poor"),
        ("log my mood as 4", "good"),
        ("mood: 5", "great"),
        ("my mood today is a 3", "okay"),
        ("mood three out of five", "okay"),
        ("rate my mood 1", "poor"),
    ],
)
def test_a_mood_as_a_number_is_a_mood_log_never_a_medicine(text, mood):
    assert calls(text) == [("log_mood", {"mood": mood})]


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        ("mood 7/10", "good"),
        ("i'm like a 3 out of 10 today", "poor"),
        ("mood: 8", "good"),
        ("mood is a solid nine out of ten", "great"),
        ("my mood is 10/10", "great"),
        ("mood 5/10", "okay"),
        ("mood 6 out of 10", "okay"),
        ("log my mood as 4/10", "poor"),
        ("mood 1/10", "poor"),
    ],
)
def test_a_mood_out_of_ten_is_half_the_score_rounded_up_on_the_five_steps(text, mood):
    # 1-4 poor, 5-6 okay, 7-8 good, 9-10 great; a bare 6 to 10 can only be out of ten, a bare
    # 1 to 5 stays on the five steps (above: "mood 2" is poor, "log my mood as 4" good).
    assert calls(text) == [("log_mood", {"mood": mood})]


def test_a_mood_number_past_ten_is_no_mood():
    found = understand("mood 11", World(today=TODAY, turns=[Turn(role="user", content="mood 11")]))
    assert found is None or not any(c.name == "log_mood" for c in found.calls)


def test_had_physio_is_a_care_record_never_a_medicine():
    assert [name for name, _ in calls("had physio today for my hamstring")] == ["create_care_log"]
    ((_, args),) = calls("had physio today for my hamstring")
    assert args["log_type"] == "physio" and args["occurred_at"].startswith("2026-11-26")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "slept like crap, legs are super sore, stress is low",
            {"sleep_quality": 1, "soreness": 5, "stress": 2},
        ),
        ("slept well, not sore, stress is high", {"sleep_quality": 4, "soreness": 1, "stress": 4}),
        (
            "sleep was terrible, a bit sore, stress is moderate",
            {"sleep_quality": 1, "soreness": 2, "stress": 3},
        ),
    ],
)
def test_a_scale_named_with_a_level_reads_the_level(text, expected):
    assert calls(text) == [("log_readiness", expected)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # blind set 3: "zero stress" was read as the bare word "stress" (4)
        (
            "slept great, not sore at all, zero stress",
            {"sleep_quality": 5, "soreness": 1, "stress": 1},
        ),
        ("zero sleep, zero soreness, low stress", {"sleep_quality": 1, "soreness": 1, "stress": 2}),
    ],
)
def test_zero_or_low_before_a_scales_word_is_its_lowest_levels(text, expected):
    assert calls(text) == [("log_readiness", expected)]


@pytest.mark.parametrize(
    ("text", "title", "time"),
    [
        ("can you remind me to take my magnesium at night", "Take my magnesium", "21:00"),
        ("remind me to stretch every evening", "Stretch", "19:00"),
        ("remind me to take my vitamins in the morning", "Take my vitamins", "08:00"),
        ("remind me to foam roll before bed", "Foam roll", "21:00"),
        ("remind me to take my meds at 9 in the morning", "Take my meds", "09:00"),
        ("set a reminder at 20:00 to stretch", "Stretch", "20:00"),
    ],
)
def test_a_reminder_at_a_part_of_the_day_takes_its_usual_hour(text, title, time):
    assert calls(text) == [("create_reminder", {"title": title, "time": time, "days": EVERY_DAY})]


@pytest.mark.parametrize(
    ("text", "time"),
    [
        ("remind me to stretch every night at 10", "22:00"),
        ("remind me to stretch every evening at 7:30", "19:30"),
        ("remind me to stretch every morning at 7", "07:00"),
        ("remind me to stretch every night at 10am", "10:00"),
        ("remind me to stretch at 10", "10:00"),
    ],
)
def test_a_bare_hour_said_with_the_evening_or_night_is_that_parts_hour(text, time):
    assert calls(text) == [
        ("create_reminder", {"title": "Stretch", "time": time, "days": EVERY_DAY})
    ]


@pytest.mark.parametrize(
    "text", ["what meds have i taken this week", "which supplements did i take this week"]
)
def test_the_log_asked_for_by_its_kind(text):
    assert calls(text) == [("get_wellness_logs", {"kind": "medication", "days": 7})]


@pytest.mark.parametrize(
    ("text", "mood"), [("i'd say my mood is a 4", "good"), ("honestly my mood is 2", "poor")]
)
def test_a_hedged_mood_number_is_still_a_mood(text, mood):
    assert calls(text) == [("log_mood", {"mood": mood})]


def test_a_clock_in_words_is_no_part_of_the_reminders_title():
    assert calls("remind me to take creatine at eight") == [
        ("create_reminder", {"title": "Take creatine", "time": "08:00", "days": EVERY_DAY})
    ]


def test_a_reminder_for_one_day_asks_which_days_instead_of_repeating_that_weekday():
    found = understand(
        "remind me tomorrow at 9 to call the physio",
        World(today=TODAY, turns=[Turn(role="user", content="x")]),
    )
    assert found.calls == [] and "which days" in found.ask.question
    assert found.ask.options == (
        "remind me every day at 09:00 to call the physio",
        "remind me on weekdays at 09:00 to call the physio",
    )


def test_at_lunch_is_when_it_was_taken_not_a_meal():
    assert calls("had 3 caps of fish oil at lunch") == [
        (
            "log_medication",
            {
                "medication_name": "fish oil",
                "kind": "supplement",
                "dose": "3 capsules",
                "part_of_day": "afternoon",
            },
        )
    ]


def test_a_reminder_about_my_appointment_is_not_something_to_take():
    assert calls("remind me about my physio appointment on friday at 10") == [
        ("create_reminder", {"title": "My physio appointment", "time": "10:00", "days": [5]})
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "sleep was great, barely sore, bit stressed from work",
            {"sleep_quality": 5, "soreness": 1, "stress": 3},
        ),
        (
            "slept ok, not very sore, hardly stressed",
            {"sleep_quality": 3, "soreness": 2, "stress": 1},
        ),
    ],
)
def test_barely_and_not_very_lower_a_scale_instead_of_being_its_bare_word(text, expected):
    assert calls(text) == [("log_readiness", expected)]


def test_a_mood_with_tbh_after_it():
    assert calls("feeling pretty good tbh") == [("log_mood", {"mood": "good"})]


def test_a_span_said_with_for():
    assert calls("show my mood history for the past month") == [
        ("get_wellness_logs", {"kind": "mood", "days": 30})
    ]


def test_an_injury_said_with_its_verb_states_the_care_record():
    statement = "pulled my hamstring yesterday"
    [(name, arguments)] = calls(statement)
    call = ToolCall(id="c1", name=name, arguments=arguments)
    assert arguments["log_type"] == "injury"
    assert guardrails.check(call, statement=statement) is None
