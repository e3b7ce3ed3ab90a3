"""Typing agreement ("yes, apply it") applies nothing: the offline coach says the preview's button
decides, and proposes no call."""

from __future__ import annotations

import pytest

from coach.llm.base import Pending, PendingCall, Turn
from coach.llm.offline import OfflineProvider
from coach.registry import tool_definitions

WAITING = Pending(status="pending", calls=[PendingCall(id="c1", name="modify_exercise")])


def reply(text: str, pending: Pending | None):
    return OfflineProvider().complete(
        system="",
        turns=[Turn(role="user", content=text)],
        tools=tool_definitions(),
        pending=pending,
    )


@pytest.mark.parametrize("text", ["yes, apply it", "ok go ahead", "Yes please", "do it", "apply"])
def test_agreement_with_a_change_waiting_points_to_the_apply_button(text):
    response = reply(text, WAITING)
    assert response.tool_calls == []
    assert "press Apply Changes in the preview" in response.text


def test_agreement_with_nothing_waiting_says_so():
    response = reply("yes, apply it", None)
    assert response.tool_calls == []
    assert response.text.startswith("There's no change waiting to be applied.")


def test_a_sentence_that_starts_with_yes_is_not_taken_for_agreement():
    assert "Typing doesn't apply" not in reply("yes swap squats for lunges", WAITING).text
