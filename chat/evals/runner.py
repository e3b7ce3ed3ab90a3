"""One run of one scenario through the product, and the checks of each step.

``run_once`` opens a transaction, builds the fixture (a fresh athlete), plays the steps and rolls
everything back, so a run leaves nothing behind and every run starts from the same state:

* a message is saved by ``chat.services.message_send`` (as the chat view does) and answered by
  ``chat.agent.run_turn`` in this process (as the Celery task does), with the provider given;
* a click is ``chat.proposals.apply`` / ``cancel`` with the revision the card showed (when Apply
  finds the plan changed, the athlete looks at the fresh preview and clicks once more, as the
  page asks); the reply that tells the model is run the same way;
* a coach edit changes the program while the card is open (the plan family's ``EVAL.edit``).

What a step observed comes from the product's own records: the tool-call audit log
(``ToolCallRecord``: every call, read or write, with its status), the replies (``Message``: text,
status, tokens, model latency) and each family's own state (``fixtures.snapshot``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from django.db import transaction

from coach.llm.base import LLMResponse, Provider, Turn, Usage
from coach.toolcalls import ToolCall

from .. import proposals
from ..agent import run_turn
from ..models import Message, ToolCallRecord
from ..services import message_send
from . import fixtures
from .checks import check_step, exact_match
from .results import Reply, RunResult, StepResult
from .scenarios import CallSpec, Scenario, Step
from .templates import Context

MAX_REPLIES_PER_STEP = 10


class _Scripted:
    """The model's first answer of a step is scripted (``model`` in the file); later calls of the
    same turn go to the real provider."""

    def __init__(self, provider: Provider, response: LLMResponse) -> None:
        self.provider, self.response = provider, response
        self.name, self.model = provider.name, provider.model
        self.offline = getattr(provider, "offline", False)

    def complete(self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]):
        if self.response is not None:
            response, self.response = self.response, None
            return response
        return self.provider.complete(system=system, turns=turns, tools=tools)


def scripted_response(model: dict[str, Any], provider: Provider) -> LLMResponse:
    calls = [
        ToolCall.from_raw(
            {
                "id": f"call_scripted_{n}",
                "name": call["tool"],
                "arguments": call["raw"] if "raw" in call else call["arguments"],
            }
        )
        for n, call in enumerate(model.get("calls", []), start=1)
    ]
    return LLMResponse(
        text=str(model.get("text", "")),
        tool_calls=calls,
        finish_reason="tool_calls" if calls else "stop",
        usage=Usage(),
        provider=provider.name,
        model=provider.model,
    )


def run_once(scenario: Scenario, *, provider: Provider, phrasing: str) -> RunResult:
    """Play ``scenario`` once in ``phrasing`` ("command" or "natural"); nothing is kept."""
    result = RunResult()
    started = time.monotonic()
    with transaction.atomic():
        try:
            world = fixtures.build(scenario.fixture)
            ctx = Context(today=world.today, program=world.program, athlete=world.athlete)
            for step in scenario.steps:
                result.steps.append(
                    _play(step, world=world, ctx=ctx, provider=provider, phrasing=phrasing)
                )
        except Exception as exc:  # a broken fixture or template, or the product crashed
            result.error = f"{type(exc).__name__}: {exc}"
        finally:
            transaction.set_rollback(True)
    result.wall_ms = int((time.monotonic() - started) * 1000)
    return result


def _play(
    step: Step, *, world: fixtures.World, ctx: Context, provider: Provider, phrasing: str
) -> StepResult:
    result = StepResult(label=step.label)
    expect = {key: _render(ctx, value) for key, value in step.expect.items()}
    call_mark = _last_pk(ToolCallRecord.objects.filter(conversation=world.conversation))
    before = fixtures.snapshot(world)
    if step.is_message:
        result.text = ctx.render(step.text(phrasing))
        with transaction.atomic():
            message_send(conversation=world.conversation, text=result.text)
        model = _Scripted(provider, scripted_response(step.model, provider)) if step.model else None
        _drain(world, model or provider, result)
    elif step.click:
        _click(step.click, world=world, provider=provider, result=result)
    else:
        fixtures.edit(world, step)
    result.calls = [
        {"name": r.tool, "kind": r.kind, "status": r.status, "arguments": r.arguments}
        for r in ToolCallRecord.objects.filter(
            conversation=world.conversation, pk__gt=call_mark
        ).order_by("pk")
    ]
    after = fixtures.snapshot(world)
    result.checks = check_step(step, expect, result, world=world, changed=before != after)
    if step.is_message:
        result.exact = exact_match(expect, result)
    return result


def _render(ctx: Context, value: Any) -> Any:
    if isinstance(value, CallSpec):
        return replace(value, args=ctx.render(value.args))
    if isinstance(value, list):
        return [_render(ctx, v) for v in value]
    return ctx.render(value)


def _last_pk(queryset) -> int:
    return queryset.order_by("-pk").values_list("pk", flat=True).first() or 0


def _drain(world: fixtures.World, provider: Any, result: StepResult) -> None:
    """Answer every reply waiting in the conversation, oldest first, as the worker would."""
    for _ in range(MAX_REPLIES_PER_STEP):
        placeholder = (
            Message.objects.filter(
                conversation=world.conversation,
                role=Message.Role.ASSISTANT,
                status=Message.Status.PENDING,
            )
            .order_by("pk")
            .first()
        )
        if placeholder is None:
            return
        started = time.monotonic()
        run_turn(placeholder=placeholder, provider=provider)
        turn_ms = int((time.monotonic() - started) * 1000)
        placeholder.refresh_from_db()
        result.replies.append(
            Reply(
                status=placeholder.status,
                content=placeholder.content,
                error_code=placeholder.error_code,
                prompt_tokens=placeholder.prompt_tokens or 0,
                completion_tokens=placeholder.completion_tokens or 0,
                model_latency_ms=placeholder.latency_ms or 0,
                turn_ms=turn_ms,
                model_calls=len(placeholder.steps or []) + 1 if placeholder.provider else 0,
            )
        )


def _click(click: str, *, world: fixtures.World, provider: Provider, result: StepResult) -> None:
    batch = proposals.open_batch(conversation=world.conversation)
    if batch is None:
        result.outcomes.append("no_open_card")
        return
    decide = proposals.apply if click == "apply" else proposals.cancel
    decision = decide(batch_id=batch.pk, user=world.athlete, revision=batch.revision)
    result.outcomes.append(decision.outcome)
    if decision.outcome == "stale" and click == "apply":
        # The card now shows the fresh preview; the athlete reads it and clicks again.
        batch.refresh_from_db()
        decision = decide(batch_id=batch.pk, user=world.athlete, revision=batch.revision)
        result.outcomes.append(decision.outcome)
    _drain(world, provider, result)
