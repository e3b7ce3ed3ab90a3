import datetime

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.utils import timezone

from chat import agent
from chat.agent import TRY_AGAIN, claim, run_turn
from chat.models import Message, PendingToolBatch, ToolCallRecord
from chat.proposals import AWAITING_CONFIRMATION
from chat.proposals import apply as batch_apply
from chat.services import message_send
from coach.llm.base import LLMError
from coach.llm.offline import OfflineProvider
from coach.registry import ALWAYS_SENT, REGISTRY
from programs.models import Exercise, Program
from tests.calls import MORE_SETS, RENAME
from tests.chat.scripted_provider import ScriptedProvider, assert_valid_turns
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db

MISSING_EXERCISE = (
    "call_3",
    "remove_exercise",
    {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 10},
)


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)


def send(conversation, text="change something"):
    with transaction.atomic():
        user_message, placeholder = message_send(conversation=conversation, text=text)
    return user_message, placeholder


def reply(conversation, provider, text="change something"):
    _, placeholder = send(conversation, text)
    run_turn(placeholder=placeholder, provider=provider)
    placeholder.refresh_from_db()
    return placeholder


def exercise_name(program, w=1, s=1, e=1):
    return Exercise.objects.get(
        session__week__program=program, session__week__position=w, session__position=s, position=e
    ).name


def version(program):
    return Program.objects.get(pk=program.pk).version


# --- claiming --------------------------------------------------------------------------------------


def test_a_finished_placeholder_is_not_answered_twice(conversation):
    provider = ScriptedProvider().text("Hi\n---\nOK")
    placeholder = reply(conversation, provider)
    run_turn(placeholder=placeholder, provider=provider)
    assert len(provider.requests) == 1
    assert conversation.messages.filter(role="assistant").count() == 1


def test_a_placeholder_running_elsewhere_is_left_alone(conversation):
    _, placeholder = send(conversation)
    Message.objects.filter(pk=placeholder.pk).update(status="running", started_at=timezone.now())
    provider = ScriptedProvider().text("Hi")
    run_turn(placeholder=placeholder, provider=provider)
    assert provider.requests == []
    assert Message.objects.get(pk=placeholder.pk).status == "running"


def test_a_placeholder_left_running_long_ago_is_left_for_the_sweep(conversation, settings):
    # A redelivered task never takes over a running reply: chat.recovery restarts it with a new
    # run, which only a task for that run can claim.
    _, placeholder = send(conversation)
    long_ago = timezone.now() - datetime.timedelta(seconds=settings.AGENT_TURN_DEADLINE + 5)
    Message.objects.filter(pk=placeholder.pk).update(status="running", started_at=long_ago)
    provider = ScriptedProvider().text("Back.\n---\nOK")
    run_turn(placeholder=placeholder, provider=provider)
    assert provider.requests == []
    assert Message.objects.get(pk=placeholder.pk).status == "running"


def test_a_task_for_another_run_does_not_claim(conversation):
    _, placeholder = send(conversation)
    Message.objects.filter(pk=placeholder.pk).update(attempt=2)
    assert claim(message_id=placeholder.pk, attempt=1) is False
    assert claim(message_id=placeholder.pk, attempt=2) is True


def test_a_late_run_cannot_save_once_a_new_run_replaced_it(conversation):
    _, placeholder = send(conversation)

    class Replaced(ScriptedProvider):
        def complete(self, **kwargs):
            # While this run waits for the model, the sweep gives the reply a new run.
            Message.objects.filter(pk=placeholder.pk).update(attempt=2, status="pending")
            return super().complete(**kwargs)

    run_turn(placeholder=placeholder, provider=Replaced().text("Late.\n---\nOK"))
    placeholder.refresh_from_db()
    assert (placeholder.status, placeholder.content, placeholder.attempt) == ("pending", "", 2)


def test_a_turn_that_spent_its_time_starts_no_more_model_calls(conversation, settings):
    settings.AGENT_TURN_TIMEOUT = 0  # spent as soon as the first call is made
    provider = ScriptedProvider()
    for n in range(3):
        provider.calls((f"r{n}", "get_week", {"weekNumber": 1}))
    placeholder = reply(conversation, provider)
    assert len(provider.requests) == 1
    assert (placeholder.status, placeholder.error_code) == ("failed", "timeout")


def test_claim_moves_pending_to_running_once(conversation):
    _, placeholder = send(conversation)
    assert claim(message_id=placeholder.pk) is True
    assert claim(message_id=placeholder.pk) is False
    placeholder.refresh_from_db()
    assert placeholder.status == "running" and placeholder.started_at is not None


def test_claim_refuses_a_user_message(conversation):
    user_message, _ = send(conversation)
    assert claim(message_id=user_message.pk) is False


# --- text answers ----------------------------------------------------------------------------------


def test_a_text_answer_is_stored_with_its_replies_and_usage(conversation):
    placeholder = reply(
        conversation,
        ScriptedProvider().text(
            "RDLs work the hamstrings.\n---\nThanks!\nShow me a video",
            prompt_tokens=321,
            completion_tokens=45,
            latency_ms=12,
        ),
    )
    assert placeholder.status == "complete"
    assert placeholder.content == "RDLs work the hamstrings."
    assert placeholder.suggested_replies == ["Thanks!", "Show me a video"]
    assert (placeholder.provider, placeholder.model) == ("scripted", "scripted-1")
    assert (placeholder.prompt_tokens, placeholder.completion_tokens, placeholder.latency_ms) == (
        321,
        45,
        12,
    )
    assert placeholder.finished_at is not None
    assert placeholder.is_visible


def test_the_request_carries_the_system_prompt_the_tools_and_the_message(conversation):
    provider = ScriptedProvider().text("Hi\n---\nOK")
    reply(conversation, provider, text="hello coach")
    request = provider.requests[0]
    assert "Apply Changes" in request.system and "<program_data>" in request.system
    # The program tools and use_tools; the other families are a line each (tests/chat/test_toolsets)
    assert {t["name"] for t in request.tools} == {
        name for name, spec in REGISTRY.items() if spec.category in ALWAYS_SENT
    }
    assert request.turns[-1].content == "hello coach"


def test_an_empty_answer_fails_politely_and_leaves_the_retry_to_its_button(conversation):
    placeholder = reply(conversation, ScriptedProvider().text(""))
    assert placeholder.status == "failed"
    assert placeholder.suggested_replies == []


# --- write proposals -------------------------------------------------------------------------------


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


# --- read tools and the step limit -------------------------------------------------------------------


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


# --- failures ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("rate_limit", "The coach is busy right now"),
        ("overloaded", "The coach is busy right now"),
        ("quota", "The coach's model isn't available"),
        ("auth", "The coach's model isn't available"),
        ("timeout", "took too long"),
        ("connection", "couldn't reach"),
        ("protocol", "Something went wrong"),
    ],
)
def test_provider_errors_become_a_friendly_failed_reply(conversation, kind, expected):
    user_message, placeholder = send(conversation, "hello")
    run_turn(
        placeholder=placeholder,
        provider=ScriptedProvider().error(LLMError("boom", kind=kind, retryable=False)),
    )
    placeholder.refresh_from_db()
    assert placeholder.status == "failed"
    assert expected in placeholder.content
    assert placeholder.error_code == kind
    assert placeholder.suggested_replies == []
    assert Message.objects.get(pk=user_message.pk).content == "hello"


def test_the_soft_time_limit_fails_the_reply(conversation):
    _, placeholder = send(conversation)
    run_turn(placeholder=placeholder, provider=ScriptedProvider().error(SoftTimeLimitExceeded()))
    placeholder.refresh_from_db()
    assert placeholder.status == "failed" and placeholder.error_code == "timeout"


def test_an_unexpected_error_fails_the_reply_and_applies_nothing(
    conversation, program, monkeypatch
):
    def explode(**kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(agent.engine, "preview_calls", explode)
    _, placeholder = send(conversation)
    run_turn(placeholder=placeholder, provider=ScriptedProvider().calls(RENAME))
    placeholder.refresh_from_db()
    assert placeholder.status == "failed" and placeholder.error_code == "internal"
    assert not PendingToolBatch.objects.exists()
    assert not conversation.messages.filter(role="tool").exists()
    assert placeholder.tool_calls == []


# --- against the fake HTTP servers ------------------------------------------------------------------


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


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (429, "The coach is busy right now"),
        (529, "The coach is busy right now"),
        (500, "The coach is busy right now"),
        (401, "The coach's model isn't available"),
    ],
)
def test_http_errors_from_the_provider_fail_the_reply(
    conversation, fake_anthropic_server, status, expected
):
    for _ in range(3):
        fake_anthropic_server.enqueue_error(status)
    placeholder = reply(conversation, fake_anthropic_server.provider(max_retries=1), text="hello")
    assert placeholder.status == "failed"
    assert expected in placeholder.content
    assert conversation.messages.filter(role="user", content="hello").exists()


def test_a_slow_provider_times_out_into_a_failed_reply(conversation, fake_openai_server):
    fake_openai_server.enqueue(json={"unused": True}, delay=1.5)
    provider = fake_openai_server.provider(read_timeout=0.2, max_retries=0)
    placeholder = reply(conversation, provider, text="hello")
    assert placeholder.status == "failed"
    assert placeholder.error_code == "timeout"
    assert "took too long" in placeholder.content


def test_openai_malformed_json_arguments_take_the_parse_error_path(
    conversation, fake_openai_server
):
    fake_openai_server.enqueue_openai_tool_calls(
        [("call_1", "modify_exercise", '{"weekNumber": 1,')]
    )
    placeholder = reply(conversation, fake_openai_server.provider(), text="swap")
    assert placeholder.content.startswith("I had trouble understanding that request.")
    assert not PendingToolBatch.objects.exists()


def test_nul_characters_in_the_models_text_are_dropped(conversation):
    placeholder = reply(conversation, ScriptedProvider().text("Hi\x00 there\n---\nOK"))
    assert placeholder.content == "Hi there"


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


def test_the_offline_coach_shows_a_week_through_the_read_tool(conversation):

    placeholder = reply(conversation, OfflineProvider(), text="show week 2")
    assert placeholder.content.startswith("Week 2: phase ")
    assert "Session 3" in placeholder.content
    assert len(placeholder.steps) == 1
    assert PendingToolBatch.objects.count() == 0
