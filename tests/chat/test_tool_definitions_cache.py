"""The tool definitions a call sends are built once per set of loaded families
(``chat.toolsets.definitions``) and built again when the registry changes; sending them never
changes them (they are shared by every call)."""

from __future__ import annotations

import copy
import json

from django.test import modify_settings

from chat import toolsets
from coach import registry
from coach.llm import anthropic, openai
from coach.llm.base import Turn
from coach.llm.textformat import text_request
from coach.llm.tokens import count_request_tokens
from coach.registry import ALWAYS_SENT, FAMILIES, tool_definitions

LOADABLE = [name for name in FAMILIES if name not in ALWAYS_SENT]


def names(definitions):
    return [d["name"] for d in definitions]


def test_the_definitions_are_the_registrys_and_built_once_per_set_of_families():
    for families in ([], ["training"], LOADABLE[:2], LOADABLE):
        first = toolsets.definitions(families)
        again = toolsets.definitions(list(reversed(families)))
        assert first == tool_definitions(families=families)
        assert all(a is b for a, b in zip(first, again, strict=True))  # built once
        assert first is not again  # each caller has its own list
    assert names(toolsets.definitions([])) != names(toolsets.definitions(["training"]))


def toy_enum(definitions):
    use_tools = next(d for d in definitions if d["name"] == registry.USE_TOOLS)
    return "toy" in use_tools["input_schema"]["properties"]["families"]["items"]["enum"]


def test_a_changed_registry_builds_them_again():
    before = toolsets.definitions(["toy"])
    assert "toy_ping" not in names(before) and not toy_enum(before)
    try:
        with modify_settings(INSTALLED_APPS={"append": "tests.toyfamily"}):
            registry.discover()
            installed = toolsets.definitions(["toy"])
            assert installed == tool_definitions(families=["toy"])
            assert {"toy_ping", "toy_rename"} <= set(names(installed)) and toy_enum(installed)
    finally:
        registry.discover()
    after = toolsets.definitions(["toy"])
    assert after == before == tool_definitions(families=["toy"])


def test_sending_the_definitions_leaves_them_as_they_were():
    shared = toolsets.definitions(LOADABLE)
    before = copy.deepcopy(shared)
    turns = [Turn(role="user", content="Swap my squats for lunges.")]
    json.dumps(openai.build_tools(shared))
    json.dumps(anthropic.build_tools(shared))
    text_request(system="You coach.", turns=turns, tools=shared)
    count_request_tokens(system="You coach.", turns=turns, tools=shared, tool_format="text")
    count_request_tokens(system="You coach.", turns=turns, tools=shared)
    assert toolsets.definitions(LOADABLE) == before == tool_definitions(families=LOADABLE)
