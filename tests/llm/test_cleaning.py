"""A message as the grammar reads it (``coach.llm.offline.cleaning``): contractions typed without
their apostrophe are written out, "ill" stays a word of its own, numbers part from their units."""

from __future__ import annotations

import pytest

from coach.llm.offline.cleaning import clean


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("i cant do deadlifts on friday", "i can't do deadlifts on friday"),
        ("Im wiped, whats on tomorrow?", "I'm wiped, what's on tomorrow"),
        ("id like three sets of twelve", "i'd like three sets of twelve"),
        ("dont skip it", "don't skip it"),
    ],
)
def test_contractions_without_their_apostrophe_are_written_out(typed, read):
    assert clean(typed) == read


def test_ill_and_id_alone_stay_as_typed():
    assert clean("I'm ill, skip today") == "I'm ill, skip today"
    assert clean("what id is it") == "what id is it"


def test_decimal_loads_and_glued_units_are_parted():
    assert clean("bench 62.5kg on wednesday") == "bench 62.5 kg on wednesday"
    assert clean("leg press 4x12 at 185lbs") == "leg press 4 x 12 at 185 lbs"
