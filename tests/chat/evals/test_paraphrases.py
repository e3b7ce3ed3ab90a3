"""The paraphrase set (``evals/paraphrases/``): what athletes actually type, across the five
families, kept apart from the seeds' scenarios because it has no command form. These tests keep the
files usable (they load, every scenario is natural-language only, every date and session they name
resolves on any day of the week); whether the offline coach understands them is what
``manage.py eval_coach --scenarios evals/paraphrases --phrasing natural`` measures."""

from __future__ import annotations

import datetime
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings

from chat.evals.scenarios import load_path
from tests.chat.evals.placeholders import resolve_every_placeholder

PARAPHRASES = Path(settings.BASE_DIR) / "evals" / "paraphrases"
FAMILIES = {"program", "schedule", "training", "library", "nutrition", "wellness"}
SCENARIOS = load_path(PARAPHRASES)


def test_there_are_at_least_150_paraphrases_over_every_family():
    by_family = Counter(s.id.split("-")[1] for s in SCENARIOS)
    assert set(by_family) == FAMILIES
    assert sum(by_family.values()) >= 150
    assert len({s.id for s in SCENARIOS}) == len(SCENARIOS)


def test_every_paraphrase_is_natural_language_only():
    assert all(s.phrasing_ok("natural") == "" for s in SCENARIOS)
    assert all(s.phrasing_ok("command") != "" for s in SCENARIOS)


@pytest.mark.django_db
@pytest.mark.parametrize("weekday", range(7))
def test_every_placeholder_of_the_paraphrases_resolves_whatever_the_day(weekday):
    today = datetime.date(2026, 11, 16) + datetime.timedelta(days=weekday)
    resolve_every_placeholder(SCENARIOS, today)
