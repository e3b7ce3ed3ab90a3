"""The unseen sentences (``evals/unseen/``): the files load, every date and session they name
resolves whatever the day, and the offline coach makes ZERO wrong changes on them (issue 20's hard
rule: a sentence not understood changes nothing; one understood differently must never propose a
different change). How many pass is measured and reported (``evals/unseen/README.md``), not
asserted here."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.conf import settings

from chat.evals.report import evaluate
from chat.evals.results import Check, StepResult
from chat.evals.scenarios import load_path
from coach.llm.offline import OfflineProvider
from tests.chat.evals.placeholders import resolve_every_placeholder
from tests.llm.unseen_support import is_wrong_change

UNSEEN = Path(settings.BASE_DIR) / "evals" / "unseen"
# Every file but the nutrition, wellness and library families' (tests/chat/evals/
# test_unseen_families.py runs those): the program and schedule/training halves of each round and
# the lead's blind sets over all five families. Found by name, so a new round's file is never left out.
FAMILIES_ELSEWHERE = re.compile(r"^(round\d+_)?(nutrition|wellness|library)_")
FILES = sorted(p.stem for p in UNSEEN.glob("*.toml") if not FAMILIES_ELSEWHERE.match(p.name))
SCENARIOS = [s for name in FILES for s in load_path(UNSEEN / f"{name}.toml")]


def test_both_halves_of_each_family_load_with_unique_natural_language_scenarios():
    assert {"lead_mixed", "lead2_mixed", "round2_program_dev"} <= set(FILES)
    assert len(SCENARIOS) >= 180
    assert len({s.id for s in SCENARIOS}) == len(SCENARIOS)
    assert all(s.phrasing_ok("natural") == "" for s in SCENARIOS)


@pytest.mark.django_db
@pytest.mark.parametrize("weekday", range(7))
def test_every_placeholder_of_the_unseen_sentences_resolves_whatever_the_day(weekday):
    today = datetime.date(2026, 11, 16) + datetime.timedelta(days=weekday)
    resolve_every_placeholder(SCENARIOS, today)


def test_a_wrong_change_is_a_proposed_write_with_a_failed_check():
    write = {"kind": "write", "status": "proposed"}
    failed, passed = Check("tool calls proposed", False), Check("card open", True)
    assert is_wrong_change(StepResult("s", calls=[write], checks=[failed]))
    assert not is_wrong_change(StepResult("s", calls=[write], checks=[passed]))
    assert not is_wrong_change(StepResult("s", calls=[], checks=[failed]))  # not understood
    refused = {"kind": "write", "status": "refused"}
    assert not is_wrong_change(StepResult("s", calls=[refused], checks=[failed]))


@pytest.mark.django_db
def test_the_offline_coach_makes_no_wrong_change_on_the_unseen_sentences():
    outcomes = evaluate(SCENARIOS, provider=OfflineProvider(), k=1, phrasing="natural")

    wrong = [
        (outcome.scenario.id, step.text, [c["name"] for c in step.calls])
        for outcome in outcomes
        for run in outcome.runs
        for step in run.steps
        if is_wrong_change(step)
    ]
    assert wrong == []
