"""Seed 003's limits on tool calls per athlete message (issue 18 item 8): a turn whose model asks
for more than ``AGENT_MAX_TOOL_CALLS`` is refused whole, with a reply saying what to do, no card
of hundreds of items and nothing changed; more than 5 is flagged for staff (the audit log)."""

import pytest
from django.urls import reverse

from chat.models import Message, PendingToolBatch, ToolCallRecord
from tests.chat.agent.support import reply
from tests.chat.scripted_provider import ScriptedProvider, assert_valid_turns

pytestmark = pytest.mark.django_db


def renames(count, *, prefix="c"):
    return [
        (
            f"{prefix}{n}",
            "modify_exercise",
            {
                "weekNumber": 1,
                "sessionNumber": 1,
                "exerciseNumber": 1,
                "updates": {"name": f"Squat variant {n}"},
            },
        )
        for n in range(count)
    ]


def week_reads(count, *, prefix):
    return [(f"{prefix}{n}", "get_week", {"weekNumber": 1}) for n in range(count)]


def test_a_response_of_500_calls_is_refused_whole_with_a_readable_reply(
    client, conversation, settings
):
    settings.AGENT_MAX_TOOL_CALLS = 20
    provider = ScriptedProvider().calls(*renames(500), text="Here are 500 changes.")
    placeholder = reply(conversation, provider, text="rename everything")
    assert (placeholder.status, placeholder.error_code) == ("complete", "too_many_calls")
    assert "500" in placeholder.content and "at most 20" in placeholder.content
    assert "fewer changes at a time" in placeholder.content
    assert placeholder.tool_calls == []
    assert not PendingToolBatch.objects.exists()
    assert not Message.objects.filter(role=Message.Role.TOOL).exists()
    assert not ToolCallRecord.objects.exists()
    assert conversation.messages.filter(role="user", content="rename everything").exists()
    client.force_login(conversation.athlete)
    page = client.get(reverse("chat:home"))
    assert page.status_code == 200
    assert "Apply Changes" not in page.content.decode()
    assert len(page.content) < 200_000  # was 856 KB with the 500-item card
    # The next turn's conversation is valid: the refused calls aren't in it.
    provider.text("Sure, one week at a time.")
    reply(conversation, provider, text="ok, week 1 only")
    assert_valid_turns(provider.requests[-1].turns)


def test_the_cap_counts_every_model_call_of_the_turn(conversation, settings):
    settings.AGENT_MAX_TOOL_CALLS = 3
    provider = ScriptedProvider()
    provider.calls(*week_reads(2, prefix="a"))
    provider.calls(*week_reads(2, prefix="b"))
    provider.text("unused")
    placeholder = reply(conversation, provider)
    assert len(provider.requests) == 2
    assert placeholder.error_code == "too_many_calls"
    assert "4 changes and lookups" in placeholder.content
    assert ToolCallRecord.objects.filter(status="executed").count() == 2  # the first round's


def test_calls_up_to_the_cap_are_proposed(conversation, settings):
    settings.AGENT_MAX_TOOL_CALLS = 3
    provider = ScriptedProvider().calls(*renames(3), text="Three renames?")
    placeholder = reply(conversation, provider)
    assert placeholder.error_code == ""
    assert len(PendingToolBatch.objects.get().calls) == 3


def test_more_than_five_calls_in_a_turn_are_flagged_for_staff(conversation, settings, caplog):
    settings.AGENT_MAX_TOOL_CALLS = 20
    provider = ScriptedProvider().calls(*week_reads(6, prefix="r")).text("Week 1 is ...")
    reply(conversation, provider)
    assert set(ToolCallRecord.objects.values_list("many_calls", flat=True)) == {True}
    assert "6 tool calls for one message" in caplog.text
