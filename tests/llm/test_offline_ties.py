"""The engine's own judgement of readings, on toy families' sentences: two families' readings that
are equally good are a question with one chip per reading, and each chip re-runs as that reading
alone (``ties``); a change built on a typo correction that is not sure is asked back, a sure one
or a read goes ahead (``typos``); a free-text slot keeps the words as the athlete typed them
(``Slots.original``)."""

from __future__ import annotations

import pytest
from django.test import modify_settings

from coach import registry
from coach.llm.base import World
from coach.llm.offline import families as offline_families
from coach.llm.offline import understand as engine
from coach.llm.offline.grammar import Parsed
from coach.llm.offline.language import Intent, Language
from coach.llm.offline.typos import correct

REAL = engine.family_languages
seen: dict[str, object] = {}


def _ping(slots) -> Parsed:
    return Parsed("toy_ping", {}, "ping the toy")


def _rename(slots) -> Parsed:
    seen["original"] = slots.original("toy_name")
    return Parsed(
        "toy_rename", {"name": slots.get("toy_name")}, f"rename to {slots.get('toy_name')}"
    )


def _install(monkeypatch, *languages: tuple[str, Language]) -> None:
    monkeypatch.setattr(engine, "family_languages", lambda: (*REAL(), *languages))
    engine.grammar.cache_clear()


@pytest.fixture(autouse=True)
def toy_family():
    """The toy family installed (its tools' labels are the chips'), the grammar rebuilt after."""
    try:
        with modify_settings(INSTALLED_APPS={"append": "tests.toyfamily"}):
            registry.discover()
            offline_families.declared.cache_clear()
            engine.grammar.cache_clear()
            yield
    finally:
        registry.discover()
        offline_families.declared.cache_clear()
        engine.grammar.cache_clear()


def _rename_b() -> Parsed:
    return Parsed("toy_rename", {"name": "Bear"}, "rename to Bear")


def _calls(found):
    assert found is not None and found.ask is None, found
    return [(c.name, c.arguments) for c in found.calls]


def test_two_families_equally_good_readings_are_a_question_with_one_chip_each(monkeypatch):
    def _bear(slots) -> Parsed:
        return _rename_b()

    a = Language(intents=(Intent("toy_a.poke", ("poke the toy bear",), build=_ping),))
    b = Language(intents=(Intent("toy_b.poke", ("poke the toy bear",), build=_bear),))
    _install(monkeypatch, ("Toy A", a), ("Toy B", b))
    found = engine.understand("poke the toy bear", World())
    assert found is not None and found.calls == [] and found.ask is not None
    assert '"ping the toy"' in found.ask.question and '"rename to Bear"' in found.ask.question
    assert found.ask.options == ("Toy ping: poke the toy bear", "Toy rename: poke the toy bear")
    # each chip is understood as that reading alone, asking nothing
    assert _calls(engine.understand(found.ask.options[0], World())) == [("toy_ping", {})]
    assert _calls(engine.understand(found.ask.options[1], World())) == [
        ("toy_rename", {"name": "Bear"})
    ]


def test_a_better_fit_decides_a_tie_without_a_question(monkeypatch):
    def _bear(slots) -> Parsed:
        return _rename_b()

    a = Language(
        intents=(Intent("toy_a.poke", ("poke the toy bear",), build=_ping, fit=lambda s: 1),)
    )
    b = Language(
        intents=(Intent("toy_b.poke", ("poke the toy bear",), build=_bear, fit=lambda s: 2),)
    )
    _install(monkeypatch, ("Toy A", a), ("Toy B", b))
    assert _calls(engine.understand("poke the toy bear", World())) == [
        ("toy_rename", {"name": "Bear"})
    ]


def test_one_familys_own_readings_are_its_to_order(monkeypatch):
    def _bear(slots) -> Parsed:
        return _rename_b()

    a = Language(
        intents=(
            Intent("toy_a.poke", ("poke the toy bear",), build=_ping),
            Intent("toy_a.bear", ("poke the toy bear",), build=_bear),
        )
    )
    _install(monkeypatch, ("Toy A", a))
    assert _calls(engine.understand("poke the toy bear", World())) == [("toy_ping", {})]


def test_a_better_ranked_reading_is_no_tie(monkeypatch):
    def _bear(slots) -> Parsed:
        return _rename_b()

    a = Language(intents=(Intent("toy_a.poke", ("poke the toy bear",), build=_ping),))
    b = Language(intents=(Intent("toy_b.poke", ("poke the toy {toy_name}",), build=_bear),))
    b = Language(intents=b.intents, wildcards=("toy_name",))
    _install(monkeypatch, ("Toy A", a), ("Toy B", b))
    assert _calls(engine.understand("poke the toy bear", World())) == [("toy_ping", {})]


def _renames(monkeypatch) -> None:
    language = Language(
        intents=(Intent("toy_a.rename", ("rename the toy to {toy_name}",), build=_rename),),
        wildcards=("toy_name",),
    )
    _install(monkeypatch, ("Toy A", language))


def test_a_free_text_slot_keeps_the_athletes_casing_and_spelling(monkeypatch):
    _renames(monkeypatch)
    seen.clear()
    found = engine.understand("rename the toy to McGregor O'Neil", World())
    assert _calls(found) == [("toy_rename", {"name": "McGregor O'Neil"})]
    assert seen["original"] == "McGregor O'Neil"
    # a word of the slot that the typo correction changed reads back as typed
    found = engine.understand("renmae the toy to Renmae", World())
    assert _calls(found) == [("toy_rename", {"name": "rename"})]
    assert seen["original"] == "Renmae"
    assert [(f.said, f.meant) for f in found.fixes] == [("renmae", "rename"), ("Renmae", "rename")]


def test_a_change_built_on_an_unsure_correction_is_asked_back(monkeypatch):
    _renames(monkeypatch)
    found = engine.understand("renmea the toy to Sam", World())
    assert found is not None and found.calls == [] and found.ask is not None
    assert found.ask.options[0] == "rename the toy to Sam"
    assert "Did you mean" in found.ask.question
    assert _calls(engine.understand(found.ask.options[0], World())) == [
        ("toy_rename", {"name": "Sam"})
    ]


def test_a_sure_correction_goes_ahead_and_is_flagged(monkeypatch):
    _renames(monkeypatch)
    found = engine.understand("renmae the toy to Sam", World())
    assert _calls(found) == [("toy_rename", {"name": "Sam"})]
    assert [f.sure for f in found.fixes] == [True]


def test_a_read_built_on_an_unsure_correction_goes_ahead(monkeypatch):
    language = Language(intents=(Intent("toy_a.ping", ("ping the toy please",), build=_ping),))
    _install(monkeypatch, ("Toy A", language))
    found = engine.understand("ping the toy ppleasee", World())  # two edits from "please"
    assert _calls(found) == [("toy_ping", {})]
    assert [(f.meant, f.sure) for f in found.fixes] == [("please", False)]


def test_a_correction_is_sure_when_one_edit_away_with_no_rival():
    known = {"squat", "squats", "bench", "rename", "press", "dress"}
    assert [f.sure for f in correct("benhc", known).fixes] == [True]  # two letters swapped
    assert [f.sure for f in correct("renmea", known).fixes] == [False]  # two edits
    assert [f.sure for f in correct("squatz", known).fixes] == [False]  # squat and squats rival
    assert correct("benched", known).fixes == ()  # another form of bench, not a typo


def test_an_english_word_is_only_replaced_by_a_sure_correction():
    known = {"change", "dumbbell", "rows", "sorted", "squats"}
    # "supported" is three edits from "sorted": an English word, kept as typed
    found = correct("change the dumbell rows to chest supported rows", known)
    assert found.text == "change the dumbbell rows to chest supported rows"
    assert [(f.said, f.meant) for f in found.fixes] == [("dumbell", "dumbbell")]
    # an autocorrected word one edit from what the grammar knows is still corrected
    assert [(f.said, f.meant, f.sure) for f in correct("squads", known).fixes] == [
        ("squads", "squats", True)
    ]
    # a typo that is no word at all is corrected as before, sure or not
    assert [f.meant for f in correct("sortted", known).fixes] == ["sorted"]


def test_two_reads_equally_good_are_answered_by_the_first_without_a_question(monkeypatch):
    def _week(slots) -> Parsed:
        return Parsed("get_week", {"weekNumber": 1}, "show week 1")

    a = Language(intents=(Intent("toy_a.poke", ("poke the toy bear",), build=_ping),))
    b = Language(intents=(Intent("toy_b.poke", ("poke the toy bear",), build=_week),))
    _install(monkeypatch, ("Toy A", a), ("Toy B", b))
    assert _calls(engine.understand("poke the toy bear", World())) == [("toy_ping", {})]


def test_a_chips_label_never_hides_crisis_language():
    found = engine.understand("Toy ping: I want to kill myself", World())
    assert found is not None and found.crisis is True


def test_a_reading_that_builds_no_call_ties_nothing(monkeypatch):
    a = Language(intents=(Intent("toy_a.poke", ("poke the toy bear",), build=lambda s: []),))
    b = Language(intents=(Intent("toy_b.poke", ("poke the toy bear",), build=_ping),))
    _install(monkeypatch, ("Toy A", a), ("Toy B", b))
    found = engine.understand("poke the toy bear", World())
    assert found is not None and found.ask is None and found.calls == []
