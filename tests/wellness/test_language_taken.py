"""Several things taken in one sentence (``wellness.tools.taken``): one log for each name joined
by "and", ",", "&" or "plus", a dose kept with the name it is glued to, a dose that could be any
of them asked, a time or a day said once for all, and a clause after "and" never a medicine."""

from __future__ import annotations

import pytest

from wellness.tools.offline import parse_wellness_command

from .test_language import calls, read


def test_two_supplements_joined_by_and_are_two_logs():
    assert calls("took my vitamin d and fish oil") == [
        ("log_medication", {"medication_name": "vitamin d", "kind": "supplement"}),
        ("log_medication", {"medication_name": "fish oil", "kind": "supplement"}),
    ]


def test_a_time_said_once_is_each_ones():
    assert calls("took my magnesium and zinc at 9pm") == [
        ("log_medication", {"medication_name": "magnesium", "kind": "supplement", "time": "21:00"}),
        ("log_medication", {"medication_name": "zinc", "kind": "supplement", "time": "21:00"}),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "i took zinc, magnesium and iron",
        "i took zinc, magnesium & iron",
        "took zinc, magnesium plus iron",
    ],
)
def test_a_list_with_commas_is_one_log_a_name(text):
    assert [args["medication_name"] for _, args in calls(text)] == ["zinc", "magnesium", "iron"]


@pytest.mark.parametrize("text", ["took 5g creatine and fish oil", "took creatine 5g and fish oil"])
def test_a_dose_glued_to_one_name_stays_with_it(text):
    assert calls(text) == [
        ("log_medication", {"medication_name": "creatine", "kind": "supplement", "dose": "5 g"}),
        ("log_medication", {"medication_name": "fish oil", "kind": "supplement"}),
    ]


def test_a_medicine_and_a_supplement_keep_their_own_kinds():
    assert calls("took ibuprofen and vitamin c yesterday") == [
        (
            "log_medication",
            {"medication_name": "ibuprofen", "kind": "medication", "date": "2026-11-25"},
        ),
        (
            "log_medication",
            {"medication_name": "vitamin c", "kind": "supplement", "date": "2026-11-25"},
        ),
    ]


@pytest.mark.parametrize(
    "text", ["took creatine and fish oil 5g", "took 5g each of creatine and beta-alanine"]
)
def test_a_dose_that_could_be_either_is_asked(text):
    found = read(text)
    assert found is not None and found.calls == [] and found.ask is not None
    assert "5 g" in found.ask.question
    assert len(found.ask.options) == 2


def test_a_clause_after_and_is_no_medicine():
    found = read("took my creatine and went for a run")
    assert found is None or not any("went" in str(c.arguments) for c in found.calls)


def test_one_name_with_its_dose_after_a_comma_is_one_log():
    assert calls("took ibuprofen, 400mg") == [
        ("log_medication", {"medication_name": "ibuprofen", "kind": "medication", "dose": "400 mg"})
    ]


def test_what_it_was_for_is_never_a_second_name():
    assert calls("took ibuprofen for my knee and back") == [
        ("log_medication", {"medication_name": "ibuprofen", "kind": "medication"})
    ]


def test_the_documented_command_leaves_two_names_to_the_everyday_reading():
    # "took my vitamin d and fish oil" was once one supplement named "vitamin d and fish oil"
    assert parse_wellness_command("took my vitamin d and fish oil") is None
    assert parse_wellness_command("took my creatine").arguments["medication_name"] == "creatine"
