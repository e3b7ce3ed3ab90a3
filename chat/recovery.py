"""A reply can't hang: handing a reply's run to the broker, the sweep that recovers lost replies,
and the athlete's Retry.

A reply is an assistant placeholder (PENDING → RUNNING → COMPLETE or FAILED) filled by one run of
the agent (``chat.agent``). Three of its fields make recovery safe:

* ``attempt`` names the current run. A task carries it; the agent claims the placeholder only for
  the current run and saves a reply only while its run is still current, so a re-queued run and a
  late original can't both finish. Exactly one reply, ever.
* ``queued_at``: when the current run was handed to the broker; empty when the broker couldn't
  take it (it was down: the message is kept and the athlete told; the sweep sends it later).
* ``recoveries``: how many times the sweep re-queued the reply (once at most).

The sweep (``sweep``; Celery beat every ``AGENT_RECOVERY_INTERVAL`` seconds and once when a worker
starts) decides for each waiting reply (``decide``), then acts under the row's lock after deciding
again on the locked row, so two sweeps, or a sweep and a Retry click, act once:

=====================================================  ===========================================
the reply                                              the sweep
=====================================================  ===========================================
PENDING, never handed to the broker                    sends it (the same run)
PENDING, handed over ``AGENT_QUEUE_GRACE`` s ago       sends it again once (the same run: whichever
                                                       copy comes first claims it, the other finds it
                                                       taken)
PENDING, re-sent ``AGENT_TURN_DEADLINE`` s ago         FAILED, ``error_code="lost"``
RUNNING, started ``AGENT_TURN_DEADLINE`` s ago         a new run, once (its worker was killed, or it
                                                       hangs: its late reply will be dropped)
RUNNING past the deadline again                        FAILED, ``error_code="timeout"``
=====================================================  ===========================================

The run is handed to the task that ``chat.tasks`` registers by reference (``runs_agent``), not
looked up by its name: the task module imports the agent, which reaches the lifecycle, which
queues runs here, so the dependency points from the task to this module, never back.

``retry`` is the athlete's Retry: it starts a new run of a failed reply, of one past the deadline,
or of one the broker never took; a reply on its way or finished is left as it is, so a double
click gives one reply. The page stops polling at the deadline (``waiting_state``).
"""

from __future__ import annotations

import datetime
import enum
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.celery import BROKER_ERRORS

from . import refusals, stream
from .models import Message

logger = logging.getLogger(__name__)

MAX_RECOVERIES = 1
WAITING = (Message.Status.PENDING, Message.Status.RUNNING)


class Action(enum.Enum):
    SEND = "send"  # hand the current run to the broker (it never was)
    RESEND = "resend"  # its task was lost before it started: send the same run again
    RESTART = "restart"  # its run started and never finished: a new run
    FAIL_LOST = "lost"
    FAIL_TIMEOUT = "timeout"


def grace() -> datetime.timedelta:
    return datetime.timedelta(seconds=float(settings.AGENT_QUEUE_GRACE))


def deadline() -> datetime.timedelta:
    return datetime.timedelta(seconds=float(settings.AGENT_TURN_DEADLINE))


# --- handing a run to the broker -----------------------------------------------------------------

_AGENT: list[Any] = []  # the Celery task that runs the agent, registered by ``chat.tasks``


def runs_agent(task: Any) -> Any:
    """Register ``task`` as the one that fills a reply (``chat.tasks.run_agent``, decorated)."""
    _AGENT[:] = [task]
    return task


def agent_task() -> Any:
    if not _AGENT:
        raise RuntimeError("No agent task registered: chat.tasks is loaded by ChatConfig.ready().")
    return _AGENT[0]


def send_run(placeholder: Message) -> bool:
    """Hand the placeholder's current run to the broker now. When the broker can't take it, log,
    mark the run not queued (the sweep sends it when the broker is back) and return False; the
    message and its placeholder are kept either way."""
    try:
        agent_task().delay(placeholder.pk, placeholder.attempt)
    except BROKER_ERRORS as exc:
        logger.warning("The broker is unreachable; reply %s waits for it: %s", placeholder.pk, exc)
        placeholder.queued_at = None
        Message.objects.filter(
            pk=placeholder.pk, attempt=placeholder.attempt, status=Message.Status.PENDING
        ).update(queued_at=None)
        return False
    return True


def queue_run(placeholder: Message) -> None:
    """Send the placeholder's current run once the transaction commits (``send_run``)."""
    transaction.on_commit(lambda: send_run(placeholder))


# --- deciding ------------------------------------------------------------------------------------


def decide(
    *,
    status: str,
    created_at: datetime.datetime,
    queued_at: datetime.datetime | None,
    started_at: datetime.datetime | None,
    recoveries: int,
    now: datetime.datetime,
) -> Action | None:
    """What the sweep does with a reply in this state (the table in the module docstring)."""
    if status == Message.Status.PENDING:
        if queued_at is None:
            return Action.SEND
        if recoveries < MAX_RECOVERIES:
            return Action.RESEND if now - queued_at > grace() else None
        return Action.FAIL_LOST if now - queued_at > deadline() else None
    if status == Message.Status.RUNNING:
        if now - (started_at or queued_at or created_at) <= deadline():
            return None
        return Action.RESTART if recoveries < MAX_RECOVERIES else Action.FAIL_TIMEOUT
    return None


def _decide_for(message: Message, now: datetime.datetime) -> Action | None:
    return decide(
        status=message.status,
        created_at=message.created_at,
        queued_at=message.queued_at,
        started_at=message.started_at,
        recoveries=message.recoveries,
        now=now,
    )


def waiting_state(message: Message, now: datetime.datetime | None = None) -> str:
    """What the page shows of a waiting reply: "thinking", "unqueued" (the broker didn't take it
    yet) or "overdue" (past the deadline: stop polling, offer Retry); "" when it isn't waiting."""
    if message.status not in WAITING:
        return ""
    now = now or timezone.now()
    since = message.started_at or message.queued_at or message.created_at
    if since is not None and now - since > deadline():
        return "overdue"
    if message.status == Message.Status.PENDING and message.queued_at is None:
        return "unqueued"
    return "thinking"


# --- acting --------------------------------------------------------------------------------------


def _start_run(message: Message, *, now: datetime.datetime, new_run: bool) -> None:
    """Put the locked reply back in the queue (PENDING) and send it once the transaction commits."""
    if new_run:
        message.attempt += 1
    message.status = Message.Status.PENDING
    message.queued_at = now
    message.started_at = None
    message.finished_at = None
    message.content = ""
    message.error_code = ""
    message.suggested_replies = []
    message.save(
        update_fields=[
            "attempt",
            "recoveries",
            "status",
            "queued_at",
            "started_at",
            "finished_at",
            "content",
            "error_code",
            "suggested_replies",
        ]
    )
    queue_run(message)
    _wake_streams(message)


def _wake_streams(message: Message) -> None:
    """The reply changed without its run's ``done``: its open streams ask the database once the
    change is committed (``chat.stream.reply_changed``)."""
    pk = message.pk
    transaction.on_commit(lambda: stream.reply_changed(pk))


def _fail(message: Message, *, code: str, now: datetime.datetime) -> None:
    message.status = Message.Status.FAILED
    message.content = refusals.TIMED_OUT if code == "timeout" else refusals.LOST
    message.error_code = code
    message.suggested_replies = []
    message.finished_at = now
    message.save(
        update_fields=["status", "content", "error_code", "suggested_replies", "finished_at"]
    )
    _wake_streams(message)


def _act(message: Message, action: Action, now: datetime.datetime) -> None:
    if action is Action.SEND:
        _start_run(message, now=now, new_run=False)
    elif action is Action.RESEND:
        message.recoveries += 1
        _start_run(message, now=now, new_run=False)
    elif action is Action.RESTART:
        message.recoveries += 1
        _start_run(message, now=now, new_run=True)
    else:
        _fail(message, code=action.value, now=now)
    logger.warning("Recovering reply %s (run %s): %s", message.pk, message.attempt, action.value)


@dataclass
class SweepResult:
    sent: int = 0
    resent: int = 0
    restarted: int = 0
    failed: int = 0

    @property
    def total(self) -> int:
        return self.sent + self.resent + self.restarted + self.failed


def sweep(*, now: datetime.datetime | None = None) -> SweepResult:
    """Recover the replies that can't finish by themselves (the module docstring's table)."""
    now = now or timezone.now()
    result = SweepResult()
    waiting = Message.objects.filter(role=Message.Role.ASSISTANT, status__in=WAITING).only(
        "pk", "status", "created_at", "queued_at", "started_at", "recoveries"
    )
    due = [m.pk for m in waiting.order_by("pk") if _decide_for(m, now) is not None]
    for pk in due:
        with transaction.atomic():
            message = Message.objects.select_for_update().filter(pk=pk).first()
            # Decide again on the locked row: another sweep or a Retry may have acted meanwhile.
            action = _decide_for(message, now) if message is not None else None
            if action is None:
                continue
            _act(message, action, now)
        field = {
            Action.SEND: "sent",
            Action.RESEND: "resent",
            Action.RESTART: "restarted",
        }.get(action, "failed")
        setattr(result, field, getattr(result, field) + 1)
    return result


# --- Retry ---------------------------------------------------------------------------------------


def reply_of(message: Message) -> Message | None:
    """The coach's reply a Retry on ``message`` is about: itself for a reply, the latest reply to
    it for the athlete's message (or a decision event); None when there is none."""
    if message.role == Message.Role.ASSISTANT:
        return message
    return (
        Message.objects.filter(reply_to=message, role=Message.Role.ASSISTANT)
        .order_by("-pk")
        .first()
    )


def retry(*, message: Message) -> Message:
    """The athlete's Retry on ``message`` (a reply, or the message it answers; the caller checked
    the athlete may reach it). A failed reply, one past the deadline or one the broker never took
    gets a new run; one on its way or finished is returned as it is, so two clicks, or a click and
    the sweep, give one reply. A message without a reply gets one (a new placeholder)."""
    now = timezone.now()
    with transaction.atomic():
        # Clicks on the same message take turns: the second sees what the first did.
        message = Message.objects.select_for_update().get(pk=message.pk)
        reply = reply_of(message)
        if reply is None:
            if message.role not in (Message.Role.USER, Message.Role.EVENT):
                raise ValueError("Only a reply, or the message it answers, can be retried.")
            reply = Message.objects.create(
                conversation_id=message.conversation_id,
                role=Message.Role.ASSISTANT,
                status=Message.Status.PENDING,
                reply_to=message,
                queued_at=now,
            )
            queue_run(reply)
            return reply
        if reply.pk != message.pk:
            reply = Message.objects.select_for_update().get(pk=reply.pk)
        stuck = reply.status == Message.Status.FAILED or waiting_state(reply, now) in (
            "overdue",
            "unqueued",
        )
        if reply.reply_to_id is not None and stuck:
            reply.recoveries = 0  # the athlete asked again: the sweep may recover this run once
            _start_run(reply, now=now, new_run=True)
            logger.info("Retry of reply %s: run %s", reply.pk, reply.attempt)
    return reply
