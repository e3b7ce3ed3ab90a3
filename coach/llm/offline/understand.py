"""The offline coach's understanding of everyday sentences: the families' ``LANGUAGE``
declarations (``language``) compiled once into one hassil grammar, matched against a message with
the slot lists filled from the athlete's data at match time.

A message is read in this order: the crisis intents first, on the whole message and on each of
its clauses (whatever else it holds, the crisis path wins); then the message split into clauses
("swap squats for lunges and make it 4 sets"), used when every clause is understood, each clause
seeing the calls of the ones before it as what "it" means; then the whole message; then the same
with misspelt words corrected to the nearest word the grammar knows (rapidfuzz). Each reading is
tried best first (hassil's order: fewer wildcards, more literal words); a build that finds the
words don't mean its intent raises ``NotMeant`` and the next reading is tried; another family's
reading as good as the one taken is a question (``ties``); a change built on a typo correction
that is not sure is asked back (``typos``). The message is cleaned first (``cleaning``: quotes,
contractions typed without their apostrophe, numbers glued to their unit). What is still not
understood gets the nearest examples (``nearest``), never a guess.

Why hassil: it is the matcher of Home Assistant's local intents, kept by its maintainers, with
the template syntax people already write (alternatives, optionals, slot lists, expansion rules,
numbers written as words, skip words), and it matches a few hundred templates in milliseconds."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import module_has_submodule
from hassil import Intents, recognize_all
from hassil.intents import TextSlotList

from .cleaning import clean as _clean
from .grammar import CommandError, Parsed
from .language import SHARED, Ask, Intent, Language, NotMeant, Slots, World
from .phrases import phrase_language, phrase_owners
from .ties import Reading, label_of, labelled, tie, writes
from .typos import Corrected, Fix, correct, originals

MAX_MESSAGE = 400  # characters understood; a longer message is not a command
_CLAUSES = re.compile(
    r"\s*(?:;|,?\s+and then\s+|,?\s+then\s+|,?\s+and also\s+|,?\s+and\s+|\.\s+)\s*", re.I
)
WORD = re.compile(r"[a-z][a-z'\-]+")
_RULE = re.compile(r"<(\w+)>")
# Words every intent shares: they say nothing about which one a message means.
_COMMON = "a an the my me i to on of in for at is it and or with this that can you please pls do"
COMMON = frozenset(_COMMON.split())


@dataclass
class Understood:
    """What a message asks for: ``calls`` (one batch), or an ``ask`` (a question with chips), or
    ``problem`` (a recognised request that can't be made, in words); ``crisis`` when the crisis
    path matched."""

    calls: list[Parsed] = field(default_factory=list)
    ask: Ask | None = None
    problem: str = ""
    crisis: bool = False
    # The typo corrections the reading relies on (``typos``): a write built on one that is not
    # sure is asked back instead (``ask``), a read goes ahead.
    fixes: tuple[Fix, ...] = ()


@functools.cache
def family_languages() -> tuple[tuple[str, Language], ...]:
    """Every installed app's ``tools.language.LANGUAGE`` with the app's name, in INSTALLED_APPS
    order."""
    found = []
    for config in apps.get_app_configs():
        if not module_has_submodule(config.module, "tools"):
            continue
        tools = import_module(f"{config.name}.tools")
        if not module_has_submodule(tools, "language"):
            continue
        language = getattr(import_module(f"{config.name}.tools.language"), "LANGUAGE", None)
        if isinstance(language, tuple):  # a family may declare its crisis intents apart
            found.extend((str(config.verbose_name), part) for part in language)
        elif language is not None:
            found.append((str(config.verbose_name), language))
    return tuple(found)


def languages() -> tuple[Language, ...]:
    """Every installed app's ``tools.language.LANGUAGE``, in INSTALLED_APPS order, then the
    sentences the tools declare on their specs (``phrases``)."""
    return (*(language for _, language in family_languages()), phrase_language())


@dataclass(frozen=True)
class _Grammar:
    intents: Intents
    crisis: Intents | None
    by_name: dict[str, Intent]
    fills: dict[str, Any]
    words: frozenset[str]
    examples: tuple[str, ...]
    intent_words: dict[str, frozenset[str]]  # each intent's literal words (its verbs, mostly)
    owners: dict[str, str] = field(default_factory=dict)  # intent → the family declaring it


def _declare(target: dict[str, Any], name: str, value: Any, what: str) -> None:
    if name in target and target[name] != value:
        raise ImproperlyConfigured(f"Two families declare the offline {what} {name!r}.")
    target[name] = value


@functools.cache
def grammar() -> _Grammar:
    lists: dict[str, Any] = {}
    rules: dict[str, str] = {}
    fills: dict[str, Any] = {}
    by_name: dict[str, Intent] = {}
    normal: dict[str, Any] = {}
    crisis: dict[str, Any] = {}
    words: set[str] = set()
    skip_words: list[str] = []
    for language in (SHARED, *languages()):
        for name, pairs in language.values.items():
            _declare(lists, name, {"values": [{"in": w, "out": v} for w, v in pairs]}, "list")
            words.update(word for w, _ in pairs for word in WORD.findall(w.lower()))
        for name, (low, high) in language.ranges.items():
            span: dict[str, Any] = {"from": low, "to": high}
            if name in language.decimals:
                span["fractions"] = "halves"
            _declare(lists, name, {"range": span}, "list")
        skip_words.extend(w for w in language.skip_words if w not in skip_words)
        for name in language.wildcards:
            _declare(lists, name, {"wildcard": True}, "list")
        for name, fill in language.lists.items():
            _declare(fills, name, fill, "list")
            _declare(lists, name, {"values": []}, "list")
        for name, template in language.rules.items():
            _declare(rules, name, template, "rule")
            words.update(WORD.findall(template.lower()))
        for intent in language.intents:
            _declare(by_name, intent.name, intent, "intent")
            (crisis if language.crisis else normal)[intent.name] = {
                "data": [{"sentences": list(intent.sentences)}]
            }
            for sentence in intent.sentences:
                words.update(WORD.findall(re.sub(r"\{\w+\}|<\w+>", " ", sentence.lower())))
    base = {"language": "en", "lists": lists, "expansion_rules": rules}
    examples = tuple(e for i in by_name.values() for e in i.examples)
    expanded = {
        name: " ".join(rules.get(r, "") for r in _RULE.findall(" ".join(i.sentences)))
        for name, i in by_name.items()
    }
    intent_words = {
        name: frozenset(WORD.findall(re.sub(r"\{\w+\}|<\w+>", " ", " ".join(i.sentences).lower())))
        - COMMON
        | (frozenset(WORD.findall(expanded[name].lower())) - COMMON)
        for name, i in by_name.items()
    }
    return _Grammar(
        intents=Intents.from_dict({**base, "intents": normal, "skip_words": skip_words}),
        # The crisis intents read every word as said: nothing around them is a skip word.
        crisis=Intents.from_dict({**base, "intents": crisis}) if crisis else None,
        by_name=by_name,
        fills=fills,
        words=frozenset(words),
        examples=examples,
        intent_words=intent_words,
        owners={
            **{i.name: family for family, language in family_languages() for i in language.intents},
            **phrase_owners(),
        },
    )


def _number(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _filled(world: World) -> dict[str, list[tuple[str, Any]]]:
    """The lists filled from the athlete's data, once a message."""
    return world.cached(
        "filled",
        lambda: {
            name: [(w.strip(), v) for w, v in fill(world) if w.strip()]
            for name, fill in grammar().fills.items()
        },
    )


@functools.lru_cache(maxsize=256)
def _slot_list(pairs: tuple[tuple[str, Any], ...]) -> TextSlotList:
    """A hassil list of ``pairs``, kept while the athlete's data is unchanged (a list is rebuilt
    only when its words or values change, so a message pays for its lists once)."""
    return TextSlotList.from_tuples(pairs, allow_template=False)


def _slot_lists(world: World) -> dict[str, TextSlotList]:
    return world.cached(
        "slot_lists",
        lambda: {name: _slot_list(tuple(pairs)) for name, pairs in _filled(world).items()},
    )


def _score(result: Any) -> tuple[int, int, int]:
    """hassil's order of matches: fewer wildcards, more literal words, less wildcard text."""
    wild = [e for e in result.entities_list if e.is_wildcard]
    return (len(wild), -result.text_chunks_matched, sum(len(e.text or "") for e in wild))


def _matches(
    text: str,
    intents: Intents,
    world: World,
    *,
    athlete_lists: bool = True,
    corrected: Corrected | None = None,
) -> list[Reading]:
    """Every reading of ``text``, best first (as hassil's ``recognize_best`` ranks them);
    ``athlete_lists=False`` reads none of the athlete's data (the crisis intents hold none)."""
    lists = _slot_lists(world) if athlete_lists else {}
    corrected = corrected if corrected is not None and corrected.text == text else Corrected(text)
    results = sorted(recognize_all(text, intents, slot_lists=lists, language="en"), key=_score)
    g = grammar()
    found: list[Reading] = []
    seen = set()
    for result in results:
        values = {name: _number(entity.value) for name, entity in result.entities.items()}
        words = {name: str(entity.text).strip() for name, entity in result.entities.items()}
        for name, value in values.items():
            if isinstance(value, str):
                values[name] = value.strip().strip("\"'").strip()
        key = (result.intent.name, repr(sorted(values.items())))
        if key not in seen:
            seen.add(key)
            slots = Slots(values, words, world, text, originals(result, corrected))
            intent = g.by_name[result.intent.name]
            found.append(Reading(intent, slots, _score(result), g.owners.get(intent.name, "")))
    return _by_fit(found)


def _by_fit(found: list[Reading]) -> list[Reading]:
    """The best-ranked readings, when they are of several intents that declare a ``fit``, in the
    order of how well the athlete's data answers each (ties keep hassil's order)."""
    top = [r for r in found if r.score == found[0].score] if found else []
    if len({r.intent.name for r in top}) < 2 or not any(r.intent.fit for r in top):
        return found
    return sorted(top, key=lambda r: -r.fit) + found[len(top) :]


def _build(reading: Reading) -> list[Parsed] | Ask:
    built = reading.intent.build(reading.slots)
    if isinstance(built, Ask):
        return built
    calls = built if isinstance(built, list) else [built]
    reading.slots.world.said.extend(calls)
    return calls


def _first(
    text: str,
    intents: Intents,
    world: World,
    *,
    athlete_lists: bool = True,
    corrected: Corrected | None = None,
    only: str = "",
) -> list[Parsed] | Ask | None:
    """The best reading a build accepts (a build raises ``NotMeant`` when the words matched but
    don't mean its intent: "add Leg Day Destroyer on my calendar" is no exercise to add). When
    another family's reading is as good and builds other calls, the athlete is asked which
    (``ties``); ``only`` (a tool's label, from such a question's chip) keeps the readings whose
    calls start with that tool."""
    readings = _matches(text, intents, world, athlete_lists=athlete_lists, corrected=corrected)
    for at, reading in enumerate(readings):
        said = len(world.said)
        try:
            result = _build(reading)
        except NotMeant:
            continue
        if only:
            if isinstance(result, list) and result and label_of(result) == only:
                return result
            del world.said[said:]
            continue
        if isinstance(result, list) and (ask := tie(readings, at, result, _build, text)):
            del world.said[said:]
            return ask
        return result
    return None


def _known(world: World, *, athlete_lists: bool = True) -> frozenset[str]:
    """The words the grammar knows, the athlete's own names included (unless ``athlete_lists`` is
    False: the crisis path reads no athlete data)."""
    if not athlete_lists:
        return grammar().words

    def words() -> frozenset[str]:
        known = set(grammar().words)
        for pairs in _filled(world).values():
            for said, _ in pairs:
                known.update(WORD.findall(said.lower()))
        return frozenset(known)

    return world.cached("known_words", words)


def _corrected(text: str, world: World, *, athlete_lists: bool = True) -> Corrected:
    """``text`` with each word the grammar doesn't know replaced by the nearest one it knows
    (``typos``)."""
    return correct(text, _known(world, athlete_lists=athlete_lists))


def _clauses(corrected: Corrected) -> list[Corrected]:
    parts, at = [], 0
    for m in _CLAUSES.finditer(corrected.text):
        parts.append(corrected.part(at, m.start()))
        at = m.end()
    parts.append(corrected.part(at, len(corrected.text)))
    return [p for p in parts if p.text.strip()]


def _attempt(corrected: Corrected, world: World, *, only: str = "") -> list[Parsed] | Ask | None:
    g = grammar()
    clauses = _clauses(corrected)
    if len(clauses) > 1:
        said = len(world.said)
        built: list[Parsed] = []
        for clause in clauses:
            result = _first(clause.text, g.intents, world, corrected=clause, only=only)
            if result is None:
                break
            if isinstance(result, Ask):
                del world.said[said:]
                return result
            built.extend(result)
        else:
            return built
        del world.said[said:]
    return _first(corrected.text, g.intents, world, corrected=corrected, only=only)


def crisis(message: str, world: World) -> Understood | None:
    """The crisis path, when ``message`` (or one of its clauses, or the message with its typos
    corrected) matches a crisis intent: asked before anything else, the documented commands
    included, so no other reading of the sentence can win over it."""
    text = _clean(message)
    g = grammar()
    if not text or g.crisis is None:
        return None
    # The crisis intents hold no athlete list: nothing of the athlete's data is read for them.
    fixed = _corrected(text, world, athlete_lists=False)
    for candidate in (Corrected(text), fixed) if fixed.fixes else (Corrected(text),):
        parts = [candidate] if len(candidate.text) <= MAX_MESSAGE else []
        parts += [p.part(0, MAX_MESSAGE) for p in _clauses(candidate)]
        for part in parts:
            result = _first(part.text, g.crisis, world, athlete_lists=False, corrected=part)
            if result is not None:
                if isinstance(result, Ask):
                    return Understood(ask=result, crisis=True, fixes=part.fixes)
                return Understood(calls=result, crisis=True, fixes=part.fixes)
    return None


def understand(message: str, world: World) -> Understood | None:
    """What ``message`` asks for, or None when it isn't understood (see the module docstring)."""
    only, text = labelled(_clean(message))
    if not text or len(text) > MAX_MESSAGE:
        return None
    fixed = Corrected(text)
    try:
        if (found := crisis(message, world)) is not None:
            return found
        result = _attempt(fixed, world, only=only)
        if result is None:
            fixed = _corrected(text, world)
            result = _attempt(fixed, world, only=only) if fixed.fixes else None
    except CommandError as exc:
        return Understood(problem=str(exc), fixes=fixed.fixes)
    if result is None:
        return None
    if isinstance(result, Ask):
        return Understood(ask=result, fixes=fixed.fixes)
    if fixed.fixes and not fixed.sure and writes(result):
        # A change built on a correction that is not sure: asked back, the corrected sentence
        # as its chip (understood as it reads, with no correction left to make).
        chip = f"{only}: {fixed.text}" if only else fixed.text
        return Understood(ask=Ask(f'Did you mean: "{chip}"?', (chip, "help")), fixes=fixed.fixes)
    return Understood(calls=result, fixes=fixed.fixes)
