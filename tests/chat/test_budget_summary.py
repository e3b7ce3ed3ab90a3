"""The summary of what a turn's request leaves out (``chat.budget``, ``chat.dropped``): it opens the
request exactly when something is dropped, the request never passes the budget, and when nothing
is dropped it is never computed (no query of ``chat.dropped``)."""

from __future__ import annotations

import pytest

from chat import budget as budget_module
from chat.budget import TurnRequest, prompt_budget
from chat.management.commands._bench_history import build_history
from chat.models import Message
from coach.llm.base import Turn
from coach.toolcalls import ToolCall
from tests.chat.scripted_provider import ScriptedProvider, assert_valid_turns
from tests.factories import ConversationFactory, build_program

pytestmark = pytest.mark.django_db

GPT = ScriptedProvider(name="openai", model="gpt-4o-mini")
EARLIER = '<spotter_event kind="earlier">'


def ask(conversation, text="And today?"):
    user = Message.objects.create(conversation=conversation, role="user", content=text)
    return Message.objects.create(
        conversation=conversation, role="assistant", status="pending", reply_to=user
    )


def read_round(n: int, size: int) -> list[Turn]:
    call = ToolCall(id=f"r{n}", name="get_week", arguments={"weekNumber": 1})
    return [
        Turn(role="assistant", tool_calls=[call]),
        Turn(role="tool", tool_call_id=f"r{n}", content="week " * size),
    ]


@pytest.fixture
def conversation():
    return ConversationFactory(program=build_program(weeks=8, sessions=4, exercises=6))


def check(request: TurnRequest, turns: list[Turn], steps: list[Turn]) -> bool:
    """Asserts the request's invariants; returns whether something was dropped."""
    sent = request.counter.request(system=request.system, turns=turns, tools=request.tools)
    assert sent <= prompt_budget() and request.last_prompt_tokens == sent
    assert_valid_turns(turns)
    dropped = request.dropped_exchanges > 0 or not request.complete_history
    assert turns[0].content.startswith(EARLIER) == dropped
    assert sum(t.content.count(EARLIER) for t in turns) == (1 if dropped else 0)
    history = turns[: len(turns) - len(steps)] if steps else turns
    if not dropped:  # every exchange read is sent, in order
        assert history == [t for e in request.exchanges for t in e.turns]
    else:  # the summary counts the messages left out
        first_kept = request.exchanges[request.dropped_exchanges].start
        left_out = (
            Message.objects.filter(conversation=request.conversation, pk__lt=first_kept.pk)
            .exclude(role="tool")
            .count()
        )
        noun = "message" if left_out == 1 else "messages"
        assert f"The {left_out:,} earlier {noun}" in turns[0].content
    return dropped


@pytest.mark.parametrize("with_steps", [False, True])
def test_the_summary_opens_the_request_exactly_when_history_is_dropped(
    conversation, settings, with_steps
):
    build_history(conversation=conversation, messages=120)
    placeholder = ask(conversation)
    steps = read_round(1, 400) if with_steps else []
    seen = set()
    for context in range(8000, 30001, 1000):  # from most dropped to nothing dropped
        settings.LLM_CONTEXT_TOKENS = context
        request = TurnRequest.start(conversation=conversation, before=placeholder, provider=GPT)
        seen.add(check(request, request.fit(list(steps)), steps))
    assert seen == {True, False}  # the sweep crossed the point where the history fits


def test_a_history_that_just_fits_is_sent_whole_without_a_summary(conversation, settings):
    """Budgets around the size of the whole request: one token less drops an exchange (and the
    summary opens the request), the exact size keeps them all, with no summary."""
    build_history(conversation=conversation, messages=30)
    placeholder = ask(conversation)
    request = TurnRequest.start(conversation=conversation, before=placeholder, provider=GPT)
    whole = request.fit()
    assert request.dropped_exchanges == 0
    needed = request.last_prompt_tokens
    for budget in (needed - 1, needed, needed + 200):
        request.budget = budget
        dropped = check(request, request.fit(), [])
        assert dropped == (budget < needed)
        if not dropped:
            assert request.fit() == whole


def test_fitting_a_history_that_fits_makes_no_query(
    conversation, django_assert_num_queries, monkeypatch
):
    build_history(conversation=conversation, messages=40)
    placeholder = ask(conversation)
    request = TurnRequest.start(conversation=conversation, before=placeholder, provider=GPT)
    summaries = []
    real = budget_module.dropped_summary
    monkeypatch.setattr(
        budget_module, "dropped_summary", lambda **kw: summaries.append(kw) or real(**kw)
    )
    with django_assert_num_queries(0):
        turns = request.fit()
        request.fit(read_round(1, 50))  # the next call of the turn, after a read round
    assert request.dropped_exchanges == 0 and summaries == []
    assert EARLIER not in turns[0].content


def test_fitting_a_history_that_doesnt_fit_computes_the_summary_once(
    conversation, settings, django_assert_max_num_queries
):
    settings.LLM_CONTEXT_TOKENS = 8000
    build_history(conversation=conversation, messages=300)
    placeholder = ask(conversation)
    request = TurnRequest.start(conversation=conversation, before=placeholder, provider=GPT)
    with django_assert_max_num_queries(10):  # at most two summaries: the reserve and the exact
        turns = request.fit()
    assert request.dropped_exchanges > 0 and turns[0].content.startswith(EARLIER)
    with django_assert_max_num_queries(0):  # each summary is computed once a turn
        assert request.fit() == turns
