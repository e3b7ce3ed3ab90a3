"""chat.recovery: the sweep's decisions, what it does under the row lock, and Retry (one reply,
never two). Runs are recorded instead of sent, except where a test runs the turn for real."""

from __future__ import annotations

import datetime

import pytest
from django.db import OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from chat import agent, recovery, refusals
from chat.models import Message
from chat.recovery import Action, decide
from chat.services import message_send
from chat.tasks import recover_replies, run_agent
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 22, 12, 0, tzinfo=datetime.UTC)
S = datetime.timedelta(seconds=1)


@pytest.fixture(autouse=True)
def timing(settings):
    settings.AGENT_QUEUE_GRACE = 60
    settings.AGENT_TURN_DEADLINE = 200


@pytest.fixture
def sent(monkeypatch):
    """The runs handed to the broker, as (reply id, run), instead of sending them."""
    runs: list[tuple[int, int]] = []

    def record(placeholder):
        runs.append((placeholder.pk, placeholder.attempt))
        return True

    monkeypatch.setattr(recovery, "send_run", record)
    return runs


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)


def placeholder_in(conversation, **fields):
    user_message, placeholder = message_send(conversation=conversation, text="How's my week?")
    Message.objects.filter(pk=placeholder.pk).update(**fields)
    placeholder.refresh_from_db()
    return user_message, placeholder


def state(placeholder):
    placeholder.refresh_from_db()
    return placeholder.status, placeholder.attempt, placeholder.recoveries


# --- decisions -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "queued_ago", "started_ago", "recoveries", "expected"),
    [
        ("pending", None, None, 0, Action.SEND),
        ("pending", None, None, 1, Action.SEND),
        ("pending", 30, None, 0, None),
        ("pending", 61, None, 0, Action.RESEND),
        ("pending", 61, None, 1, None),
        ("pending", 201, None, 1, Action.FAIL_LOST),
        ("running", 300, 199, 0, None),
        ("running", 300, 201, 0, Action.RESTART),
        ("running", 300, 201, 1, Action.FAIL_TIMEOUT),
        ("complete", 900, 900, 0, None),
        ("failed", 900, 900, 0, None),
    ],
)
def test_the_sweep_decides_from_the_state_and_the_age_of_a_reply(
    status, queued_ago, started_ago, recoveries, expected
):
    action = decide(
        status=status,
        created_at=NOW - 1000 * S,
        queued_at=None if queued_ago is None else NOW - queued_ago * S,
        started_at=None if started_ago is None else NOW - started_ago * S,
        recoveries=recoveries,
        now=NOW,
    )
    assert action == expected


# --- the sweep -----------------------------------------------------------------------------------


def test_a_reply_the_broker_never_took_is_sent_by_the_sweep_as_the_same_run(
    conversation, sent, django_capture_on_commit_callbacks
):
    _, placeholder = placeholder_in(conversation, queued_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        result = recovery.sweep()
    assert (result.sent, result.total) == (1, 1)
    assert sent == [(placeholder.pk, 1)]
    assert state(placeholder) == ("pending", 1, 0)
    assert placeholder.queued_at is not None


def test_a_lost_pending_reply_is_sent_again_once_then_failed_as_lost(
    conversation, sent, django_capture_on_commit_callbacks
):
    now = timezone.now()
    _, placeholder = placeholder_in(conversation, queued_at=now - 61 * S)
    with django_capture_on_commit_callbacks(execute=True):
        assert recovery.sweep(now=now).resent == 1
        assert recovery.sweep(now=now + 100 * S).total == 0  # re-sent: waits for the deadline
        assert recovery.sweep(now=now + 201 * S).failed == 1
    assert sent == [(placeholder.pk, 1)]
    placeholder.refresh_from_db()
    assert (placeholder.status, placeholder.error_code) == ("failed", "lost")
    assert placeholder.content == refusals.LOST


def test_a_reply_left_running_past_the_deadline_gets_one_new_run_then_fails_with_timeout(
    conversation, sent, django_capture_on_commit_callbacks
):
    now = timezone.now()
    _, placeholder = placeholder_in(conversation, status="running", started_at=now - 201 * S)
    with django_capture_on_commit_callbacks(execute=True):
        assert recovery.sweep(now=now).restarted == 1
    assert state(placeholder) == ("pending", 2, 1)
    assert sent == [(placeholder.pk, 2)]
    # The new run starts and hangs as well.
    Message.objects.filter(pk=placeholder.pk).update(status="running", started_at=now)
    assert recovery.sweep(now=now + 201 * S).failed == 1
    placeholder.refresh_from_db()
    assert (placeholder.status, placeholder.error_code) == ("failed", "timeout")
    assert placeholder.content == refusals.TIMED_OUT


def test_young_and_finished_replies_are_left_alone(conversation, sent):
    now = timezone.now()
    placeholder_in(conversation, status="running", started_at=now - 10 * S)
    placeholder_in(conversation, queued_at=now - 5 * S)
    placeholder_in(conversation, status="complete", content="Done.", started_at=now - 900 * S)
    assert recovery.sweep(now=now).total == 0
    assert sent == []


def test_a_second_sweep_finds_nothing_more_to_do(
    conversation, sent, django_capture_on_commit_callbacks
):
    now = timezone.now()
    placeholder_in(conversation, status="running", started_at=now - 500 * S)
    with django_capture_on_commit_callbacks(execute=True):
        assert recovery.sweep(now=now).total == 1
        assert recovery.sweep(now=now).total == 0
    assert len(sent) == 1


def test_the_recovery_task_runs_the_sweep(conversation, sent, django_capture_on_commit_callbacks):
    placeholder_in(conversation, queued_at=None)
    with django_capture_on_commit_callbacks(execute=True):
        assert recover_replies() == 1
    assert len(sent) == 1


# --- handing a run to the broker ------------------------------------------------------------------


def test_a_broker_that_is_down_leaves_the_reply_waiting_for_the_sweep(conversation, monkeypatch):
    _, placeholder = placeholder_in(conversation)

    def down(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(run_agent, "delay", down)
    assert recovery.send_run(placeholder) is False
    assert placeholder.queued_at is None
    placeholder.refresh_from_db()
    assert (placeholder.status, placeholder.queued_at) == ("pending", None)
    assert recovery.waiting_state(placeholder) == "unqueued"


def test_a_run_is_sent_with_its_number(conversation, monkeypatch):
    _, placeholder = placeholder_in(conversation, attempt=3)
    calls = []
    monkeypatch.setattr(run_agent, "delay", lambda *args: calls.append(args))
    assert recovery.send_run(placeholder) is True
    assert calls == [(placeholder.pk, 3)]


# --- Retry ---------------------------------------------------------------------------------------


def test_retry_of_a_failed_reply_answers_the_same_athlete_message_once(
    conversation, django_capture_on_commit_callbacks
):
    user_message, placeholder = placeholder_in(
        conversation, status="failed", content=refusals.BUSY, error_code="rate_limit"
    )
    with django_capture_on_commit_callbacks(execute=True):
        reply = recovery.retry(message=placeholder)
    assert reply.pk == placeholder.pk
    reply.refresh_from_db()
    assert (reply.status, reply.attempt, reply.error_code) == ("complete", 2, "")
    assert reply.content and reply.content != refusals.BUSY
    replies = Message.objects.filter(reply_to=user_message, role="assistant")
    assert list(replies) == [reply]


def test_a_double_click_on_retry_starts_one_run(conversation, sent):
    _, placeholder = placeholder_in(conversation, status="failed", content=refusals.BUSY)
    first = recovery.retry(message=placeholder)
    second = recovery.retry(message=placeholder)
    assert first.pk == second.pk == placeholder.pk
    assert state(placeholder) == ("pending", 2, 0)
    assert Message.objects.filter(role="assistant", conversation=conversation).count() == 1


def test_retry_after_the_sweep_restarted_the_reply_changes_nothing(
    conversation, sent, django_capture_on_commit_callbacks
):
    now = timezone.now()
    _, placeholder = placeholder_in(conversation, status="running", started_at=now - 500 * S)
    with django_capture_on_commit_callbacks(execute=True):
        recovery.sweep(now=now)
        recovery.retry(message=placeholder)
    assert state(placeholder) == ("pending", 2, 1)
    assert sent == [(placeholder.pk, 2)]


def test_the_sweep_after_a_retry_leaves_the_new_run_alone(
    conversation, sent, django_capture_on_commit_callbacks
):
    _, placeholder = placeholder_in(
        conversation, status="running", started_at=timezone.now() - 500 * S
    )
    with django_capture_on_commit_callbacks(execute=True):
        recovery.retry(message=placeholder)
        assert recovery.sweep().total == 0
    assert state(placeholder) == ("pending", 2, 0)
    assert sent == [(placeholder.pk, 2)]


def test_retry_of_a_reply_on_its_way_or_finished_changes_nothing(conversation, sent):
    _, waiting = placeholder_in(conversation, status="running", started_at=timezone.now())
    _, done = placeholder_in(conversation, status="complete", content="Here you go.")
    recovery.retry(message=waiting)
    recovery.retry(message=done)
    assert state(waiting) == ("running", 1, 0)
    assert state(done) == ("complete", 1, 0)
    assert sent == []


def test_retry_on_the_athlete_message_retries_its_reply(conversation, sent):
    user_message, placeholder = placeholder_in(conversation, status="failed", content="x")
    assert recovery.retry(message=user_message).pk == placeholder.pk
    assert state(placeholder) == ("pending", 2, 0)


def test_retry_on_an_athlete_message_without_a_reply_creates_one(conversation, sent):
    user_message, placeholder = placeholder_in(conversation)
    placeholder.delete()
    reply = recovery.retry(message=user_message)
    assert reply.reply_to_id == user_message.pk and reply.status == "pending"
    assert recovery.retry(message=user_message).pk == reply.pk


# --- the task and the database -------------------------------------------------------------------


def test_the_task_retries_when_the_database_is_out_of_reach(conversation, monkeypatch):
    _, placeholder = placeholder_in(conversation)
    real_claim = agent.claim
    failures = iter([OperationalError("sorry, too many clients already")])

    def flaky_claim(**kwargs):
        error = next(failures, None)
        if error is not None:
            raise error
        return real_claim(**kwargs)

    monkeypatch.setattr(agent, "claim", flaky_claim)
    run_agent.apply(args=[placeholder.pk, 1], throw=False)  # follow the retry in-process
    assert next(failures, None) is None, "the first try met the error"
    placeholder.refresh_from_db()
    assert placeholder.status == "complete"


def test_a_turn_cut_off_from_the_database_gives_its_reply_back(conversation, monkeypatch):
    _, placeholder = placeholder_in(conversation)

    def unreachable(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(agent.budget.TurnRequest, "start", unreachable)
    with pytest.raises(OperationalError):
        agent.run_turn(placeholder=placeholder, attempt=1)
    assert state(placeholder) == ("pending", 1, 0)
