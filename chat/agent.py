"""The agent loop: one athlete message (or decision event) in, one coach reply out.

``run_turn(placeholder=...)`` fills the assistant placeholder that ``chat.services.message_send``
(or a decision in ``chat.proposals``) created:

1. **Claim** (``chat.runs``). Under ``select_for_update`` the placeholder moves PENDING → RUNNING
   for the run the task names (``Message.attempt``). A placeholder RUNNING, COMPLETE or FAILED, or
   whose current run is another, is left alone, so a redelivered task (``acks_late``) never makes
   a second reply; a reply whose run was lost is recovered by ``chat.recovery``, with a new run.
   Every save checks under the row lock that this run is still the current one, so a late run's
   reply is dropped.
2. **Loop.** At most ``settings.AGENT_MAX_MODEL_CALLS`` model calls. Read tools run at once (and are
   recorded in the audit log) and the loop continues; it stops at a text answer, at write
   proposals, or at the limit. A response that brings the turn's tool calls past
   ``AGENT_MAX_TOOL_CALLS`` is refused whole, with a reply saying what to do.
3. **Write proposals** go to ``chat.proposals.propose``, which queues them in the open batch or
   refuses them all; each call is answered at once ("Awaiting the athlete's confirmation; not
   applied yet." or its error). Nothing is ever applied here.
4. **Failures** (provider errors after its own retries, ``AGENT_TURN_TIMEOUT`` spent, anything
   unexpected) turn the placeholder FAILED with a friendly message (the page offers Retry). The
   athlete's message is never touched. ``AGENT_TURN_TIMEOUT`` is the turn's one total time for
   all its model calls and retries, and no request is made once the reply no longer waits for this
   run (``chat.turn_limits``). A database that can't be reached (``OperationalError``) gives the
   placeholder back (PENDING) and re-raises, so the task retries with back-off.
5. **Connections.** The thread's database connection is closed before each model call (outside a
   transaction; with a pool it goes back to the pool): a worker's connections don't grow with
   ``AGENT_CONCURRENCY``, since a turn spends nearly all its time waiting for the model.

The request sent to the provider is fitted to the model's context by ``chat.budget``. While it
runs, the turn publishes its text as the model writes it, what the coach is looking at while read
tools run, and ``done`` once the reply is saved (``chat.stream``, read by the page as server-sent
events; the saved reply stays the source of truth).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.utils import timezone

from coach import engine, guardrails
from coach.llm import get_provider
from coach.llm.base import (
    Deadline,
    DeadlineExceeded,
    LLMError,
    LLMResponse,
    Provider,
    TurnAbandoned,
)
from coach.registry import get_tool
from coach.replies import split_replies
from coach.toolcalls import ToolCall

from . import audit, budget, proposals, refusals, stream, turn_limits
from .models import Conversation, Message, ToolCallRecord
from .prompt import MAX_TOOL_RESULT_CHARS, step_turns
from .runs import claim, give_back
from .storable import strip_nul
from .usage import TurnUsage, response_usage

logger = logging.getLogger(__name__)

TRY_AGAIN = refusals.TRY_AGAIN


# --- the loop ------------------------------------------------------------------------------------


@dataclass
class _Turn:
    placeholder: Message
    conversation: Conversation
    provider: Provider
    attempt: int = 1
    stream: stream.ReplyStream | None = None
    deadline: Deadline | None = None
    tool_calls_made: int = 0  # over all the model calls of the turn (AGENT_MAX_TOOL_CALLS)
    usage: TurnUsage = field(default_factory=TurnUsage)
    steps: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ctx(self) -> engine.ToolContext:
        return proposals.core.context_for(self.conversation, user=self.conversation.athlete)


def run_turn(
    *, placeholder: Message, provider: Provider | None = None, attempt: int | None = None
) -> None:
    """Fill ``placeholder`` with the coach's reply for run ``attempt`` (see the module docstring)."""
    if not claim(message_id=placeholder.pk, attempt=attempt):
        return
    try:
        # The claimed row, with its conversation, program and athlete, in one query.
        placeholder.refresh_from_db(
            from_queryset=Message.objects.select_related(
                "conversation__program", "conversation__athlete"
            )
        )
        turn = _Turn(
            placeholder=placeholder,
            conversation=placeholder.conversation,
            provider=provider or get_provider(),
            attempt=placeholder.attempt,
            stream=stream.ReplyStream(placeholder.pk, placeholder.attempt),
            deadline=turn_limits.turn_deadline(placeholder.pk, placeholder.attempt),
        )
    except OperationalError:
        give_back(placeholder.pk, attempt)
        raise
    try:
        _loop(turn)
    except OperationalError:
        give_back(placeholder.pk, turn.attempt)
        raise
    except DeadlineExceeded:
        logger.warning("Reply %s ran out of its %s s", placeholder.pk, settings.AGENT_TURN_TIMEOUT)
        _finish_failed(turn, text=refusals.TIMED_OUT, code="timeout")
    except TurnAbandoned:
        logger.warning(
            "Reply %s no longer waits for run %s; it stops", placeholder.pk, turn.attempt
        )
    except LLMError as exc:
        logger.warning("Provider error (%s) for message %s: %s", exc.kind, placeholder.pk, exc)
        text = refusals.FRIENDLY_LLM_ERRORS.get(exc.kind, refusals.BROKEN)
        _finish_failed(turn, text=text, code=exc.kind)
    except SoftTimeLimitExceeded:
        logger.warning("Soft time limit reached for message %s", placeholder.pk)
        _finish_failed(turn, text=refusals.TIMED_OUT, code="timeout")
    except Exception:
        logger.exception("The agent failed on message %s", placeholder.pk)
        _finish_failed(turn, text=refusals.BROKEN, code="internal")
    finally:
        audit.flag_turn(message=turn.placeholder)
        turn.stream.done()  # after the reply's transaction: the page may read it now


def _before_model_call(turn: _Turn, call_number: int) -> None:
    """Between model calls: stop when the turn's time is spent or its reply no longer waits for
    it; hold no database connection while waiting for the model (it is opened again, or taken from
    the pool, when next needed)."""
    if call_number:
        turn.deadline.check()
    if not connection.in_atomic_block:
        connection.close()


def _loop(turn: _Turn) -> None:
    conversation = turn.conversation
    limit = max(1, int(settings.AGENT_MAX_MODEL_CALLS))
    request = budget.TurnRequest.start(
        conversation=conversation, before=turn.placeholder, provider=turn.provider
    )
    for call_number in range(limit):
        _before_model_call(turn, call_number)
        # fits the context; reply bounded; the text is published as it is written
        on_text = turn.stream.on_text if turn.stream.live else None
        response = request.complete(step_turns(turn.steps), on_text=on_text, deadline=turn.deadline)
        turn.usage.add(response, turn.provider)
        turn.usage.tool_families = request.loaded  # recorded on the reply (chat.toolsets)
        calls = turn_limits.own_call_ids(response)
        if not calls:
            _finish_text(turn, response)
            return
        turn.tool_calls_made += len(calls)
        if turn_limits.over_call_limit(message_id=turn.placeholder.pk, count=turn.tool_calls_made):
            _finish_too_many_calls(turn)
            return
        reads = [c for c in calls if _is_read(c)]
        writes = [c for c in calls if not _is_read(c)]
        if reads and not writes:
            turn.stream.reading(reads)  # "Looking at your last run…"
        read_answers = _run_reads(turn, reads, response)
        if writes:
            _finish_proposals(turn, response, calls=calls, read_answers=read_answers)
            return
        turn.steps.append(
            {
                "text": response.text or "",
                "tool_calls": [c.to_dict() for c in calls],
                "tool_call_extras": response.tool_call_extras or {},
                "results": read_answers,
            }
        )
    _finish_message(
        turn,
        status=Message.Status.COMPLETE,
        content=refusals.step_limit_message(limit),
        replies=[TRY_AGAIN, "Show my program"],
        code="step_limit",
    )


def _is_read(call: ToolCall) -> bool:
    spec = get_tool(call.name)
    return spec is not None and spec.kind == "read"


def _run_reads(turn: _Turn, reads: list[ToolCall], response: LLMResponse) -> list[dict[str, Any]]:
    """Run the read tools now; returns their stored answers and records them in the audit log."""
    answers, statuses, results = [], {}, {}
    for call in reads:
        result = engine.execute_read(ctx=turn.ctx, call=call)
        content = result.summary if result.success else f"Error: {result.summary}"
        if len(content) > MAX_TOOL_RESULT_CHARS:
            content = content[: MAX_TOOL_RESULT_CHARS - 1] + "…"
        answers.append(
            {"tool_call_id": call.id, "content": content, "is_error": not result.success}
            | ({"spoken": result.spoken} if result.spoken else {})
        )
        statuses[call.id] = (
            ToolCallRecord.Status.EXECUTED if result.success else ToolCallRecord.Status.READ_FAILED
        )
        results[call.id] = {**result.to_dict(), "summary": content[:2000]}
    if reads:
        audit.record_calls(
            conversation=turn.conversation,
            message=turn.placeholder,
            calls=reads,
            statuses=statuses,
            results=results,
            usage=response_usage(response, turn.provider),
        )
    return answers


# --- finishing -----------------------------------------------------------------------------------


def _lock_placeholder(turn: _Turn) -> Message | None:
    """The placeholder, locked, if this run still owns it (RUNNING, and this run is current)."""
    message = Message.objects.select_for_update().get(pk=turn.placeholder.pk)
    if message.status != Message.Status.RUNNING or message.attempt != turn.attempt:
        logger.warning(
            "Placeholder %s was finished by another run; dropping this reply", message.pk
        )
        return None
    return message


def _save_reply(message: Message, turn: _Turn, **fields: Any) -> None:
    values = {**turn.usage.fields(), "steps": turn.steps, "finished_at": timezone.now(), **fields}
    for name, value in values.items():
        setattr(message, name, strip_nul(value))
    message.save()
    turn.placeholder = message
    Conversation.objects.filter(pk=message.conversation_id).update(updated_at=timezone.now())


def _finish_message(
    turn: _Turn,
    *,
    status: str,
    content: str,
    replies: list[str],
    code: str = "",
    llm_content: str = "",
) -> None:
    with transaction.atomic():
        message = _lock_placeholder(turn)
        if message is None:
            return
        _save_reply(
            message,
            turn,
            status=status,
            content=content,
            llm_content=llm_content,
            suggested_replies=replies,
            error_code=code,
        )


def _finish_too_many_calls(turn: _Turn) -> None:
    """The model asked for more tool calls in this turn than ``AGENT_MAX_TOOL_CALLS``: none of the
    last response's calls is run, queued or stored (so there is nothing to answer, and no card of
    hundreds of items); the athlete reads why and what to do, and so does the model next turn."""
    _finish_message(
        turn,
        status=Message.Status.COMPLETE,
        content=refusals.too_many_calls_message(
            turn.tool_calls_made, int(settings.AGENT_MAX_TOOL_CALLS)
        ),
        replies=["Show my program"],
        code="too_many_calls",
    )


def _finish_failed(turn: _Turn, *, text: str, code: str) -> None:
    # No "Try again" chip: the failed reply has its own Retry button, which re-runs this turn.
    _finish_message(turn, status=Message.Status.FAILED, content=text, replies=[], code=code)


def _finish_text(turn: _Turn, response: LLMResponse) -> None:
    content, replies = split_replies(response.text or "")
    if not content:
        _finish_failed(turn, text=refusals.EMPTY, code="empty")
        return
    _finish_message(
        turn,
        status=Message.Status.COMPLETE,
        content=content,
        replies=replies,
        llm_content=response.text,
    )


def _finish_proposals(
    turn: _Turn,
    response: LLMResponse,
    *,
    calls: list[ToolCall],
    read_answers: list[dict[str, Any]],
) -> None:
    """Hand the write calls to ``chat.proposals`` and store the reply with one answer per call."""
    text, replies = split_replies(response.text or "")
    conversation = turn.conversation
    with transaction.atomic():
        # One proposer at a time per conversation. NO KEY UPDATE does not block the key-share locks
        # that inserting messages takes, so it can't deadlock with an Apply click.
        Conversation.objects.select_for_update(no_key=True).filter(pk=conversation.pk).first()
        message = _lock_placeholder(turn)
        if message is None:
            return
        proposal = proposals.propose(
            conversation=conversation,
            message=message,
            calls=calls,
            writes={c.id for c in calls if not _is_read(c)},
            usage=response_usage(response, turn.provider),
        )
        answers = dict(proposal.answers)
        for answer in read_answers:
            call_id = proposal.id_map.get(answer["tool_call_id"], answer["tool_call_id"])
            answers[call_id] = (answer["content"], bool(answer["is_error"]))
        if proposal.crisis:
            # Seed 004: the fixed, reviewed message the tool declares (the deployment's crisis
            # resources), nothing the model wrote (no diagnosis), no suggested replies.
            content = next(r for c in proposal.calls if (r := guardrails.crisis_reply(c)))
            replies, code = [], ""
        elif proposal.refused:
            writes = [c for c in proposal.calls if not _is_read(c)]
            # The model's words described a proposal that won't be on a card, so the athlete sees
            # only why it was refused (the model still has its words in ``llm_content``).
            content, replies = refusals.refusal_message(writes=writes, errors=proposal.errors)
            code = "refused"
        else:
            content, code = text or refusals.PROPOSAL_FALLBACK_TEXT, ""
        _save_reply(
            message,
            turn,
            status=Message.Status.COMPLETE,
            content=content,
            llm_content=response.text or "",
            suggested_replies=replies,
            tool_calls=[c.to_dict() for c in proposal.calls],
            tool_call_extras={
                proposal.id_map.get(k, k): v for k, v in (response.tool_call_extras or {}).items()
            },
            batch=proposal.batch,
            error_code=code,
        )
        Message.objects.bulk_create(
            Message(
                conversation=conversation,
                role=Message.Role.TOOL,
                content=strip_nul(answers[call.id][0]),
                tool_call_id=call.id,
                is_error=answers[call.id][1],
                reply_to=message,
                batch=proposal.batch,
                status=Message.Status.COMPLETE,
            )
            for call in proposal.calls
        )
