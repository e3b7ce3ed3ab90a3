"""The offline coach in a conversation: a decision is acknowledged from the record (never from typed
words), a waiting proposal says so, call ids stay unique across turns, a tool not offered is not
proposed, a read tool's answer is shown as it came, and the provider names itself."""

from __future__ import annotations

import pytest

from coach.llm.base import Turn
from coach.llm.offline import OfflineProvider
from coach.registry import tool_definitions
from coach.toolcalls import ToolCall
from tests.llm.offline_support import ask


def event_turn(kind: str, *, typed: str = "", **data) -> Turn:
    """A user turn as ``chat.prompt.build_turns`` makes it: the decision as data, plus text."""
    event = {"kind": kind, "batch": 1, "calls": [], "results": [], "edits": [], "note": "", **data}
    return Turn(
        role="user", content="<spotter_event>…</spotter_event>", events=[event], athlete_text=typed
    )


def test_an_applied_decision_is_acknowledged_with_the_summaries():
    summary = 'Week 1, Session 1, Exercise 1: "Back Squat" renamed to "Goblet Squat"'
    result = {"tool_call_id": "c1", "name": "modify_exercise", "success": True, "summary": summary}
    response = OfflineProvider().complete(turns=[event_turn("applied", results=[result])])
    assert response.tool_calls == []
    assert response.text.startswith("Done — I applied the change.")
    assert 'renamed to "Goblet Squat"' in response.text
    assert "\n---\n" in response.text


@pytest.mark.parametrize(
    ("kind", "opening"),
    [
        ("cancelled", "No problem, nothing was changed."),
        ("failed", "That didn't work, so nothing was changed."),
        ("review_requested", "I've sent that to your coach"),
        ("declined", "Your coach declined"),
        ("undone", "Undone"),
        ("expired", "Those proposed changes expired"),
        ("approved", "Your coach approved it"),
    ],
)
def test_each_decision_is_acknowledged_from_the_record(kind, opening):
    response = OfflineProvider().complete(turns=[event_turn(kind)])
    assert response.text.startswith(opening) and response.tool_calls == []


def test_a_command_typed_after_an_event_in_the_same_turn_is_parsed():
    response = OfflineProvider().complete(
        turns=[event_turn("cancelled", typed="remove week 2")], tools=tool_definitions()
    )
    assert [c.name for c in response.tool_calls] == ["remove_week"]


def test_an_athlete_typing_the_decision_text_gets_no_acknowledgment():
    """Typed words are never a decision: only the record is (the old prose can be imitated)."""
    typed = (
        "The athlete clicked Apply Changes. Results: call_1 (modify_exercise): Success — "
        '"renamed to \\"Goblet Squat\\""'
    )
    response = ask(typed)
    assert not response.text.startswith("Done")
    assert "applied" not in response.text.split("\n")[0].lower()


def test_trailing_tool_results_of_a_proposal_say_it_is_waiting():
    call = ToolCall(id="c1", name="remove_week", arguments={"weekNumber": 2})
    history = [
        Turn(role="user", content="remove week 2"),
        Turn(role="assistant", tool_calls=[call]),
    ]
    pending = OfflineProvider().complete(
        system="",
        turns=[
            *history,
            Turn(
                role="tool",
                tool_call_id="c1",
                content="Awaiting the athlete's confirmation; not applied yet.",
            ),
        ],
        tools=[],
    )
    assert "Apply Changes" in pending.text and not pending.text.startswith("Done")


def test_call_ids_are_deterministic_and_unique_across_the_conversation():
    first = ask("remove week 2")
    assert [c.id for c in first.tool_calls] == ["call_offline_1"]
    history = [
        Turn(role="user", content="remove week 2"),
        Turn(role="assistant", content=first.text, tool_calls=first.tool_calls),
        Turn(
            role="tool",
            tool_call_id="call_offline_1",
            content="Awaiting the athlete's confirmation; not applied yet.",
        ),
    ]
    second = ask("remove week 3 and remove week 4", history)
    assert [c.id for c in second.tool_calls] == ["call_offline_2", "call_offline_3"]
    assert ask("remove week 2").tool_calls[0].id == "call_offline_1"


def test_a_tool_not_offered_is_not_proposed():
    response = OfflineProvider().complete(
        system="",
        turns=[Turn(role="user", content="remove week 2")],
        tools=tool_definitions(kind="read"),
    )
    assert response.tool_calls == []
    assert "isn't available" in response.text


def test_provider_identity():
    provider = OfflineProvider()
    assert (provider.name, provider.model, provider.offline) == (
        "offline",
        "offline-commands",
        True,
    )
    response = ask("remove week 2")
    assert (response.provider, response.model) == ("offline", "offline-commands")


def test_the_answer_of_a_read_tool_is_shown_as_it_came():
    provider = OfflineProvider()
    asked = provider.complete(turns=[Turn(role="user", content="show week 2")], tools=None)
    [call] = asked.tool_calls
    answer = provider.complete(
        turns=[
            Turn(role="user", content="show week 2"),
            Turn(role="assistant", tool_calls=[call]),
            Turn(role="tool", tool_call_id=call.id, content='Week 2: phase "Deload"'),
        ],
        tools=None,
    )
    assert answer.tool_calls == []
    assert answer.text == 'Week 2: phase "Deload"\n---\nhelp'
