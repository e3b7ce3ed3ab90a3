"""The agent loop's tool calls: write proposals (the batch they open or join, refusals of invalid,
malformed, unknown or incomplete calls, "yes" typed while a batch waits), read tools and the
model call limit, and tool calls through the fake OpenAI and Anthropic servers and the offline
coach. Claiming, text answers and failures are in ``test_turn.py``.
"""

import pytest

from chat.agent import TRY_AGAIN, run_turn
from chat.models import PendingToolBatch, ToolCallRecord
from chat.proposals import AWAITING_CONFIRMATION
from chat.proposals import apply as batch_apply
from coach.llm.offline import OfflineProvider
from coach.registry import ALWAYS_SENT, REGISTRY
from tests.calls import MORE_SETS, RENAME
from tests.chat.agent.support import reply
from tests.chat.helpers import first_exercise, version
from tests.chat.scripted_provider import ScriptedProvider, assert_valid_turns

pytestmark = pytest.mark.django_db

MISSING_EXERCISE = (
    "call_3",
    "remove_exercise",
    {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 10},
)


def exercise_name(program, w=1, s=1, e=1):
    return first_exercise(program, e, week=w, session=s).name


# --- write proposals ----------------------------------------------------------------------------


def test_proposals_open_a_batch_and_are_answered_awaiting_confirmation(conversation, program):
    placeholder = reply(
        conversation,
        ScriptedProvider().calls(
            RENAME, MORE_SETS, text="I'll swap squats and add sets.\n---\nYes\nNo"
        ),
    )
    batch = PendingToolBatch.objects.get()
    assert batch.status == "pending" and batch.revision == 1
    assert [c["id"] for c in batch.calls] == ["call_1", "call_2"]
    assert batch.program_version == version(program)
    assert len(batch.preview["details"]) == 2
    assert placeholder.batch == batch
    assert placeholder.content == "I'll swap squats and add sets."
    assert placeholder.suggested_replies == ["Yes", "No"]  # stored; the UI hides them while open
    answers = conversation.messages.filter(role="tool").order_by("pk")
    assert [a.tool_call_id for a in answers] == ["call_1", "call_2"]
    assert all(a.content.startswith(AWAITING_CONFIRMATION) and not a.is_error for a in answers)
    assert exercise_name(program) == "Back Squat"  # nothing applied


def test_later_proposals_join_the_open_batch(conversation, program):
    reply(conversation, ScriptedProvider().calls(RENAME, text="Swap?"))
    reply(conversation, ScriptedProvider().calls(MORE_SETS, text="And more sets?"))
    batch = PendingToolBatch.objects.get()
    assert [c["id"] for c in batch.calls] == ["call_1", "call_2"]
    assert batch.revision == 2
    assert len(batch.preview["details"]) == 2


def test_a_reused_call_id_is_renamed_when_it_joins(conversation):
    reply(conversation, ScriptedProvider().calls(RENAME, text="Swap?"))
    placeholder = reply(
        conversation, ScriptedProvider().calls(("call_1", *MORE_SETS[1:]), text="More?")
    )
    batch = PendingToolBatch.objects.get()
    assert [c["id"] for c in batch.calls] == ["call_1", "call_1_2"]
    assert placeholder.tool_calls[0]["id"] == "call_1_2"
    assert conversation.messages.filter(
        role="tool", tool_call_id="call_1_2", reply_to=placeholder
    ).exists()


def test_a_proposal_without_text_still_explains_itself(conversation):
    placeholder = reply(conversation, ScriptedProvider().calls(RENAME))
    assert "Apply Changes" in placeholder.content


def test_an_invalid_reference_queues_nothing_and_names_the_problem(conversation, program):
    placeholder = reply(
        conversation, ScriptedProvider().calls(MISSING_EXERCISE, text="Removing it.")
    )
    assert not PendingToolBatch.objects.exists()
    assert placeholder.status == "complete"
    # The model's "Removing it." described a change that won't happen: the athlete sees why not.
    assert placeholder.content.startswith("I couldn't make that change because")
    assert placeholder.llm_content == "Removing it."
    assert "only 4 exercises" in placeholder.content
    assert placeholder.suggested_replies == [
        "Try a different exercise",
        "Show me the session",
        "Never mind",
    ]
    answer = conversation.messages.get(role="tool")
    assert answer.is_error and "NOT_FOUND" in answer.content


def test_one_invalid_call_refuses_the_whole_response_and_leaves_the_batch_alone(
    conversation, program
):
    reply(conversation, ScriptedProvider().calls(RENAME, text="Swap?"))
    before = PendingToolBatch.objects.get()
    placeholder = reply(
        conversation, ScriptedProvider().calls(MORE_SETS, MISSING_EXERCISE, text="Both?")
    )
    batch = PendingToolBatch.objects.get()
    assert (batch.calls, batch.revision, batch.preview) == (
        before.calls,
        before.revision,
        before.preview,
    )
    assert "None of the 2 changes were queued" in placeholder.content
    answers = {m.tool_call_id: m for m in placeholder.replies.filter(role="tool")}
    assert answers["call_2"].is_error and "Not queued" in answers["call_2"].content
    assert answers["call_3"].is_error and "only 4 exercises" in answers["call_3"].content


def test_malformed_arguments_take_the_parse_error_path(conversation):
    placeholder = reply(
        conversation, ScriptedProvider().calls(("call_1", "modify_exercise", "{not json"))
    )
    assert not PendingToolBatch.objects.exists()
    assert placeholder.content.startswith("I had trouble understanding that request.")
    assert placeholder.suggested_replies == ["Start over", "Show me my workouts"]
    assert "PARSE_ERROR" in conversation.messages.get(role="tool").content


def test_an_unknown_tool_is_refused(conversation):
    placeholder = reply(conversation, ScriptedProvider().calls(("call_1", "delete_everything", {})))
    assert not PendingToolBatch.objects.exists()
    assert "UNKNOWN_TOOL" in conversation.messages.get(role="tool").content
    assert "can't make" in placeholder.content


def test_missing_parameters_ask_for_more_information(conversation):
    placeholder = reply(
        conversation,
        ScriptedProvider().calls(
            ("call_1", "remove_exercise", {"weekNumber": 1, "sessionNumber": 1})
        ),
    )
    assert placeholder.content.startswith("I need more information")
    assert not PendingToolBatch.objects.exists()


def test_typing_yes_while_pending_never_applies(conversation, program):
    reply(conversation, ScriptedProvider().calls(RENAME, text="Swap?"))
    start = version(program)
    placeholder = reply(
        conversation,
        ScriptedProvider().text("Done! I applied it.\n---\nThanks"),
        text="yes, apply it",
    )
    assert placeholder.status == "complete"
    batch = PendingToolBatch.objects.get()
    assert batch.status == "pending"
    assert version(program) == start
    assert exercise_name(program) == "Back Squat"


def test_a_refused_call_with_nul_characters_is_stored(conversation):
    bad = (
        "call_1",
        "modify_exercise",
        {
            "weekNumber": 1,
            "sessionNumber": 1,
            "exerciseNumber": 1,
            "updates": {"name": "Squat\x00"},
        },
    )
    placeholder = reply(conversation, ScriptedProvider().calls(bad, text="Rename?"))
    assert placeholder.status == "complete"
    assert not PendingToolBatch.objects.exists()
    assert placeholder.tool_calls[0]["arguments"]["updates"]["name"] == "Squat"
    record = ToolCallRecord.objects.get()  # the audit log keeps it too, without the NUL
    assert record.status == "refused" and record.arguments["updates"]["name"] == "Squat"


# --- read tools and the step limit --------------------------------------------------------------


def test_read_tools_run_at_once_and_the_loop_continues(conversation):
    provider = (
        ScriptedProvider()
        .calls(("r1", "get_week", {"weekNumber": 2}), text="Let me look.")
        .text("Week 2 has 3 sessions.\n---\nOK")
    )
    version = conversation.program.version
    placeholder = reply(conversation, provider)
    assert placeholder.content == "Week 2 has 3 sessions."
    assert PendingToolBatch.objects.count() == 0
    conversation.program.refresh_from_db()
    assert conversation.program.version == version
    assert len(placeholder.steps) == 1
    second = provider.requests[1].turns
    assert_valid_turns(second)
    assert [t.role for t in second[-2:]] == ["assistant", "tool"]
    week_2 = second[-1].content
    assert week_2.startswith("Week 2: phase ")
    assert week_2.count("  Session ") == 3 and '1. "Back Squat"' in week_2
    assert second[-1].is_error is False
    assert (placeholder.prompt_tokens, placeholder.completion_tokens) == (200, 40)
    # The rounds are replayed for the next message.
    next_provider = ScriptedProvider().text("Sure\n---\nOK")
    reply(conversation, next_provider, text="thanks")
    assert_valid_turns(next_provider.requests[0].turns)
    assert [t.role for t in next_provider.requests[0].turns] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]


def test_a_read_of_a_missing_week_answers_the_model_with_the_error(conversation):
    provider = (
        ScriptedProvider()
        .calls(("r1", "get_week", {"weekNumber": 9}))
        .text("There is no week 9.\n---\nOK")
    )
    reply(conversation, provider)
    answer = provider.requests[1].turns[-1]
    assert answer.is_error is True
    assert answer.content == "Error: The program has 2 weeks; week 9 doesn't exist."


def test_the_loop_stops_after_the_model_call_limit(conversation, settings):
    settings.AGENT_MAX_MODEL_CALLS = 5
    provider = ScriptedProvider()
    for n in range(6):
        provider.calls((f"r{n}", "get_week", {"weekNumber": 1}))
    placeholder = reply(conversation, provider)
    assert len(provider.requests) == 5
    assert placeholder.status == "complete"
    assert placeholder.content.startswith("I couldn't finish that in 5 steps")
    assert placeholder.suggested_replies[0] == TRY_AGAIN
    assert len(placeholder.steps) == 5


def test_reads_and_writes_in_one_response_stop_at_the_proposal(conversation):
    placeholder = reply(
        conversation,
        ScriptedProvider().calls(("r1", "get_week", {"weekNumber": 1}), RENAME, text="Swap?"),
    )
    assert PendingToolBatch.objects.get().calls[0]["id"] == "call_1"
    answers = {m.tool_call_id: m.content for m in placeholder.replies.filter(role="tool")}
    assert answers["r1"].startswith("Week 1: phase ")
    assert answers["call_1"].startswith(AWAITING_CONFIRMATION)


def test_the_offline_coach_shows_a_week_through_the_read_tool(conversation):

    placeholder = reply(conversation, OfflineProvider(), text="show week 2")
    assert placeholder.content.startswith("Week 2: phase ")
    assert "Session 3" in placeholder.content
    assert len(placeholder.steps) == 1
    assert PendingToolBatch.objects.count() == 0


# --- against the fake HTTP servers --------------------------------------------------------------


def test_openai_tool_calls_become_a_batch_and_the_next_request_is_valid(
    conversation, program, fake_openai_server
):
    server = fake_openai_server
    server.enqueue_openai_tool_calls([RENAME], text="Swap squats?\n---\nYes\nNo")
    server.enqueue_openai_text("A goblet squat holds a weight at the chest.\n---\nThanks")
    provider = server.provider()
    reply(conversation, provider, text="swap squats for goblet squats")
    batch = PendingToolBatch.objects.get()
    assert batch.calls[0]["arguments"]["updates"] == {"name": "Goblet Squat"}
    first = server.requests[0].json
    assert first["messages"][0]["role"] == "system"
    assert {t["function"]["name"] for t in first["tools"]} == {
        name for name, spec in REGISTRY.items() if spec.category in ALWAYS_SENT
    }
    reply(conversation, provider, text="what's a goblet squat?")
    messages = server.requests[1].json["messages"]
    roles = [m["role"] for m in messages]
    assert roles == ["system", "user", "assistant", "tool", "user"]
    assert messages[2]["tool_calls"][0]["id"] == "call_1"
    assert messages[3]["tool_call_id"] == "call_1"
    assert AWAITING_CONFIRMATION in messages[3]["content"]
    assert PendingToolBatch.objects.get().status == "pending"


def test_anthropic_apply_acknowledgment_sends_a_valid_conversation(
    conversation, program, fake_anthropic_server
):
    server = fake_anthropic_server
    server.enqueue_anthropic_tool_use([RENAME], text="Swap squats?")
    server.enqueue_anthropic_text("Done, squats are goblet squats now.\n---\nThanks")
    provider = server.provider()
    reply(conversation, provider, text="swap squats")
    batch = PendingToolBatch.objects.get()
    decision = batch_apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    assert decision.outcome == "applied"
    run_turn(placeholder=decision.followup, provider=provider)
    decision.followup.refresh_from_db()
    assert decision.followup.content == "Done, squats are goblet squats now."
    body = server.requests[1].json
    assert isinstance(body["system"], str | list)
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["user", "assistant", "user"]
    blocks = body["messages"][2]["content"]
    assert blocks[0]["type"] == "tool_result" and blocks[0]["tool_use_id"] == "call_1"
    assert any(
        b.get("type") == "text" and "The athlete clicked Apply Changes" in b.get("text", "")
        for b in blocks
    )
    assert exercise_name(program) == "Goblet Squat"


def test_openai_malformed_json_arguments_take_the_parse_error_path(
    conversation, fake_openai_server
):
    fake_openai_server.enqueue_openai_tool_calls(
        [("call_1", "modify_exercise", '{"weekNumber": 1,')]
    )
    placeholder = reply(conversation, fake_openai_server.provider(), text="swap")
    assert placeholder.content.startswith("I had trouble understanding that request.")
    assert not PendingToolBatch.objects.exists()
