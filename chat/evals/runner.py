"""One run of one scenario through the product, and the checks of each step.

``run_once`` opens a transaction, builds the fixture (a fresh athlete), plays the steps and rolls
everything back, so a run leaves nothing behind and every run starts from the same state:

* a message is saved by ``chat.services.message_send`` (as the chat view does) and answered by
  ``chat.agent.run_turn`` in this process (as the Celery task does), with the provider given;
* a click is ``chat.proposals.apply`` / ``cancel`` with the revision the card showed (when Apply
  finds the plan changed, the athlete looks at the fresh preview and clicks once more, as the
  page asks); the reply that tells the model is run the same way;
* a coach edit changes the program with ``programs.services`` while the card is open.

What a step observed comes from the product's own records: the tool-call audit log
(``ToolCallRecord``: every call, read or write, with its status), the replies (``Message``: text,
status, tokens, model latency) and the program's export.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction

from coach.llm.base import LLMResponse, Provider, Turn, Usage
from coach.toolcalls import ToolCall
from library.models import LibraryWorkout
from programs import services
from programs.export import export_program
from programs.models import Exercise, Session
from training.models import Activity

from .. import proposals
from ..agent import run_turn
from ..models import Message, ToolCallRecord
from ..services import message_send
from . import fixtures
from .matchers import MISSING, call_matches, lookup, match_calls, matches
from .scenarios import CallSpec, Scenario, Step
from .templates import Context

QUEUED = ToolCallRecord.Status.PROPOSED
MAX_REPLIES_PER_STEP = 10


@dataclass
class Check:
    name: str
    passed: bool
    detail: str = ""


@dataclass
class Reply:
    status: str
    content: str
    error_code: str
    prompt_tokens: int
    completion_tokens: int
    model_latency_ms: int
    turn_ms: int
    model_calls: int


@dataclass
class StepResult:
    label: str
    text: str | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    exact: bool | None = None

    @property
    def queued(self) -> list[dict[str, Any]]:
        return [c for c in self.calls if c["kind"] == "write" and c["status"] == QUEUED]

    @property
    def reads(self) -> list[dict[str, Any]]:
        return [c for c in self.calls if c["kind"] == "read"]

    @property
    def reply_text(self) -> str:
        return "\n\n".join(r.content for r in self.replies)


@dataclass
class RunResult:
    steps: list[StepResult] = field(default_factory=list)
    error: str = ""
    wall_ms: int = 0

    @property
    def passed(self) -> bool:
        return not self.error and all(c.passed for s in self.steps for c in s.checks)

    @property
    def exact(self) -> bool:
        return not self.error and all(s.exact is not False for s in self.steps)

    @property
    def replies(self) -> list[Reply]:
        return [r for s in self.steps for r in s.replies]


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
    before = snapshot(world)
    if step.is_message:
        result.text = ctx.render(step.text(phrasing))
        with transaction.atomic():
            message_send(conversation=world.conversation, text=result.text)
        model = _Scripted(provider, scripted_response(step.model, provider)) if step.model else None
        _drain(world, model or provider, result)
    elif step.click:
        _click(step.click, world=world, provider=provider, result=result)
    else:
        _coach_edit(step, world=world)
    result.calls = [
        {"name": r.tool, "kind": r.kind, "status": r.status, "arguments": r.arguments}
        for r in ToolCallRecord.objects.filter(
            conversation=world.conversation, pk__gt=call_mark
        ).order_by("pk")
    ]
    after = snapshot(world)
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


def _coach_edit(step: Step, *, world: fixtures.World) -> None:
    week, session, position = (int(n) for n in step.ref.split("."))
    if step.coach == "remove_exercise":
        services.exercise_remove(
            exercise=Exercise.objects.get(
                session__week__program=world.program,
                session__week__position=week,
                session__position=session,
                position=position,
            )
        )
    else:
        services.exercise_insert(
            session=Session.objects.get(
                week__program=world.program, week__position=week, position=session
            ),
            position=position,
            name=step.name or "Barbell Row",
            working_sets=3,
            reps="8",
            target_load="95 lbs",
        )
    services.program_bump_version(program=world.program)


def snapshot(world: fixtures.World) -> tuple[Any, ...]:
    """What "nothing was written" compares: the program (every field of every session too), the
    athlete's library workouts and activities."""
    sessions = list(Session.objects.filter(week__program=world.program).order_by("pk").values())
    return (
        export_program(world.program),
        sessions,
        list(
            LibraryWorkout.all_objects.filter(owner=world.athlete)
            .order_by("pk")
            .values_list("pk", "updated_at")
        ),
        Activity.all_objects.filter(athlete=world.athlete).count(),
    )


# --- checks --------------------------------------------------------------------------------------


def check_step(
    step: Step, expect: dict[str, Any], result: StepResult, *, world: fixtures.World, changed: bool
) -> list[Check]:
    checks: list[Check] = []
    if step.is_message:
        detail = "the program, the library or the activities changed" if changed else ""
        checks.append(Check("no write without Apply", not changed, detail))
    for reply in result.replies:
        if reply.status != Message.Status.COMPLETE:
            checks.append(Check("reply completed", False, f"{reply.status} ({reply.error_code})"))
    if "calls" in expect:
        ok, why = match_calls(expect["calls"], result.queued, strict=False)
        checks.append(Check("tool calls proposed", ok, why))
    if "any_of" in expect:
        reasons = [match_calls(o, result.queued, strict=False) for o in expect["any_of"]]
        ok = any(r[0] for r in reasons)
        checks.append(Check("tool calls proposed (one of)", ok, " | ".join(r[1] for r in reasons)))
    for spec in expect.get("reads", []):  # each expected read ran (other reads are allowed)
        found = [call_matches(spec, c) for c in result.reads]
        ok = any(f[0] for f in found)
        detail = "" if ok else "; ".join(f[1] for f in found if f[1]) or "not run"
        checks.append(Check(f"read {spec.tool}", ok, detail))
    if expect.get("answered"):
        last = result.replies[-1] if result.replies else None
        ok = bool(last and last.status == Message.Status.COMPLETE and last.content.strip())
        ok = ok and not result.queued and not (last and last.error_code)
        checks.append(
            Check("answered without a proposal", ok, "" if ok else _why_not_answered(result))
        )
    if "refused" in expect:
        refused = expect["refused"]
        ok = not result.queued
        detail = "" if ok else f"queued {[c['name'] for c in result.queued]}"
        if ok and isinstance(refused, dict) and "reply" in refused:
            ok, detail = matches(result.reply_text, refused["reply"])
        checks.append(Check("refused with the real bounds", ok, detail))
    if "reply" in expect:
        ok, why = matches(result.reply_text, expect["reply"])
        checks.append(Check("reply", ok, why))
    if "pending" in expect:
        open_now = proposals.find_open(conversation=world.conversation) is not None
        checks.append(Check("card open", open_now == bool(expect["pending"]), f"open={open_now}"))
    if "outcome" in expect:
        final = result.outcomes[-1] if result.outcomes else "none"
        checks.append(
            Check("click outcome", final == expect["outcome"], " → ".join(result.outcomes))
        )
    if expect.get("acknowledged"):
        ok = bool(result.replies) and all(
            r.status == Message.Status.COMPLETE and r.content.strip() for r in result.replies
        )
        checks.append(
            Check("the model was told and answered", ok, f"{len(result.replies)} replies")
        )
    if "program" in expect:
        exported = export_program(world.program)
        for path, matcher in expect["program"].items():
            ok, why = matches(program_value(exported, path), matcher)
            checks.append(Check(f"program {path}", ok, why))
    return checks


def _why_not_answered(result: StepResult) -> str:
    if result.queued:
        return f"proposed {[c['name'] for c in result.queued]}"
    if not result.replies:
        return "no reply"
    last = result.replies[-1]
    return f"{last.status} {last.error_code}".strip() or "empty reply"


def exact_match(expect: dict[str, Any], result: StepResult) -> bool:
    """The strict tool-call match of a message step: the queued writes are one of the expected
    lists one for one, in order, and the reads that ran are exactly the expected reads."""
    options = expect.get("any_of") or [expect.get("calls", [])]
    writes = any(match_calls(o, result.queued, strict=True)[0] for o in options)
    reads = match_calls(expect.get("reads", []), result.reads, strict=True)[0]
    return writes and reads


def program_value(exported: dict[str, Any], path: str) -> Any:
    """``1.2.3.name`` is week 1, session 2, exercise 3's name (numbers from 1); other paths are
    looked up in the export as they are (``weeks.length``)."""
    parts = path.split(".")
    value: Any = exported
    for level in ("weeks", "sessions", "exercises"):
        if not parts or not parts[0].isdigit():
            break
        items = value.get(level) if isinstance(value, dict) else None
        index = int(parts.pop(0)) - 1
        if not isinstance(items, list) or not 0 <= index < len(items):
            return MISSING
        value = items[index]
    return lookup(value, ".".join(parts)) if parts else value
