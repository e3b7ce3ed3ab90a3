"""Tool families on demand (``chat.toolsets``, ``coach.tools.catalog``): the program tools and
``use_tools`` go with every call, every other family is a line of the system prompt until the
model loads it, and every tool stays reachable for every kind of model."""

from __future__ import annotations

import types

import pytest
from django.db import transaction

from chat import budget
from chat.agent import run_turn
from chat.models import Message, ToolCallRecord
from chat.services import message_send
from chat.toolsets import FAMILY_REPLIES, families_called
from coach import engine
from coach.llm.base import Turn
from coach.llm.offline import OfflineProvider
from coach.llm.textcalls import extract_text_calls
from coach.llm.textformat import text_request
from coach.registry import (
    ALWAYS_SENT,
    FAMILIES,
    REGISTRY,
    USE_TOOLS,
    catalog_lines,
    get_tool,
    tool_definitions,
)
from coach.toolcalls import ToolCall
from coach.tools.base import ToolContext
from coach.tools.catalog import families_of, use_tools_spec
from tests.chat.scripted_provider import ScriptedProvider, assert_valid_turns
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db

LOADABLE = [name for name in FAMILIES if name not in ALWAYS_SENT]


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)


def say(conversation, text, provider):
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=provider)
    placeholder.refresh_from_db()
    return placeholder


def send_only(conversation, text):
    with transaction.atomic():
        return message_send(conversation=conversation, text=text)[1]


def names(request) -> set[str]:
    return {tool["name"] for tool in request.tools}


def family_tools(*families: str) -> set[str]:
    return {name for family in families for name in FAMILIES[family].tool_names}


def test_the_first_call_sends_the_program_tools_and_one_line_per_other_family(conversation):
    provider = ScriptedProvider().text("Hi.\n---\nOK")
    reply = say(conversation, "hello", provider)
    request = provider.requests[0]
    assert names(request) == family_tools(*ALWAYS_SENT)
    assert {"modify_exercise", "add_week", "get_week", USE_TOOLS} <= names(request)
    assert [name for name in FAMILIES if name not in ALWAYS_SENT] == LOADABLE
    assert {"schedule", "training", "library", "nutrition"} <= set(LOADABLE)
    for family in LOADABLE:
        assert FAMILIES[family].line() in request.system
    # Every tool is reachable: its schema is sent, or use_tools can load its family.
    enum = get_tool(USE_TOOLS).args_model.model_json_schema()["properties"]["families"]["items"]
    for spec in REGISTRY.values():
        assert spec.name in names(request) or spec.category in enum["enum"]
    # A family's safety rules come with its schemas.
    assert "reschedule_workout (medium)" not in request.system
    assert reply.tool_families == []


def test_use_tools_loads_a_family_for_the_next_call_and_the_reply_records_it(conversation):
    provider = (
        ScriptedProvider()
        .calls(("c1", USE_TOOLS, {"families": ["schedule"]}))
        .text("Which session?\n---\nSession 2")
    )
    reply = say(conversation, "move my session", provider)
    first, second = provider.requests
    assert family_tools("schedule").isdisjoint(names(first))
    assert family_tools("schedule", *ALWAYS_SENT) == names(second)
    assert "- schedule:" not in second.system and "- training:" in second.system
    assert "reschedule_workout (medium)" in second.system
    answer = second.turns[-1]
    assert answer.role == "tool" and not answer.is_error
    assert "reschedule_workout" in answer.content
    assert_valid_turns(second.turns)
    assert reply.tool_families == ["schedule"]
    record = ToolCallRecord.objects.get(tool=USE_TOOLS)
    assert record.status == ToolCallRecord.Status.EXECUTED


def test_a_tool_called_before_its_family_was_loaded_is_run_and_loads_it(conversation):
    provider = ScriptedProvider().calls(("c1", "get_sleep_data", {"days": 3})).text("OK.\n---\nOK")
    reply = say(conversation, "how did I sleep?", provider)
    answer = provider.requests[1].turns[-1]
    assert answer.role == "tool" and not answer.is_error
    assert family_tools("training") <= names(provider.requests[1])
    assert reply.tool_families == ["training"]


def test_a_family_stays_while_in_use_and_drops_out_after_replies_that_do_not_use_it(
    conversation,
):
    provider = ScriptedProvider()
    provider.calls(("c1", USE_TOOLS, {"families": ["library", "training"]})).text("A.\n---\nOK")
    first = say(conversation, "find me a workout", provider)
    assert first.tool_families == ["training", "library"]  # the registry's order
    recorded = []
    for n in range(FAMILY_REPLIES + 1):
        provider.text(f"Reply {n}.\n---\nOK")
        recorded.append(say(conversation, f"message {n}", provider).tool_families)
    # The next FAMILY_REPLIES replies still have them; the one after that has none.
    assert recorded == [["training", "library"]] * FAMILY_REPLIES + [[]]
    assert family_tools("training", "library") <= names(provider.requests[2])
    assert family_tools("training").isdisjoint(names(provider.requests[-1]))


def test_use_tools_refuses_an_unknown_family_naming_the_families(program):
    result = engine.execute_read(
        ctx=ToolContext.for_program(program),
        call=ToolCall(id="c1", name=USE_TOOLS, arguments={"families": ["nutrition-x"]}),
    )
    assert not result.success
    assert all(name in result.summary for name in LOADABLE)
    assert families_called([ToolCall(id="c1", name=USE_TOOLS, arguments={"families": "x"})]) == []


def test_the_offline_coach_still_proposes_tools_of_families_not_loaded(conversation):
    response = OfflineProvider().complete(
        system="",
        turns=[Turn(role="user", content="skip session 1.2 because sick")],
        tools=tool_definitions(families=[]),
    )
    assert [c.name for c in response.tool_calls] == ["skip_workout"]
    reply = say(conversation, "skip session 1.2 because sick", OfflineProvider())
    assert reply.status == Message.Status.COMPLETE and reply.batch is not None
    assert [c["name"] for c in reply.tool_calls] == ["skip_workout"]
    assert reply.tool_families == []  # its one call proposed; no later call needed the schemas


def test_the_offline_coach_reads_a_family_not_loaded_through_the_agent(conversation):
    reply = say(conversation, "sleep 7", OfflineProvider())
    assert reply.status == Message.Status.COMPLETE
    assert reply.steps[0]["tool_calls"][0]["name"] == "get_sleep_data"
    assert not reply.steps[0]["results"][0]["is_error"]
    assert reply.tool_families == ["training"]


def test_the_text_format_offers_use_tools_and_its_marker_loads_the_family():
    tools = tool_definitions(families=[])
    system, _, native = text_request(
        system="S\n" + "\n".join(catalog_lines([])), turns=[], tools=tools
    )
    assert native == [] and f"\n{USE_TOOLS}: " in system and "- training:" in system
    _, calls = extract_text_calls(
        'Let me look. [TOOL_CALL:{"id":"call-1","tool":"use_tools",'
        '"parameters":{"families":["training"]}}]'
    )
    assert families_called(calls) == ["training"]


def test_a_new_family_is_one_declaration_of_tools_and_use_tools_offers_it():
    spec = get_tool("get_sleep_data")
    module = types.SimpleNamespace(
        TOOLS=[
            type(spec)(**{**spec.__dict__, "name": "log_stretching", "category": "mobility"}),
        ]
    )
    families = families_of((module,))
    assert (
        families["mobility"].line() == "- mobility: log_stretching"
    )  # no purpose: its tools' names
    loader = use_tools_spec({**{n: FAMILIES[n] for n in LOADABLE}, **families})
    schema = loader.args_model.model_json_schema()["properties"]["families"]
    assert schema["items"]["enum"] == [*LOADABLE, "mobility"]
    answer = loader.execute(ctx=None, args=loader.args_model(families=["mobility"]))
    assert "mobility: log_stretching" in answer.summary


def test_the_families_in_use_beyond_the_newest_page_of_history_are_still_read(
    conversation, monkeypatch
):
    """The budget passes the newest page of history it read; when it holds fewer than
    ``FAMILY_REPLIES`` replies and isn't the whole conversation, the older replies are read."""
    provider = ScriptedProvider()
    provider.calls(("c1", USE_TOOLS, {"families": ["library"]})).text("A.\n---\nOK")
    say(conversation, "find me a workout", provider)
    say(conversation, "thanks", provider.text("B.\n---\nOK"))
    monkeypatch.setattr(budget, "PAGE", 2)  # the newest page: "thanks" and its reply
    placeholder = send_only(conversation, "and now?")
    request = budget.TurnRequest.start(
        conversation=conversation, before=placeholder, provider=provider
    )
    assert request.in_use == ["library"] and request.families == ["library"]
    monkeypatch.setattr(budget, "PAGE", 200)  # the page holds the whole conversation
    assert budget.TurnRequest.start(
        conversation=conversation, before=placeholder, provider=provider
    ).in_use == ["library"]
