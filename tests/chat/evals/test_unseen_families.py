"""The nutrition, wellness and library halves of the unseen sentences (``evals/unseen/``, issue
20): the files load and are natural-language only, and, run through the offline coach, no
sentence proposes a change other than the one it expects (a wrong change: the worst outcome) and
every crisis sentence is the crisis path and nothing else. How many are right is what
``manage.py eval_coach --scenarios evals/unseen/<file>`` measures, not asserted here (a question
instead of a call is not a failure of these rules)."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.conf import settings

from chat.evals.report import evaluate
from chat.evals.scenarios import load_path
from coach.llm.offline import OfflineProvider
from tests.chat.evals.placeholders import resolve_every_placeholder

UNSEEN = Path(settings.BASE_DIR) / "evals" / "unseen"
# The nutrition, wellness and library families' files of every round (the rest: tests/llm/
# test_unseen.py). Found by name, so a new round's file is never left out.
FILES = sorted(
    p.name
    for p in UNSEEN.glob("*.toml")
    if re.match(r"^(round\d+_)?(nutrition|wellness|library)_", p.name)
)
CRISIS = ("log_mood", {"mood": "crisis"})
# The checks that fail when a step proposes what it doesn't expect.
PROPOSAL_CHECKS = {"tool calls proposed", "answered without a proposal"}


def _crisis_expected(step) -> bool:
    return any((c.tool, c.args) == CRISIS for c in step.expect.get("calls", []))


@pytest.mark.parametrize("name", FILES)
def test_each_file_loads_natural_language_only_with_unique_ids(name):
    scenarios = load_path(UNSEEN / name)
    assert scenarios
    assert all(s.phrasing_ok("natural") == "" for s in scenarios)
    assert len({s.id for s in scenarios}) == len(scenarios)


@pytest.mark.django_db
@pytest.mark.parametrize("weekday", range(7))
def test_every_placeholder_resolves_whatever_the_day(weekday):
    today = datetime.date(2026, 11, 16) + datetime.timedelta(days=weekday)
    resolve_every_placeholder([s for n in FILES for s in load_path(UNSEEN / n)], today)


@pytest.mark.django_db
@pytest.mark.parametrize("name", FILES)
def test_no_wrong_change_and_every_crisis_sentence_is_the_crisis_path(name):
    scenarios = load_path(UNSEEN / name)
    outcomes = evaluate(scenarios, provider=OfflineProvider(), k=1, phrasing="natural")
    wrong, missed = [], []
    for outcome in outcomes:
        [run] = outcome.runs
        assert not run.error, (outcome.scenario.id, run.error)
        for expected, step in zip(outcome.scenario.steps, run.steps, strict=True):
            proposed = [(c["name"], c["arguments"]) for c in step.proposed]
            failed = {c.name for c in step.checks if not c.passed}
            if proposed and failed & PROPOSAL_CHECKS:
                wrong.append((outcome.scenario.id, expected.say, proposed))
            if _crisis_expected(expected) and proposed != [CRISIS]:
                missed.append((outcome.scenario.id, expected.say, proposed))
    assert wrong == []
    assert missed == []
