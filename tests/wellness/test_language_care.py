"""Care records and log reads in everyday words (issue 20, round 4): a pain that has lasted since
a day is an injury dated that day ("my shoulder's been hurting since tuesday"), never muscles sore
in the plural, a symptom alone or a request that follows; a visit told in the past ("physio
appointment went well today") but not one still to come or cancelled; the log read for a kind and
a window in weeks or months ("show me my meds log for the last 2 weeks"); and a record or a dose
with no day said is never in the future (noon before noon, 6:30pm after midnight)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from coach import guardrails
from coach.llm.base import Turn, World
from coach.llm.offline.understand import understand
from coach.toolcalls import ToolCall

from .test_language import calls, read

# TODAY is Thursday 2026-11-26: Tuesday is the 24th, the weekend's Saturday the 21st.


def injury(title: str, day: str) -> list[tuple[str, dict]]:
    return [
        (
            "create_care_log",
            {"log_type": "injury", "title": title, "occurred_at": f"2026-11-{day}T12:00"},
        )
    ]


@pytest.mark.parametrize(
    ("text", "title", "day"),
    [
        ("my shoulder's been hurting since tuesday", "Shoulder pain", "24"),
        ("my left knee has been hurting since yesterday", "Left knee pain", "25"),
        ("ankle's been sore for 3 days now", "Ankle soreness", "23"),
        ("my lower back has been killing me since the weekend", "Lower back pain", "21"),
        ("my achilles has been sore since my run on sunday", "Achilles soreness", "22"),
        ("my hamstring has been tight for 2 weeks", "Hamstring tightness", "12"),
        ("i've had a sore knee for a week", "Knee soreness", "19"),
        ("since tuesday my shoulder has been hurting", "Shoulder pain", "24"),
        ("my wrist keeps hurting since monday", "Wrist pain", "23"),
        ("my elbow has been bugging me for a couple days", "Elbow pain", "24"),
        # the weekday said on that weekday is the one a week before
        ("my neck has been stiff since thursday", "Neck stiffness", "19"),
        ("my shoulder's been bugging me all week", "Shoulder pain", "23"),
    ],
)
def test_a_pain_that_has_lasted_is_an_injury_dated_when_it_started(text, title, day):
    assert calls(text) == injury(title, day)


@pytest.mark.parametrize(
    "text",
    [
        "my quads have been sore since monday",  # training soreness, in the plural
        "my calves have been tight for 3 days",
        "my legs have been sore since sundays long run",
        "my knee hurts",  # a symptom, said with no while
        "my shoulder hurts a bit after bench",
        "my knee has been hurting since monday, skip squats tomorrow",  # a request follows
        "my back has been hurting for my whole run",  # "for" names no day
    ],
)
def test_soreness_a_symptom_or_a_request_after_it_is_no_care_record(text):
    found = read(text)
    assert found is None or not any(c.name == "create_care_log" for c in found.calls)


def test_a_lasting_pain_with_no_day_asks_since_when():
    found = read("my knee has been hurting lately")
    assert found is not None and found.calls == [] and found.ask is not None
    assert "Since which day" in found.ask.question
    assert calls(found.ask.options[0]) == injury("Knee pain", "25")


@pytest.mark.parametrize(
    ("text", "kind", "title", "day"),
    [
        ("physio appointment went well today", "physio", "Physio appointment: went well", "26"),
        (
            "chiro session yesterday was really helpful",
            "physio",
            "Chiro session: was really helpful",
            "25",
        ),
        (
            "doctors appointment this morning went fine",
            "visit",
            "Doctor appointment: went fine",
            "26",
        ),
        ("got a massage yesterday", "physio", "Massage", "25"),
        ("went for a massage yesterday", "physio", "Massage", "25"),
        ("doctor cleared me to run again today", "visit", "Doctor: cleared me to run again", "26"),
        ("went to the physio tuesday about my knee", "physio", "Physio: knee", "24"),
        ("the doctor signed me off today", "visit", "Doctor: signed me off", "26"),
        (
            "saw the physio yesterday, she said i should rest a week",
            "physio",
            "Physio: she said i should rest a week",
            "25",
        ),
    ],
)
def test_a_visit_told_in_the_past_is_a_care_record(text, kind, title, day):
    assert calls(text) == [
        (
            "create_care_log",
            {"log_type": kind, "title": title, "occurred_at": f"2026-11-{day}T12:00"},
        )
    ]


@pytest.mark.parametrize(
    "text",
    [
        "got a physio appointment tomorrow",
        "physio appointment was cancelled",
        "my doctors appointment was moved to friday",
        "physio session is next week",
        "the physio was closed today",  # also read through a typo's correction ("lose")
        "my physio was off sick",
    ],
)
def test_a_visit_to_come_or_that_did_not_happen_is_no_record(text):
    found = read(text)
    assert found is None or not any(c.name == "create_care_log" for c in found.calls)


def test_the_guard_takes_a_lasting_pain_as_stated_but_not_a_symptom():
    call = ToolCall(
        id="c1",
        name="create_care_log",
        arguments={"log_type": "injury", "title": "Knee", "occurred_at": "2026-11-24T12:00"},
    )
    assert guardrails.check(call, statement="my knee's been hurting since tuesday") is None
    assert guardrails.check(call, statement="physio appointment went well today") is None
    assert guardrails.check(call, statement="my knee is swollen").reason == "not_stated"
    assert guardrails.check(call, statement="this session is killing me").reason == "not_stated"


@pytest.mark.parametrize(
    "text",
    [
        "my back has been killing me since saturday",  # an injury, never the crisis path
        "this tempo block is killing me haha",
    ],
)
def test_killing_me_about_a_body_or_a_session_is_no_crisis(text):
    found = read(text)
    assert found is None or not found.crisis


def test_crisis_language_beside_a_lasting_pain_is_the_crisis_path():
    found = read("my knee's been hurting since tuesday and i want to kill myself")
    assert found is not None and found.crisis
    assert [(c.name, c.arguments.get("mood")) for c in found.calls] == [("log_mood", "crisis")]


@pytest.mark.parametrize(
    ("text", "kind", "days"),
    [
        ("show me my meds log for the last 2 weeks", "medication", 14),
        ("can i see my supplement history for the past month", "medication", 30),
        ("pull up my mood log from the last 10 days", "mood", 10),
        ("how's my readiness been over the past 3 weeks", "readiness", 21),
        ("readiness history over the past 2 months", "readiness", 60),
        ("hows my meds looking this month", "medication", 30),
        ("my care records for the past fortnight", "care", 14),
        ("how many times did i take ibuprofen this week", "medication", 7),
        ("what was my mood like last week", "mood", 14),
        ("show me everything i logged this month", "all", 30),
        ("my mood over the last month", "mood", 30),
    ],
)
def test_the_log_read_for_a_kind_and_a_window(text, kind, days):
    assert calls(text) == [("get_wellness_logs", {"kind": kind, "days": days})]


def test_a_bare_weekday_is_the_latest_one_and_leaves_the_title():
    assert calls("tweaked my lower back saturday") == injury("Tweaked my lower back", "21")
    assert calls("took 5g creatine monday") == [
        (
            "log_medication",
            {
                "medication_name": "creatine",
                "kind": "supplement",
                "dose": "5 g",
                "date": "2026-11-23",
            },
        )
    ]


@pytest.mark.parametrize(
    ("hour", "time"), [(9, "09:30"), (15, "12:00")], ids=["before noon", "after noon"]
)
def test_a_record_of_today_with_no_time_is_never_in_the_future(monkeypatch, hour, time):
    """Noon, unless it is still morning: "physio appointment went well today" said at 9:30 (the
    service refuses a record in the future, so noon would have been refused)."""
    monkeypatch.setattr(
        timezone, "now", lambda: datetime.datetime(2026, 11, 26, hour, 30, tzinfo=datetime.UTC)
    )
    [(_, args)] = calls("physio appointment went well today")
    assert args["occurred_at"] == f"2026-11-26T{time}"
    [(_, args)] = calls("my knee has been hurting since yesterday")
    assert args["occurred_at"] == "2026-11-25T12:00"  # another day: noon


@pytest.mark.parametrize(
    ("hour", "date"), [(0, "2026-11-26"), (15, None)], ids=["after midnight", "afternoon"]
)
def test_an_evening_dose_told_after_midnight_is_yesterdays(monkeypatch, hour, date):
    """ "took 2 advil at 6:30pm" said at 00:08 (the service refuses a time later than now today);
    said at 15:08 it stays today's, and the service says the time is later than now."""
    monkeypatch.setattr(
        timezone, "now", lambda: datetime.datetime(2026, 11, 27, hour, 8, tzinfo=datetime.UTC)
    )
    text = "took 2 advil at 6:30pm"
    found = understand(
        text, World(today=datetime.date(2026, 11, 27), turns=[Turn(role="user", content=text)])
    )
    [call] = found.calls
    assert call.arguments.get("date") == date and call.arguments["time"] == "18:30"
