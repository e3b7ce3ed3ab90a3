"""Argument matchers: each one passes what it should and fails what it should; lenient and strict
(exact) call matching."""

import datetime

import pytest

from chat.evals.matchers import MISSING, lookup, match_calls, matches
from chat.evals.scenarios import CallSpec
from chat.evals.templates import TemplateError, resolve_date


@pytest.mark.parametrize(
    ("actual", "matcher", "ok"),
    [
        (1, 1, True),
        (1.0, 1, True),
        (2, 1, False),
        ("Push Day A", "Push Day A", True),
        ("push day a", "Push Day A", False),
        (True, 1, False),
        (MISSING, 1, False),
        ("swap", {"one_of": ["swap", "push"]}, True),
        ("replace", {"one_of": ["swap", "push"]}, False),
        (7, {"range": [6, 8]}, True),
        (9, {"range": [6, 8]}, False),
        ("2026-12-05", {"range": ["2026-12-01", "2026-12-07"]}, True),
        ("2026-12-08", {"range": ["2026-12-01", "2026-12-07"]}, False),
        ("Walking Lunge", {"regex": "(?i)lunge"}, True),
        ("Goblet Squat", {"regex": "(?i)lunge"}, False),
        (None, {"regex": "x"}, False),
        ("anything", {"any": True}, True),
        (MISSING, {"any": True}, False),
        (MISSING, {"absent": True}, True),
        (None, {"absent": True}, True),
        ({"type": "zone2"}, {"absent": True}, False),
        (MISSING, {"empty": True}, True),
        ([], {"empty": True}, True),
        ([{"name": "Squat"}], {"empty": True}, False),
    ],
)
def test_each_matcher(actual, matcher, ok):
    assert matches(actual, matcher)[0] is ok


def test_paths_reach_into_dicts_and_lists():
    args = {"weeks": [{"phase": "Deload", "sessions": []}], "updates": {"name": "X"}}
    assert lookup(args, "updates.name") == "X"
    assert lookup(args, "weeks.0.phase") == "Deload"
    assert lookup(args, "weeks.length") == 1
    assert lookup(args, "weeks.0.sessions.length") == 0
    assert lookup(args, "weeks.1.phase") is MISSING
    assert lookup(args, "updates.reps") is MISSING


def test_lenient_matching_takes_any_order_and_repeats_strict_does_not():
    rename = CallSpec("modify_exercise", {"updates.name": {"regex": "Lunge"}}, times="1+")
    reps = CallSpec("modify_exercise", {"updates.reps": "12"})
    calls = [
        {"name": "modify_exercise", "arguments": {"updates": {"reps": "12"}}},
        {"name": "modify_exercise", "arguments": {"weekNumber": 1, "updates": {"name": "Lunge"}}},
        {"name": "modify_exercise", "arguments": {"weekNumber": 2, "updates": {"name": "Lunge"}}},
    ]
    assert match_calls([rename, reps], calls, strict=False) == (True, "")
    assert match_calls([rename, reps], calls, strict=True)[0] is False
    assert match_calls([reps, rename], calls[:2], strict=True) == (True, "")
    ok, why = match_calls([reps], calls[:2], strict=False)
    assert not ok and "unexpected modify_exercise" in why
    ok, why = match_calls([rename, reps], calls[1:], strict=False)
    assert not ok and why.startswith("missing modify_exercise ×1")
    assert match_calls([], [], strict=True) == (True, "")


def test_date_expressions():
    sunday = datetime.date(2026, 11, 22)
    assert resolve_date("today+1", sunday) == datetime.date(2026, 11, 23)
    assert resolve_date("monday", sunday) == datetime.date(2026, 11, 16)
    assert resolve_date("monday-7", sunday) == datetime.date(2026, 11, 9)
    assert resolve_date("friday", sunday) == datetime.date(2026, 11, 27)
    assert resolve_date("sunday", sunday) == datetime.date(2026, 11, 29)  # the next one
    with pytest.raises(TemplateError):
        resolve_date("someday", sunday)
