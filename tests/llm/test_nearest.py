"""The "Did you mean" chips (``nearest``): the declared examples nearest to a sentence not
understood, the intent's own words counting (its verbs), one chip per intent, two or three."""

from __future__ import annotations

from coach.llm.offline.chips import nearest
from coach.llm.offline.understand import grammar


def test_the_verb_picks_the_intent():
    assert nearest("replace squat")[0] == "swap squats for lunges"
    assert nearest("more sets on bench")[0] == "make bench press three sets of ten"


def test_two_or_three_chips_each_a_declared_example_of_a_different_intent():
    examples = set(grammar().examples)
    for message in ("change my squat weight", "delete tuesday", "add a workout on sunday"):
        chips = nearest(message)
        assert 2 <= len(chips) <= 3, (message, chips)
        assert set(chips) <= examples
        owners = [
            name
            for name, intent in grammar().by_name.items()
            for c in chips
            if c in intent.examples
        ]
        assert len(owners) == len(set(owners)) == len(chips)


def test_the_commands_examples_may_join():
    assert "show week 3" in nearest("show week", extra=("show week 3",))


def test_a_bystander_sharing_only_small_words_is_no_chip():
    # "take me to my calendar" shares only "me", "what's for dinner tonight" only "for"
    assert nearest("remind me to stretch at 8pm") == ["remind me every monday at 7pm to stretch"]
    chips = nearest("swap the rdl for good mornings")
    assert chips[0] == "swap squats for lunges" and "what's for dinner tonight" not in chips
