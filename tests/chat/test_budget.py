"""The token budget of a turn (``chat.budget``): whatever the conversation's length, each model
call fits the context window, stays valid for every provider, and says what was left out."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from chat.agent import run_turn
from chat.budget import (
    REPLY_CUT,
    STUB,
    TurnRequest,
    bound_reply,
    prompt_budget,
)
from chat.management.commands._bench_history import build_history
from chat.models import Message, PendingToolBatch
from chat.proposals import apply as batch_apply
from chat.proposals import cancel as batch_cancel
from chat.services import message_send
from coach.llm.base import Turn
from coach.llm.tokens import ESTIMATE_FACTOR, count_request_tokens, counter_for
from coach.registry import get_tool
from coach.toolcalls import ToolCall
from tests.calls import MORE_SETS, RENAME
from tests.chat.scripted_provider import ScriptedProvider, assert_valid_turns
from tests.factories import ConversationFactory, build_program

pytestmark = pytest.mark.django_db

GPT = ScriptedProvider(name="openai", model="gpt-4o-mini")  # a model whose tokeniser is known


def say(conversation, text, provider):
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text=text)
    run_turn(placeholder=placeholder, provider=provider)
    placeholder.refresh_from_db()
    return placeholder


def ask(conversation, text="And today?"):
    """The athlete's latest message and its placeholder, as the agent finds them."""
    user = Message.objects.create(conversation=conversation, role="user", content=text)
    return Message.objects.create(
        conversation=conversation, role="assistant", status="pending", reply_to=user
    )


def request_for(conversation, placeholder, provider=GPT):
    return TurnRequest.start(conversation=conversation, before=placeholder, provider=provider)


def sent_tokens(request, turns):
    return request.counter.request(system=request.system, turns=turns, tools=request.tools)


@pytest.fixture
def conversation():
    return ConversationFactory(program=build_program(weeks=8, sessions=4, exercises=6))


# --- the budget ----------------------------------------------------------------------------------


def test_a_short_conversation_is_sent_whole_without_a_summary(conversation):
    build_history(conversation=conversation, messages=20)
    placeholder = ask(conversation)
    request = request_for(conversation, placeholder)
    turns = request.fit()
    assert_valid_turns(turns)
    assert request.dropped_exchanges == 0 and request.detail == "full"
    assert turns[0].content.startswith("How should my squat feel in week 1?")
    assert '<spotter_event kind="earlier">' not in "".join(t.content for t in turns)
    assert turns[-1].content == "And today?"


@pytest.mark.parametrize("context", [8000, 16000, 32000])
def test_a_long_conversation_fits_the_window_and_stays_valid(conversation, settings, context):
    settings.LLM_CONTEXT_TOKENS = context
    build_history(conversation=conversation, messages=1500)
    placeholder = ask(conversation)
    request = request_for(conversation, placeholder)
    turns = request.fit()
    assert_valid_turns(turns)  # every kept call still has its answer, right after it
    assert sent_tokens(request, turns) <= prompt_budget() < context - settings.LLM_MAX_TOKENS
    assert request.dropped_exchanges > 0
    assert turns[0].content.startswith('<spotter_event kind="earlier">')
    # what the athlete just said is always there (at 8k it is the only turn left)
    assert turns[-1].content.endswith("And today?")


def test_larger_windows_keep_more_of_the_conversation(conversation, settings):
    build_history(conversation=conversation, messages=600)
    placeholder = ask(conversation)
    kept = []
    for context in (8000, 16000, 64000):
        settings.LLM_CONTEXT_TOKENS = context
        kept.append(len(request_for(conversation, placeholder).fit()))
    assert kept[0] < kept[1] < kept[2]


def test_old_read_results_become_a_one_line_stub_and_recent_ones_stay(conversation):
    build_history(conversation=conversation, messages=40, read_every=1, propose_every=1000)
    placeholder = ask(conversation)
    turns = request_for(conversation, placeholder).fit()
    results = [t for t in turns if t.role == "tool"]
    stub = STUB.format(name="get_week")
    assert all(t.content == stub for t in results[:-1])  # older exchanges: the stub only
    assert results[-1].content.startswith("Week 1: phase")  # the previous exchange: in full
    assert_valid_turns(turns)


def test_the_summary_of_what_was_dropped_comes_from_the_decision_rows(conversation, settings):
    settings.LLM_CONTEXT_TOKENS = 8000
    say(conversation, "rename it", ScriptedProvider().calls(RENAME, text="Sure."))
    batch = PendingToolBatch.objects.get()
    decision = batch_apply(batch_id=batch.pk, user=conversation.athlete, revision=batch.revision)
    run_turn(placeholder=decision.followup, provider=ScriptedProvider().text("Done.\n---\nOK"))
    say(conversation, "more sets", ScriptedProvider().calls(MORE_SETS, text="Sure."))
    batch = PendingToolBatch.objects.get(status="pending")
    decision = batch_cancel(batch_id=batch.pk, user=conversation.athlete, revision=batch.revision)
    run_turn(placeholder=decision.followup, provider=ScriptedProvider().text("OK.\n---\nOK"))
    build_history(conversation=conversation, messages=600)
    turns = request_for(conversation, ask(conversation)).fit()
    summary = turns[0].content.split("</spotter_event>")[0]
    assert "Batches of changes proposed in them: 2." in summary
    assert "Decisions: 1 applied, 1 cancelled." in summary
    today = datetime.date.today().isoformat()
    assert f"- {today} applied: modify_exercise" in summary
    assert f"- {today} cancelled: modify_exercise" in summary
    # Typing the same words is still just the athlete's words.
    assert turns[0].events == [] and "earlier" not in (turns[0].athlete_text or "")


def test_a_latest_message_too_long_for_the_window_is_cut_with_a_marker(conversation, settings):
    settings.LLM_CONTEXT_TOKENS = 8000
    build_history(conversation=conversation, messages=10)
    placeholder = ask(conversation, "squat " * 20000)
    request = request_for(conversation, placeholder)
    turns = request.fit()
    assert sent_tokens(request, turns) <= prompt_budget()
    assert len(turns) == 1  # everything before it was dropped, and summarised
    assert turns[0].content.startswith('<spotter_event kind="earlier">')
    assert "</spotter_event>\n\nsquat squat" in turns[0].content
    assert turns[-1].content.endswith("cut here to fit the model's context window]")
    assert_valid_turns(turns)


def test_this_turns_read_rounds_are_stubbed_then_cut_when_they_dont_fit(conversation, settings):
    settings.LLM_CONTEXT_TOKENS = 8000
    placeholder = ask(conversation)
    request = request_for(conversation, placeholder)
    steps = []
    for n in range(1, 6):
        call = ToolCall(id=f"r{n}", name="get_week", arguments={"weekNumber": n})
        steps.append(Turn(role="assistant", tool_calls=[call]))
        steps.append(Turn(role="tool", tool_call_id=f"r{n}", content="x " * 3000))
    turns = request.fit(steps)
    assert sent_tokens(request, turns) <= prompt_budget()
    results = [t for t in turns if t.role == "tool"]
    assert [t.content for t in results[:4]] == [STUB.format(name="get_week")] * 4
    assert results[4].content.endswith("cut here to fit the model's context window]")
    assert_valid_turns(turns)


def test_a_small_window_gets_a_smaller_program_summary(settings):
    program = build_program(weeks=52, sessions=6, exercises=8)
    conversation = ConversationFactory(program=program)
    placeholder = ask(conversation)
    today = program.start_date
    large = TurnRequest.start(
        conversation=conversation, before=placeholder, provider=GPT, today=today
    )
    settings.LLM_CONTEXT_TOKENS = 8000
    small = TurnRequest.start(
        conversation=conversation, before=placeholder, provider=GPT, today=today
    )
    assert large.detail == "full" and small.detail in ("current", "brief", "outline")
    assert small.fixed <= 0.7 * prompt_budget() < large.fixed + 100_000


def test_the_first_turn_of_a_52_week_program_is_at_most_6000_tokens():
    """The goal of issue 7: the whole request as sent, every tool family reachable (the program
    tools and use_tools; the other families a line each: ``chat.toolsets``)."""
    program = build_program(weeks=52, sessions=6, exercises=8)
    conversation = ConversationFactory(program=program)
    placeholder = ask(conversation, "Swap my squats for lunges this week.")
    request = TurnRequest.start(
        conversation=conversation, before=placeholder, provider=GPT, today=program.start_date
    )
    turns = request.fit()
    assert request.detail == "full" and request.families == []
    assert count_request_tokens(system=request.system, turns=turns, tools=request.tools) <= 6000


def test_a_conversation_of_thousands_of_messages_is_read_a_page_at_a_time(
    conversation, settings, django_assert_max_num_queries
):
    settings.LLM_CONTEXT_TOKENS = 8000
    build_history(conversation=conversation, messages=3000)
    placeholder = ask(conversation)
    with django_assert_max_num_queries(16):
        request = request_for(conversation, placeholder)
    assert len(request.exchanges) < 400  # not the 1,300 exchanges of the whole conversation
    assert not request.complete_history


def test_the_agent_sends_the_fitted_request(conversation, settings):
    settings.LLM_CONTEXT_TOKENS = 8000
    settings.CHAT_RATE_LIMIT_PER_MINUTE = 0  # the history was all written this minute
    build_history(conversation=conversation, messages=800)
    provider = ScriptedProvider(name="openai", model="gpt-4o").text("Sure.\n---\nThanks")
    say(conversation, "What is on today?", provider)
    sent = provider.requests[0]
    assert_valid_turns(sent.turns)
    assert sent.turns[-1].content == "What is on today?"
    assert sent.turns[0].content.startswith('<spotter_event kind="earlier">')
    assert (
        count_request_tokens(system=sent.system, turns=sent.turns, tools=sent.tools)
        <= prompt_budget()
    )


# --- settings and counting -----------------------------------------------------------------------


def test_a_window_below_8000_tokens_is_refused_naming_the_bound(settings):
    settings.LLM_CONTEXT_TOKENS = 4096
    with pytest.raises(ImproperlyConfigured, match="LLM_CONTEXT_TOKENS is 4,096; it must be at"):
        prompt_budget()
    settings.LLM_CONTEXT_TOKENS = 8000
    settings.LLM_MAX_TOKENS = 6000
    with pytest.raises(ImproperlyConfigured, match="needs at least 4,000"):
        prompt_budget()


def test_known_openai_models_are_counted_exactly_and_others_estimated_on_the_safe_side():
    assert counter_for(provider="openai", model="gpt-4o-mini").encoding == "o200k_base"
    assert counter_for(provider="openai", model="openai/gpt-4.1").exact
    assert counter_for(provider="openai", model="gpt-4").encoding == "cl100k_base"
    claude = counter_for(provider="anthropic", model="claude-haiku-4-5")
    llama = counter_for(provider="openai", model="llama3.1:8b")
    assert not claude.exact and not llama.exact
    exact = counter_for(provider="openai", model="gpt-4o")
    text = "Swap my squats for lunges this week, please. " * 40
    assert claude.text_tokens(text) >= exact.text_tokens(text) * ESTIMATE_FACTOR


# --- bounded replies -----------------------------------------------------------------------------


def test_a_reply_over_the_bound_is_cut_with_a_visible_marker(settings):
    settings.CHAT_MAX_REPLY_CHARS = 100
    assert bound_reply("short") == "short"
    cut = bound_reply("x" * 5_000_000)
    assert cut == "x" * 100 + REPLY_CUT.format(total=5_000_000, limit=100)
    assert "5,000,000 characters" in cut and "at most 100" in cut


def test_a_5_mb_reply_is_neither_stored_nor_sent_back_whole(conversation, settings):
    huge = "Squat deep. " * (5 * 1024 * 1024 // 12)
    reply = say(conversation, "tell me everything", ScriptedProvider().text(huge))
    limit = settings.CHAT_MAX_REPLY_CHARS
    assert len(reply.content) < limit + 200 and len(reply.llm_content) < limit + 200
    assert reply.content.endswith(f"and Spotter keeps at most {limit:,}.]")
    provider = ScriptedProvider().text("OK.\n---\nThanks")
    say(conversation, "thanks", provider)
    assert sum(len(t.content) for t in provider.requests[0].turns) < limit + 500


def test_a_small_window_leaves_out_the_families_in_use_but_not_the_one_the_turn_asked_for(
    conversation, settings
):
    used = ask(conversation, "How did I sleep? Find me a workout.")
    Message.objects.filter(pk=used.pk).update(
        status="complete",
        content="Here.",
        steps=[
            {
                "text": "",
                "tool_calls": [
                    {"id": "r1", "name": "get_sleep_data", "arguments": {"days": 3}},
                    {"id": "r2", "name": "search_workout_library", "arguments": {"query": "x"}},
                ],
                "results": [
                    {"tool_call_id": "r1", "content": "[]", "is_error": False},
                    {"tool_call_id": "r2", "content": "[]", "is_error": False},
                ],
            }
        ],
    )
    placeholder = ask(conversation)
    settings.LLM_CONTEXT_TOKENS = 128_000
    large = request_for(conversation, placeholder)
    assert large.families == ["training", "library"]
    assert {"navigate_to_page", "get_sleep_data", "modify_exercise"} <= {
        t["name"] for t in large.tools
    }
    settings.LLM_CONTEXT_TOKENS = 8000
    small = request_for(conversation, placeholder)
    assert small.families == [] and small.fixed <= 0.7 * prompt_budget()
    assert "- training:" in small.system  # still reachable
    call = ToolCall(id="c1", name="use_tools", arguments={"families": ["schedule"]})
    steps = [
        Turn(role="assistant", content="", tool_calls=[call]),
        Turn(role="tool", tool_call_id="c1", content="These tools are now available."),
    ]
    turns = small.fit(steps)
    assert small.families == ["schedule"] and small.loaded == ["schedule"]
    sent = {get_tool(t["name"]).category for t in small.tools}
    assert sent == {"program", "catalog", "schedule"}
    assert sent_tokens(small, turns) <= prompt_budget()
