"""Wellness sentences as people type them (issue 20): a mood with a contraction or a filler
("mood's like a 7 out of 10"), an injury in everyday verbs ("rolled my ankle") but never foam
rolling or soreness, and readiness words in any order ("anxious and stressed, slept like 4 hours,
legs are fine")."""

from __future__ import annotations

import pytest

from wellness.tools.said import sleep_hours

from .test_language import calls, read


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        ("mood's like a 7 out of 10", "good"),
        ("my mood's good", "good"),
        ("mood is like a 7 out of 10", "good"),
        ("mood's about 8", "good"),
        ("my mood is prolly a 6", "okay"),
        ("mood maybe a 3 out of 5", "okay"),
        ("my mood's like a 2", "poor"),
        ("mood's like okay", "okay"),
    ],
)
def test_a_mood_with_a_contraction_or_a_filler(text, mood):
    assert calls(text) == [("log_mood", {"mood": mood})]


@pytest.mark.parametrize(
    "text", ["what's my mood like", "my mood's like a rollercoaster", "how's my mood been"]
)
def test_a_mood_question_or_no_mood_word_logs_nothing(text):
    found = read(text)
    assert found is None or not any(c.name == "log_mood" for c in found.calls)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("rolled my ankle on my run", "Rolled my ankle on my run"),
        ("i think i sprained my wrist", "Sprained my wrist"),
        ("tweaked my lower back deadlifting", "Tweaked my lower back deadlifting"),
        ("jammed my finger", "Jammed my finger"),
        ("banged my knee on the bar", "Banged my knee on the bar"),
        ("bruised my left shin", "Bruised my left shin"),
        ("i've pulled a hamstring", "Pulled my hamstring"),
        ("twisted my ankle", "Twisted my ankle"),
        ("strained my calf", "Strained my calf"),
        ("tore my acl", "Tore my acl"),
    ],
)
def test_an_everyday_injury_verb_and_a_body_part_is_an_injury(text, title):
    assert calls(text) == [
        (
            "create_care_log",
            {"log_type": "injury", "title": title, "occurred_at": "2026-11-26T12:00"},
        )
    ]


@pytest.mark.parametrize(
    "text",
    [
        "rolled out my quads",  # foam rolling
        "rolled my quads",
        "rolled my calves after the run",
        "my legs hurt",  # soreness, not an injury
        "my knee hurts",
        "I hurt my feelings",  # no body part
        "pulled my weight today",
    ],
)
def test_foam_rolling_soreness_and_no_body_part_are_no_injury(text):
    found = read(text)
    assert found is None or not any(c.name == "create_care_log" for c in found.calls)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "anxious and stressed, slept like 4 hours, legs are fine",
            {"sleep_quality": 1, "soreness": 2, "stress": 4},
        ),
        (
            "legs are fresh, slept 8 hours, not stressed",
            {"sleep_quality": 4, "soreness": 1, "stress": 1},
        ),
        (
            "slept 6 hours, legs feel good, a bit stressed",
            {"sleep_quality": 3, "soreness": 1, "stress": 3},
        ),
        (
            "stressed out, got five hours of sleep, legs are sore",
            {"sleep_quality": 2, "soreness": 4, "stress": 5},
        ),
    ],
)
def test_readiness_words_in_any_order(text, expected):
    assert calls(text) == [("log_readiness", expected)]


@pytest.mark.parametrize(("hours", "scale"), [(3, 1), (4, 1), (5, 2), (6, 3), (7, 4), (9, 4)])
def test_hours_slept_map_to_the_sleep_scale(hours, scale):
    assert sleep_hours(f"slept like {hours} hours") == scale


@pytest.mark.parametrize("text", ["my legs are sore", "i'm anxious about my legs"])
def test_one_readiness_scale_alone_is_no_log(text):
    found = read(text)
    assert found is None or not any(c.name == "log_readiness" for c in found.calls)
