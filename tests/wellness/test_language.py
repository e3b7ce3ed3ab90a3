"""Wellness in everyday words (``wellness.tools.language``): sentences → the exact calls, a
question when a detail is missing, nothing for a plan, a wish, a question or a symptom, and the
stated-intent guard still deciding what is written."""

from __future__ import annotations

import datetime

import pytest

from coach import guardrails
from coach.llm.base import Turn, World
from coach.llm.offline.understand import understand
from coach.toolcalls import ToolCall

TODAY = datetime.date(2026, 11, 26)  # a Thursday
EVERY_DAY = [1, 2, 3, 4, 5, 6, 7]


def read(text: str):
    return understand(text, World(today=TODAY, turns=[Turn(role="user", content=text)]))


def calls(text: str) -> list[tuple[str, dict]]:
    found = read(text)
    assert found is not None and found.ask is None and not found.problem, (text, found)
    return [(c.name, c.arguments) for c in found.calls]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "log 400 mg ibuprofen",
            {"medication_name": "ibuprofen", "kind": "medication", "dose": "400 mg"},
        ),
        (
            "I took 2 tablets of paracetamol at 8",
            {
                "medication_name": "paracetamol",
                "kind": "medication",
                "dose": "2 tablets",
                "time": "08:00",
            },
        ),
        (
            "took 5 g creatine after lunch",
            {
                "medication_name": "creatine",
                "kind": "supplement",
                "dose": "5 g",
                "part_of_day": "afternoon",
            },
        ),
        (
            "had my vitamin D with breakfast",
            {"medication_name": "vitamin D", "kind": "supplement", "part_of_day": "morning"},
        ),
        (
            "I took my magnesium yesterday",
            {"medication_name": "magnesium", "kind": "supplement", "date": "2026-11-25"},
        ),
        ("popped 2 ibuprofen", {"medication_name": "ibuprofen", "kind": "medication", "dose": "2"}),
        (  # what it was for is no part of its name
            "took 2 ibuprofen before my run",
            {"medication_name": "ibuprofen", "kind": "medication", "dose": "2"},
        ),
        ("took ibuprofen for my knee", {"medication_name": "ibuprofen", "kind": "medication"}),
    ],
)
def test_a_stated_dose_is_a_medication_log(text, expected):
    assert calls(text) == [("log_medication", expected)]


@pytest.mark.parametrize(
    "text",
    [
        "should I take ibuprofen?",
        "I should take my magnesium tonight",
        "how much creatine should I take?",
        "my knee hurts after running",
        "log my sleep",  # how the athlete is, never a medicine called "sleep"
        "log my weight as 80 kg",
        "took a rest day",  # time off, a nap, a walk: never a medicine
        "took the day off",
        "took a nap",
        "i took a long walk",
        "took squats out of my plan",  # training words, particles and clauses: no medicine
        "i took out the lunges",
        "took 60 kg for 5 reps",
        "had 3 sets left",
        "took ages to warm up",
        "took an l",
        "had 2 beers last night",
        "took a cold shower",  # never logged as the typo correction's "cold show"
    ],
)
def test_a_question_a_plan_or_a_symptom_logs_nothing(text):
    found = read(text)
    assert found is None or not found.calls


def test_had_with_no_medicine_is_refused_in_words():
    found = read("I had a headache")
    assert found.calls == [] and "only log a medicine" in found.problem


def test_the_guardrails_take_log_as_a_statement_but_not_a_question():
    call = ToolCall(
        id="c1",
        name="log_medication",
        arguments={"medication_name": "ibuprofen", "kind": "medication"},
    )
    assert guardrails.check(call, statement="log 400 mg ibuprofen") is None
    assert guardrails.check(call, statement="should I log ibuprofen?").reason == "not_stated"
    assert guardrails.check(call, statement="should I take ibuprofen?").reason == "not_stated"


@pytest.mark.parametrize(
    ("text", "mood"),
    [
        ("feeling great today!", "great"),
        ("I'm feeling pretty down today", "poor"),
        ("feeling kinda meh", "okay"),
        ("I'm feeling amazing", "great"),
        ("mood good", "good"),
    ],
)
def test_a_mood_in_words(text, mood):
    assert calls(text) == [("log_mood", {"mood": mood})]


def test_a_mood_with_a_note():
    assert calls("my mood today is not great, work stuff") == [
        ("log_mood", {"mood": "okay", "note": "work stuff"})
    ]


def test_readiness_in_words_across_clauses():
    assert calls("slept badly, my legs are really sore and work is stressful") == [
        ("log_readiness", {"sleep_quality": 2, "soreness": 5, "stress": 4})
    ]


def test_readiness_with_a_scale_missing_is_asked():
    found = read("I slept badly and my legs are sore")
    assert found.calls == [] and "how stressed you are" in found.ask.question


def test_one_scale_alone_is_no_readiness_log():
    found = read("skip deadlifts on friday, my back is sore")
    assert found is None or not any(c.name == "log_readiness" for c in found.calls)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Remind me to take my medication at 9am", ("Take my medication", "09:00", EVERY_DAY)),
        ("remind me to take creatine at 8", ("Take creatine", "08:00", EVERY_DAY)),
        ("remind me every monday and thursday at 7pm to stretch", ("Stretch", "19:00", [1, 4])),
        (
            "set a reminder for my vitamins at 9:30am on weekdays",
            ("Take my vitamins", "09:30", [1, 2, 3, 4, 5]),
        ),
        ("remind me to foam roll at 6pm on weekends", ("Foam roll", "18:00", [6, 7])),
        ("remind me at 9pm on sundays to plan my week", ("Plan my week", "21:00", [7])),
    ],
)
def test_a_reminder_in_words(text, expected):
    title, time, days = expected
    assert calls(text) == [("create_reminder", {"title": title, "time": time, "days": days})]


def test_a_reminder_without_a_time_is_asked_with_chips():
    found = read("remind me to stretch")
    assert found.calls == [] and found.ask.question == "What time should I remind you to stretch?"
    assert found.ask.options == ("remind me to stretch at 8am", "remind me to stretch at 7pm")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I went to the hospital yesterday for a checkup",
            ("visit", "Hospital: checkup", "2026-11-25T12:00"),
        ),
        (
            "I saw the physio yesterday about my ankle",
            ("physio", "Physio: ankle", "2026-11-25T12:00"),
        ),
        ("I went to the doctor today at 3pm", ("visit", "Doctor", "2026-11-26T15:00")),
        ("I sprained my ankle on monday", ("injury", "Sprained my ankle", "2026-11-23T12:00")),
    ],
)
def test_a_care_record_in_words(text, expected):
    log_type, title, when = expected
    assert calls(text) == [
        ("create_care_log", {"log_type": log_type, "title": title, "occurred_at": when})
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what have I logged this week?", ("get_wellness_logs", {"kind": "all", "days": 7})),
        ("what did I log yesterday", ("get_wellness_logs", {"kind": "all", "days": 2})),
        (
            "show my mood log for the last 30 days",
            ("get_wellness_logs", {"kind": "mood", "days": 30}),
        ),
        ("how has my mood been lately", ("get_wellness_logs", {"kind": "mood", "days": 7})),
        ("which reminders do I have?", ("list_reminders", {})),
        ("show my reminders", ("list_reminders", {})),
    ],
)
def test_reads_in_words(text, expected):
    assert calls(text) == [expected]


def test_two_requests_in_one_sentence_are_one_batch():
    assert [name for name, _ in calls("remind me to take creatine at 8 and log 5 g creatine")] == [
        "create_reminder",
        "log_medication",
    ]
