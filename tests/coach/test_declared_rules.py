"""The rules the generic spine applies come from the tools' declarations (issue 19 item 2): the
crisis path (``ToolSpec.crisis``), the example of a statement asked for (``stated_example``), a
log's undo wording (``logs``), the families sent with every call (a declaration's
``ALWAYS_SENT``); and the offline coach reads the pending batch as data (``Pending``), not the
prompt's text. Each is shown on the real declarations and on a declaration changed in the test, so
the code that reads it is seen to follow the declaration, not a tool's name."""

from __future__ import annotations

import dataclasses

import pytest

from chat.refusals import refusal_message
from coach import guardrails, registry
from coach.llm.base import Pending, PendingCall, Turn
from coach.llm.offline import OfflineProvider, acknowledgment
from coach.registry import REGISTRY, get_tool
from coach.replies import split_replies
from coach.toolcalls import ToolCall
from coach.tools.base import ToolError
from programs import tools as program_tools


@pytest.fixture
def redeclared(monkeypatch):
    """Replace one tool's declaration in the registry for the test."""

    def redeclare(name: str, **changes):
        monkeypatch.setitem(REGISTRY, name, dataclasses.replace(REGISTRY[name], **changes))

    return redeclare


def call(name: str, **arguments) -> ToolCall:
    return ToolCall(id=f"c_{name}", name=name, arguments=arguments)


# --- the crisis path ----------------------------------------------------------------------------


def test_a_crisis_is_what_the_tool_declares_and_its_reply_is_the_deployments(settings):
    settings.WELLNESS_CRISIS_MESSAGE = "Call the line."
    assert guardrails.crisis_reply(call("log_mood", mood="crisis")) == "Call the line."
    assert guardrails.crisis_reply(call("log_mood", mood="good")) == ""
    assert guardrails.crisis_reply(call("modify_exercise", mood="crisis")) == ""


def test_any_tool_declaring_a_crisis_makes_the_response_its_only_call(redeclared):
    redeclared("log_readiness", crisis=lambda args: "Help." if args.get("sleep") == 1 else "")
    calls = [call("log_readiness", sleep=1), call("log_mood", mood="good")]
    refusals = guardrails.check_response(calls, statement="I slept badly")
    assert list(refusals) == ["c_log_mood"]
    assert refusals["c_log_mood"].reason == guardrails.Reason.CRISIS_ONLY


# --- what the athlete is asked to state -----------------------------------------------------------


def not_stated(name: str) -> str:
    errors = {f"c_{name}": [ToolError(code="NOT_STATED", message="x")]}
    return refusal_message(writes=[call(name)], errors=errors)[0]


def test_the_refusal_asks_for_the_statement_the_tool_declares(redeclared):
    assert 'for example "I took 5 g of creatine this morning"' in not_stated("log_medication")
    assert "for example" not in not_stated("create_care_log")
    redeclared("create_care_log", stated_example="I saw the physio at 10")
    assert 'for example "I saw the physio at 10"' in not_stated("create_care_log")


# --- a log's undo -------------------------------------------------------------------------------


def test_an_undone_log_reads_as_a_log_when_its_tool_declares_it(redeclared):
    undone = {"kind": "undone", "calls": [{"name": "log_mood"}]}
    assert acknowledgment(undone).startswith("Undone — that log is removed.")
    program = {"kind": "undone", "calls": [{"name": "modify_exercise"}]}
    assert acknowledgment(program).startswith("Undone — your program is back")
    redeclared("log_mood", logs=False)
    assert acknowledgment(undone).startswith("Undone — your program is back")


# --- the families sent with every call -------------------------------------------------------------


def test_the_families_sent_with_every_call_are_the_declared_ones():
    assert program_tools.ALWAYS_SENT == ("program",)
    assert registry.ALWAYS_SENT == ["program", registry.CATALOG]
    sent = {get_tool(t["name"]).category for t in registry.tool_definitions(families=[])}
    assert sent == {"program", registry.CATALOG}


# --- the pending batch, as data ---------------------------------------------------------------------


def ask(text: str, pending: Pending | None) -> str:
    turns = [Turn(role="user", content=text)]
    return OfflineProvider().complete(turns=turns, pending=pending).text


def test_what_does_this_change_reads_the_pending_calls_not_the_prompt():
    pending = Pending(
        status="pending",
        calls=[
            PendingCall(
                id="c1",
                name="modify_exercise",
                arguments={"weekNumber": 1},
                summary="Week 1, Session 1, Exercise 1: name → Front Squat",
            )
        ],
        problem="Week 9 doesn't exist.",
    )
    text, _ = split_replies(ask("What does this change?", pending))
    assert "- Change an exercise: Week 1, Session 1, Exercise 1: name → Front Squat" in text
    assert "It can't be applied as it is: Week 9 doesn't exist." in text
    system = "<pending_changes>\n1. c1 modify_exercise {}\n</pending_changes>"
    told = OfflineProvider().complete(
        system=system, turns=[Turn(role="user", content="What does this change?")]
    )
    assert "Nothing is waiting for you" in told.text  # the prompt's text is not read


def test_never_mind_mentions_cancel_only_when_something_is_pending():
    pending = Pending(status="pending", calls=[PendingCall(id="c1", name="remove_week")])
    assert "press Cancel" in ask("Never mind", pending)
    assert "press Cancel" not in ask("Never mind", None)
