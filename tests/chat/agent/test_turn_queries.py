"""The queries of one reply turn, pinned (issue 23: the worker's reply is the mix's largest cost):
the offline coach's answer to the capacity mix's question, with history, runs the same queries
every time, and a new query in the turn fails here until it is counted on purpose.

What the turn runs (counted under the test's transaction, where each ``transaction.atomic`` is a
savepoint and its release, two queries): the task's lookup of the placeholder, claiming it (a
savepoint, the locked row, its update, the release), the claimed row with its conversation,
program and athlete, the open batch, the newest page of the history (the families in use come
from it too) and the answers to its tool calls, the offline coach's lists (the program's version,
the staff check, the library's workouts, the household), saving the reply (a savepoint, the
locked row, its update, the conversation's update, the release) and the audit's count and flag
of the turn's tool calls."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from chat.management.commands._bench_history import build_history
from chat.models import Message
from chat.services import message_send
from chat.tasks import run_agent

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_rate_limit(settings):
    settings.CHAT_RATE_LIMIT_PER_MINUTE = 0  # the history was all written this minute


QUESTION = "How should my squat feel this week?"  # bench_mix's question
REPLY_QUERIES = 20
DROPPED_REPLY_QUERIES = REPLY_QUERIES + 10  # two summaries of what is dropped


def answered(conversation, text):
    _, placeholder = message_send(conversation=conversation, text=text)
    with CaptureQueriesContext(connection) as queries:
        run_agent(placeholder.pk)
    placeholder.refresh_from_db()
    assert placeholder.status == Message.Status.COMPLETE and placeholder.content
    return [q["sql"] for q in queries.captured_queries]


def test_a_reply_with_history_runs_a_pinned_number_of_queries(conversation):
    build_history(conversation=conversation, messages=60)
    for text in ("help", "What is on today?"):
        answered(conversation, text)
    counts = [len(answered(conversation, QUESTION)) for _ in range(3)]
    assert counts == [REPLY_QUERIES] * 3


def test_a_reply_whose_history_fits_computes_no_summary_of_it(conversation, monkeypatch):
    build_history(conversation=conversation, messages=60)
    summaries = []
    monkeypatch.setattr("chat.budget.dropped_summary", lambda **kw: summaries.append(kw) or "")
    answered(conversation, QUESTION)
    assert summaries == []


def test_a_reply_whose_history_is_dropped_runs_the_summarys_queries_once(conversation, settings):
    settings.LLM_CONTEXT_TOKENS = 8000
    build_history(conversation=conversation, messages=400)
    counts = [len(answered(conversation, QUESTION)) for _ in range(3)]
    assert counts[1:] == [DROPPED_REPLY_QUERIES] * 2, counts  # the first fills the caches


def test_a_reply_with_a_read_round_reads_the_offline_coachs_lists_once(conversation):
    """The offline coach's lists (``World.cached``) are the same for every call of a turn: the
    call after the read round reads none of them again."""
    build_history(conversation=conversation, messages=20)
    answered(conversation, "help")
    sql = answered(conversation, "What is on today?")
    placeholder = Message.objects.filter(role="assistant").latest("pk")
    assert len(placeholder.steps) == 1  # a read round, then the answer: two model calls
    assert sum('FROM "library_libraryworkout"' in q for q in sql) == 1
    assert sum('"auth_group"."name" = ' in q for q in sql) == 1
