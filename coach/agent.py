"""The agent loop: one athlete message (or Apply/Cancel event) in, one coach reply out.

``run_turn(placeholder=...)`` fills the assistant placeholder that ``chat.services.message_send``
(or ``batch_apply``/``batch_cancel``) created:

1. **Claim.** Under ``select_for_update`` the placeholder moves PENDING → RUNNING. A placeholder that
   is already RUNNING (and younger than the task's hard time limit), COMPLETE or FAILED is left
   alone, so a redelivered task (``acks_late``) never makes a second reply.
2. **Loop.** At most ``settings.AGENT_MAX_MODEL_CALLS`` model calls. Read tools run at once and the
   loop continues; it stops at a text answer, at write proposals, or at the limit.
3. **Write proposals** are only proposals: each is checked (schema layer), then previewed together
   with the calls already queued in the conversation's open batch. If all of them are valid they
   join that batch (or start one), the preview is rebuilt and the revision goes up; each call is
   answered "Awaiting the athlete's confirmation; not applied yet.". If any new call is invalid,
   none of this response's calls is queued, the existing batch is untouched, each call is answered
   with its error, and the athlete reads a friendly message naming the problem (seed 000, Phase 5)
   instead of the model's words, which described a change that will not be on a card.
   Nothing is ever applied here: only ``chat.services.batch_apply`` (the Apply Changes click) does.
4. **Failures** (provider errors after its own retries, the soft time limit, anything unexpected)
   turn the placeholder FAILED with a friendly message and a "Try again" reply. The athlete's
   message is never touched.

The conversation sent to the provider is built by ``coach.context.build_turns``; see that module
for why it is always valid for every provider.
"""

from __future__ import annotations

import datetime
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from chat.models import Conversation, Message, PendingToolBatch
from coach import engine
from coach.context import (
    AWAITING_CONFIRMATION,
    MAX_TOOL_RESULT_CHARS,
    build_system_prompt,
    build_turns,
    quote,
    step_turns,
)
from coach.llm.base import LLMError, LLMResponse, Provider
from coach.registry import get_tool, tool_definitions
from coach.replies import split_replies
from coach.toolcalls import ToolCall
from programs.models import Program

logger = logging.getLogger(__name__)

TRY_AGAIN = "Try again"
PROPOSAL_FALLBACK_TEXT = (
    "Here's what I'd change. Check the preview, then click Apply Changes if it looks right."
)
NOT_QUEUED = (
    "Not queued: another change in the same response was refused, so none of them were queued. "
    "Nothing was applied."
)

BUSY = "The coach is busy right now. Please try again in a moment."
UNAVAILABLE = (
    "The coach's model isn't available right now (its account or key needs attention). "
    "Nothing was changed."
)
TIMED_OUT = "The coach took too long to answer. Nothing was changed; please try again."
UNREACHABLE = "I couldn't reach the coach's model. Nothing was changed; please try again."
BROKEN = (
    "Something went wrong while the coach was answering. Nothing was changed; please try again."
)
EMPTY = "The coach didn't answer this time. Nothing was changed; please try again."

FRIENDLY_LLM_ERRORS = {
    "rate_limit": BUSY,
    "overloaded": BUSY,
    "server": BUSY,
    "quota": UNAVAILABLE,
    "auth": UNAVAILABLE,
    "timeout": TIMED_OUT,
    "connection": UNREACHABLE,
}


def step_limit_message(limit: int) -> str:
    return (
        f"I couldn't finish that in {limit} steps. Nothing was changed. "
        "Could you ask for one thing at a time?"
    )


# --- claiming the placeholder --------------------------------------------------------------------


def _stale_running_before() -> datetime.datetime:
    limit = getattr(settings, "CELERY_TASK_TIME_LIMIT", 180) or 180
    return timezone.now() - datetime.timedelta(seconds=limit)


def claim(*, message_id: int) -> bool:
    """Move the placeholder PENDING → RUNNING; False when another run owns or finished it."""
    with transaction.atomic():
        message = Message.objects.select_for_update().filter(pk=message_id).first()
        if message is None or message.role != Message.Role.ASSISTANT:
            return False
        if message.status == Message.Status.RUNNING:
            if message.started_at and message.started_at > _stale_running_before():
                return False
            logger.warning("Reclaiming placeholder %s left running by a killed worker", message_id)
        elif message.status != Message.Status.PENDING:
            return False
        message.status = Message.Status.RUNNING
        message.started_at = timezone.now()
        message.save(update_fields=["status", "started_at"])
    return True


# --- the loop ------------------------------------------------------------------------------------


@dataclass
class _Usage:
    provider: str = ""
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: int = 0
    calls: int = 0

    def add(self, response: LLMResponse, provider: Provider) -> None:
        self.provider = response.provider or getattr(provider, "name", "")
        self.model = response.model or getattr(provider, "model", "")
        self.prompt_tokens += response.usage.prompt_tokens or 0
        self.completion_tokens += response.usage.completion_tokens or 0
        self.latency_ms += response.latency_ms or 0
        self.calls += 1

    def fields(self) -> dict[str, Any]:
        return {
            "provider": self.provider[:50],
            "model": self.model[:200],
            "prompt_tokens": self.prompt_tokens if self.calls else None,
            "completion_tokens": self.completion_tokens if self.calls else None,
            "latency_ms": self.latency_ms if self.calls else None,
        }


@dataclass
class _Turn:
    placeholder: Message
    conversation: Conversation
    provider: Provider
    usage: _Usage = field(default_factory=_Usage)
    steps: list[dict[str, Any]] = field(default_factory=list)


def run_turn(*, placeholder: Message, provider: Provider | None = None) -> None:
    """Fill ``placeholder`` with the coach's reply (see the module docstring)."""
    if not claim(message_id=placeholder.pk):
        return
    placeholder.refresh_from_db()
    turn = _Turn(
        placeholder=placeholder,
        conversation=Conversation.objects.select_related("program", "athlete").get(
            pk=placeholder.conversation_id
        ),
        provider=provider,  # type: ignore[arg-type]
    )
    try:
        if turn.provider is None:
            from coach.llm import get_provider

            turn.provider = get_provider()
        _loop(turn)
    except LLMError as exc:
        logger.warning("Provider error (%s) for message %s: %s", exc.kind, placeholder.pk, exc)
        _finish_failed(turn, text=FRIENDLY_LLM_ERRORS.get(exc.kind, BROKEN), code=exc.kind)
    except Exception as exc:
        from celery.exceptions import SoftTimeLimitExceeded

        if isinstance(exc, SoftTimeLimitExceeded):
            logger.warning("Soft time limit reached for message %s", placeholder.pk)
            _finish_failed(turn, text=TIMED_OUT, code="timeout")
        else:
            logger.exception("The agent failed on message %s", placeholder.pk)
            _finish_failed(turn, text=BROKEN, code="internal")


def _open_batch(conversation: Conversation) -> PendingToolBatch | None:
    return (
        PendingToolBatch.objects.filter(
            conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES
        )
        .order_by("-pk")
        .first()
    )


def _loop(turn: _Turn) -> None:
    conversation = turn.conversation
    limit = max(1, int(settings.AGENT_MAX_MODEL_CALLS))
    system = build_system_prompt(
        program=conversation.program, athlete=conversation.athlete, batch=_open_batch(conversation)
    )
    history = build_turns(conversation, before=turn.placeholder)
    tools = tool_definitions()
    for _ in range(limit):
        response = turn.provider.complete(
            system=system, turns=history + step_turns(turn.steps), tools=tools
        )
        turn.usage.add(response, turn.provider)
        calls = list(response.tool_calls)
        if not calls:
            _finish_text(turn, response)
            return
        reads = [c for c in calls if _is_read(c)]
        writes = [c for c in calls if not _is_read(c)]
        read_answers = [_run_read(turn, call) for call in reads]
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
        content=step_limit_message(limit),
        replies=[TRY_AGAIN, "Show my program"],
        code="step_limit",
    )


def _is_read(call: ToolCall) -> bool:
    spec = get_tool(call.name)
    return spec is not None and spec.kind == "read"


def _run_read(turn: _Turn, call: ToolCall) -> dict[str, Any]:
    """Run a read tool now; returns its stored answer ``{tool_call_id, content, is_error}``."""
    result = engine.execute_read(program=turn.conversation.program, call=call)
    content = result.summary if result.success else f"Error: {result.summary}"
    if len(content) > MAX_TOOL_RESULT_CHARS:
        content = content[: MAX_TOOL_RESULT_CHARS - 1] + "…"
    return {"tool_call_id": call.id, "content": content, "is_error": not result.success}


# --- finishing -----------------------------------------------------------------------------------


def _lock_placeholder(turn: _Turn) -> Message | None:
    """The placeholder, locked, if this run still owns it (it is RUNNING)."""
    message = Message.objects.select_for_update().get(pk=turn.placeholder.pk)
    if message.status != Message.Status.RUNNING:
        logger.warning(
            "Placeholder %s was finished by another run; dropping this reply", message.pk
        )
        return None
    return message


def _save_reply(message: Message, turn: _Turn, **fields: Any) -> None:
    values = {
        **turn.usage.fields(),
        "steps": turn.steps,
        "finished_at": timezone.now(),
        **fields,
    }
    for name, value in values.items():
        setattr(message, name, strip_nul(value))
    message.save()
    turn.placeholder = message
    Conversation.objects.filter(pk=message.conversation_id).update(updated_at=timezone.now())


def strip_nul(value: Any) -> Any:
    """``value`` without NUL characters, which PostgreSQL can store neither in text nor in jsonb."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [strip_nul(v) for v in value]
    if isinstance(value, dict):
        return {strip_nul(k): strip_nul(v) for k, v in value.items()}
    return value


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


def _finish_failed(turn: _Turn, *, text: str, code: str) -> None:
    _finish_message(
        turn, status=Message.Status.FAILED, content=text, replies=[TRY_AGAIN], code=code
    )


def _finish_text(turn: _Turn, response: LLMResponse) -> None:
    content, replies = split_replies(response.text or "")
    if not content:
        _finish_message(
            turn, status=Message.Status.FAILED, content=EMPTY, replies=[TRY_AGAIN], code="empty"
        )
        return
    _finish_message(
        turn,
        status=Message.Status.COMPLETE,
        content=content,
        replies=replies,
        llm_content=response.text,
    )


def _unique_ids(calls: list[ToolCall], taken: set[str]) -> list[ToolCall]:
    """Give each call an id not used by the open batch or by an earlier call of this response
    (some providers number their calls call_1, call_2... in every response)."""
    out = []
    used = set(taken)
    for call in calls:
        call_id = call.id or "call"
        if call_id in used:
            n = 2
            while f"{call_id}_{n}" in used:
                n += 1
            call_id = f"{call_id}_{n}"
        used.add(call_id)
        out.append(
            call
            if call_id == call.id
            else ToolCall(
                id=call_id,
                name=call.name,
                arguments=call.arguments,
                arguments_error=call.arguments_error,
                raw_arguments=call.raw_arguments,
            )
        )
    return out


def _finish_proposals(
    turn: _Turn,
    response: LLMResponse,
    *,
    calls: list[ToolCall],
    read_answers: list[dict[str, Any]],
) -> None:
    """Queue the write calls in the open batch, or refuse them all (see the module docstring)."""
    text, replies = split_replies(response.text or "")
    conversation = turn.conversation
    with transaction.atomic():
        # One proposer at a time per conversation. NO KEY UPDATE does not block the key-share locks
        # that inserting messages takes, so it can't deadlock with an Apply click.
        Conversation.objects.select_for_update(no_key=True).filter(pk=conversation.pk).first()
        message = _lock_placeholder(turn)
        if message is None:
            return
        batch = (
            PendingToolBatch.objects.select_for_update()
            .filter(conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES)
            .first()
        )
        existing = [ToolCall.from_raw(raw) for raw in batch.calls] if batch else []
        renamed = _unique_ids(calls, {c.id for c in existing})
        id_map = {old.id: new.id for old, new in zip(calls, renamed, strict=True)}
        calls = renamed
        writes = [c for c in calls if not _is_read(c)]
        read_by_id = {id_map.get(a["tool_call_id"], a["tool_call_id"]): a for a in read_answers}
        errors, combined = _check_writes(
            program=conversation.program, existing=existing, writes=writes
        )
        if not errors:
            batch = _queue(
                conversation=conversation, batch=batch, calls=existing + writes, result=combined
            )
            answers = {
                c.id: (
                    f"{AWAITING_CONFIRMATION} Preview: {quote(_call_summary(batch, c.id))}",
                    False,
                )
                for c in writes
            }
            content = text or PROPOSAL_FALLBACK_TEXT
            code = ""
        else:
            batch = None
            answers = {
                c.id: (_error_text(errors[c.id]), True) if c.id in errors else (NOT_QUEUED, True)
                for c in writes
            }
            # The model's words described a proposal that won't be on a card, so the athlete sees
            # only why it was refused (the model still has its words in ``llm_content``).
            content, replies = refusal_message(writes=writes, errors=errors)
            code = "refused"
        for call_id, answer in read_by_id.items():
            answers[call_id] = (answer["content"], bool(answer["is_error"]))
        _save_reply(
            message,
            turn,
            status=Message.Status.COMPLETE,
            content=content,
            llm_content=response.text or "",
            suggested_replies=replies,
            tool_calls=[c.to_dict() for c in calls],
            tool_call_extras={
                id_map.get(k, k): v for k, v in (response.tool_call_extras or {}).items()
            },
            batch=batch,
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
                batch=batch,
                status=Message.Status.COMPLETE,
            )
            for call in calls
        )


def _check_writes(
    *, program: Program, existing: list[ToolCall], writes: list[ToolCall]
) -> tuple[dict[str, list[engine.ToolError]], engine.BatchResult | None]:
    """The errors of the new calls, keyed by call id (empty when every one of them is valid), and
    the preview of the queued calls followed by the new ones.

    The new calls are previewed after the queued ones, since they will run after them. When the
    queued calls themselves no longer fit the program (the batch is failed or stale), the new calls
    are judged on their own instead, so a broken queue doesn't block unrelated proposals."""
    errors: dict[str, list[engine.ToolError]] = {}
    for call in writes:
        _, call_errors = engine.check_call(call)
        if call_errors:
            errors[call.id] = call_errors
    if errors:
        return errors, None
    result = engine.preview_calls(program=program, calls=existing + writes)
    queued_ok = all(r.success for r in result.results[: len(existing)])
    new_results = result.results[len(existing) :]
    if not queued_ok:
        new_results = engine.preview_calls(program=program, calls=writes).results
    for call, call_result in zip(writes, new_results, strict=False):
        if not call_result.success:
            errors[call.id] = call_result.errors or [
                engine.ToolError(code="VALIDATION_ERROR", message=call_result.summary or "Invalid.")
            ]
    return errors, result


def _queue(
    *,
    conversation: Conversation,
    batch: PendingToolBatch | None,
    calls: list[ToolCall],
    result: engine.BatchResult | None,
) -> PendingToolBatch:
    """Make ``calls`` (the queued ones, then the new ones) the open batch's calls, with their
    preview ``result``; starts a batch when none is open."""
    all_calls = calls
    if result is None:
        result = engine.preview_calls(program=conversation.program, calls=all_calls)
    previous_version = batch.program_version if batch is not None else None
    if batch is None:
        batch = PendingToolBatch(conversation=conversation, revision=1)
    else:
        batch.revision += 1
    batch.calls = [c.to_dict() for c in all_calls]
    batch.preview = result.preview
    batch.results = [r.to_dict() for r in result.results]
    batch.program_version = result.program_version
    if result.success:
        batch.status = PendingToolBatch.BatchStatus.PENDING
        batch.error_message = ""
    else:
        batch.error_message = describe_failure(all_calls, result.results)
        changed = previous_version is not None and previous_version != result.program_version
        batch.status = (
            PendingToolBatch.BatchStatus.STALE if changed else PendingToolBatch.BatchStatus.FAILED
        )
    batch.save()
    return batch


def _call_summary(batch: PendingToolBatch, call_id: str) -> str:
    for result in batch.results:
        if result.get("tool_call_id") == call_id:
            return result.get("summary", "")
    return ""


def describe_failure(calls: list[ToolCall], results: list[Any]) -> str:
    """ "Change 2 of 3 (modify_exercise) failed: Week 2, session 1 has only 4 exercises." """
    for index, result in enumerate(results, start=1):
        data = result.to_dict() if hasattr(result, "to_dict") else result
        if data.get("success"):
            continue
        messages = " ".join(e.get("message", "") for e in data.get("errors", [])) or data.get(
            "summary", ""
        )
        return f"Change {index} of {len(calls)} ({data.get('name', '')}) failed: {messages}".strip()
    return ""


def _error_text(errors: list[engine.ToolError]) -> str:
    return "Error (not queued, nothing was applied): " + json.dumps(
        [e.to_dict() for e in errors], ensure_ascii=False
    )


# --- the friendly message when proposals are refused (seed 000, Phase 5) --------------------------


def _lower_first(text: str) -> str:
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text


def refusal_message(
    *, writes: list[ToolCall], errors: dict[str, list[engine.ToolError]]
) -> tuple[str, list[str]]:
    """The athlete-facing text and suggested replies when proposals were refused."""
    first_call = next(c for c in writes if c.id in errors)
    first = errors[first_call.id][0]
    several = len(writes) > 1
    if first.code == "PARSE_ERROR":
        text = "I had trouble understanding that request. Can you rephrase what you'd like me to change?"
        replies = ["Start over", "Show me my workouts"]
    elif first.code == "UNKNOWN_TOOL":
        text = "I tried to make a kind of change I can't make. Can you rephrase what you'd like me to change?"
        replies = ["Start over", "Show me my workouts"]
    elif first.code == "NOT_FOUND":
        text = f"I couldn't make that change because {_lower_first(first.message)}"
        replies = ["Try a different exercise", "Show me the session", "Never mind"]
    elif first.code == "VALIDATION_ERROR" and first.message.endswith("is required."):
        text = f"I need more information to make that change: {_lower_first(first.message)}"
        replies = ["Show me the session", "Never mind"]
    else:
        text = f"I couldn't make that change: {first.message}"
        replies = ["Try something different", "Show me the session", "Never mind"]
    if several:
        text += (
            f" None of the {len(writes)} changes were queued, since they were meant to go together."
        )
    text += " Nothing was changed."
    return text, replies
