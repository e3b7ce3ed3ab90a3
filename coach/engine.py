"""The executor: checks tool calls (schema layer, then state layer), runs them in order on the
database through the families' services, and previews them by running the very same code inside a
transaction that is rolled back.

Rules:

* Calls run in the order given, each seeing the state the previous successful calls left (seed
  000, Phase 7: removing the first exercise, then adding one at position 1, replaces it).
* A batch is all or nothing. When a call fails, the later calls are still checked and run against
  the state so far (the failed call changed nothing), so every call gets its own result; then the
  whole transaction is rolled back. A call's ``success`` means it was valid at its place in the
  sequence; nothing is written unless every call succeeds.
* Bad input never raises: a missing tool is ``UNKNOWN_TOOL``, arguments that are not a JSON
  object are ``PARSE_ERROR``, schema problems are ``VALIDATION_ERROR`` with a dotted ``field``,
  references that don't exist are ``NOT_FOUND``. An unexpected database error while executing a
  valid call is ``EXECUTION_ERROR`` (that call is rolled back to its savepoint, the batch fails).
* ``apply_calls`` locks the context's plan row (the program) and refuses a stale
  ``expected_version`` with ``STALE`` on every call. The services bump the version themselves, on
  every change. How to lock, read and record the plan is the declaration of the family that
  provides it (``PLAN``'s ``lock``, ``version`` and ``recording``, held by ``coach.plan.held``):
  the engine names no family.
* An apply is one change set of the journal (``journal.capture``): the writes journaled by the
  services and, when the caller names ``via``, the family's own record of what the batch changed
  (the program's revision, recorded by the plan's ``recording``, which also locks the row, as a
  part of that change set).
* Tools get a ``ToolContext`` (athlete, program, acting user), never a request or a conversation:
  the engine knows nothing of the conversation layer.

Each call costs a constant number of queries: targets are found by position with joins, never by
loading the program.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db import DatabaseError, transaction
from pydantic import BaseModel, ValidationError

from journal import services as journal

from . import rules, whatif
from .plan import held
from .preview import build_preview, conflict_warnings
from .registry import REGISTRY, ToolSpec, get_tool
from .toolcalls import ToolCall
from .tools.base import FieldUpdate, Outcome, ToolContext, ToolError, ToolStateError, worded
from .validation import validation_errors
from .vocabulary import plural

__all__ = [
    "BatchResult",
    "CallResult",
    "ToolContext",
    "ToolError",
    "apply_batch",
    "apply_calls",
    "check_call",
    "preview_calls",
]

logger = logging.getLogger(__name__)


@dataclass
class CallResult:
    tool_call_id: str
    name: str
    success: bool
    errors: list[ToolError] = field(default_factory=list)
    summary: str = ""
    spoken: str = ""  # a read's result in words for a person (``Outcome.spoken``)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tool_call_id": self.tool_call_id,
            "name": self.name,
            "success": self.success,
            "errors": [e.to_dict() for e in self.errors],
            "summary": self.summary,
        } | ({"spoken": self.spoken} if self.spoken else {})


@dataclass
class BatchResult:
    success: bool
    results: list[CallResult]
    preview: dict[str, Any]
    program_version: int
    change_set_id: int | None = None  # the journal's change set of an apply (None: none written)
    # The results as plain data (what a batch stores), whether the version refused them (STALE),
    # and the calls as run: the caller reads these rather than calling back into the engine.
    result_data: list[dict[str, Any]] = field(default_factory=list)
    stale: bool = False
    calls: list[ToolCall] = field(default_factory=list)
    # The calls counted in words ("2 changes"), as ``apply_batch`` words its summary: the
    # conversation's line about the decision uses it rather than calling back for a plural.
    counted: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "results": [r.to_dict() for r in self.results],
            "preview": self.preview,
            "program_version": self.program_version,
            "change_set_id": self.change_set_id,
        }


# --- schema layer -------------------------------------------------------------------------------


def check_call(call: ToolCall) -> tuple[BaseModel | None, list[ToolError]]:
    """The schema layer only (no database): returns the parsed arguments or the errors."""
    spec = get_tool(call.name)
    if spec is None:
        available = ", ".join(sorted(REGISTRY))
        shown = call.name or "(no name)"
        return None, [
            ToolError(
                code="UNKNOWN_TOOL",
                message=f"There is no tool called {shown!r}. Available tools: {available}.",
            )
        ]
    if call.arguments_error is not None:
        return None, [
            ToolError(
                code="PARSE_ERROR",
                message=f"I couldn't read the arguments of {call.name}: {call.arguments_error}",
            )
        ]
    try:
        return spec.args_model.model_validate(call.arguments), []
    except ValidationError as exc:
        return None, validation_errors(exc, spec.args_model)


# --- running ------------------------------------------------------------------------------------


class _Step(NamedTuple):
    """One call as run: its conflict target and either what its executor returned (as returned:
    an ``Outcome``, or a ``FieldUpdate`` still to be worded) or its errors."""

    call: ToolCall
    target: str
    result: Outcome | FieldUpdate | None
    errors: list[ToolError]


@dataclass
class _Run:
    """The calls as run, in order. Nothing is worded while the transaction is open: ``_batch``
    words every result once, after the run (and, for an apply, after the plan's recording has
    closed), so the last thing an executor does, its write, is the run's last step."""

    steps: list[_Step] = field(default_factory=list)
    success: bool = True


def _run_one(*, ctx: ToolContext, call: ToolCall) -> _Step:
    """One call: its executor's result or its errors, and its conflict target."""
    args, errors = check_call(call)
    if args is None:
        return _Step(call, "", None, errors)
    spec: ToolSpec = REGISTRY[call.name]
    if spec.kind != "write":
        errors = [
            ToolError(
                code="VALIDATION_ERROR",
                message=f"{call.name} only reads; it is never part of a batch of changes.",
            )
        ]
        return _Step(call, "", None, errors)
    target = spec.target(args)
    try:
        with transaction.atomic():
            result = spec.execute(ctx=ctx, args=args)
    except ToolStateError as exc:
        return _Step(call, target, None, [exc.error])
    except DatabaseError:
        logger.exception("Tool %s failed while executing", call.name)
        errors = [
            ToolError(
                code="EXECUTION_ERROR",
                message=f"Something went wrong while running {call.name}; nothing was changed.",
            )
        ]
        return _Step(call, target, None, errors)
    return _Step(call, target, result, [])


def _failure_summary(errors: list[ToolError]) -> str:
    return " ".join(e.message for e in errors)


def _run(*, ctx: ToolContext, calls: list[ToolCall]) -> _Run:
    run = _Run()
    for call in calls:
        step = _run_one(ctx=ctx, call=call)
        run.steps.append(step)
        run.success = run.success and step.result is not None
    return run


def _results(
    run: _Run,
) -> tuple[list[CallResult], list[dict[str, Any]], list[str]]:
    """The run in words, made here once: each call's result, the preview's details (each marked
    with its call's id) and the warnings (conflicting targets first, then the executors')."""
    results: list[CallResult] = []
    details: list[dict[str, Any]] = []
    warnings: list[str] = []
    for call, _, result, errors in run.steps:
        if result is None:
            results.append(CallResult(call.id, call.name, False, errors, _failure_summary(errors)))
            continue
        outcome = worded(result)
        results.append(
            CallResult(call.id, call.name, True, [], outcome.summary, spoken=outcome.spoken)
        )
        details.extend({**d, "toolCallId": call.id} for d in outcome.details)
        warnings.extend(outcome.warnings)
    return results, details, conflict_warnings([step.target for step in run.steps]) + warnings


def _batch(run: _Run, *, total: int, version: int) -> BatchResult:
    results, details, warnings = _results(run)
    failed = sum(1 for r in results if not r.success)
    return BatchResult(
        success=run.success,
        results=results,
        preview=build_preview(details=details, warnings=warnings, failed=failed, total=total),
        program_version=version,
        result_data=[r.to_dict() for r in results],
        stale=any(e.code == "STALE" for r in results for e in r.errors),
    )


class _Rollback(Exception):
    def __init__(self, run: _Run, after: dict | None = None, warned: list | None = None) -> None:
        super().__init__("rolled back")
        self.run = run
        self.after = after
        self.warned = warned or []


def preview_calls(*, ctx: ToolContext, calls: list[ToolCall]) -> BatchResult:
    """Dry run: the same executor on the same state, in order, then everything is rolled back.

    When the change moves the projected Form (or fitness, fatigue) on the plan's key dates, the
    preview carries ``whatif`` (``coach.whatif``): read before the run and inside it, before the
    rollback. The families' rules (``coach.rules``) are read the same way: their warnings join
    the preview's."""
    version = _version(ctx)
    dates = whatif.key_dates(ctx)
    before = whatif.projection(ctx, dates)
    checked = rules.before(ctx)
    try:
        with transaction.atomic():
            run = _run(ctx=ctx, calls=calls)
            changed = run.success and any(worded(step.result).details for step in run.steps)
            after = whatif.projection(ctx, dates) if changed else {}
            raise _Rollback(run, after, rules.warnings(ctx, checked) if changed else [])
    except _Rollback as done:
        run, after = done.run, done.after or {}
        warned = done.warned
    batch = _batch(run, total=len(calls), version=version)
    batch.preview["warnings"].extend(warned)
    if rows := whatif.rows(dates, before, after):
        batch.preview["whatif"] = rows  # a projection: the preview's alone, never an apply's
    return batch


def _version(ctx: ToolContext) -> int:
    plan = held()
    if ctx.program is None or plan is None:
        return 0
    return plan.version(ctx.program)


def apply_batch(
    *,
    athlete: Any,
    program: Any,
    user: Any,
    calls: list[dict[str, Any]],
    version: int | None,
    via: str,
    source: str = "",
) -> BatchResult:
    """The lifecycle's one call to apply a batch: its calls as stored (raw dicts), the version
    it was previewed on (binding only when a call needs the program: a batch of athlete-scoped
    calls, a grocery push, is not held up by a program change; an unknown tool binds, to be
    safe), recorded ``via`` with a summary the registry words ("2 changes from the chat: ...");
    the result carries the count in words (``counted``) and the rest as plain data."""
    parsed = [ToolCall.from_raw(raw) for raw in calls]
    specs = [get_tool(call.name) for call in parsed]
    bound = any(spec is None or spec.needs_program for spec in specs)
    labels = list(dict.fromkeys(spec.label if spec else "a change" for spec in specs))
    counted = plural(len(parsed), "change")
    summary = f"{counted} from the {via}: {', '.join(labels)}"[:500]
    batch = apply_calls(
        ctx=ToolContext(athlete=athlete, program=program, user=user),
        calls=parsed,
        expected_version=version if bound else None,
        via=via,
        summary=summary,
        source=source,
    )
    batch.counted = counted
    return batch


def apply_calls(
    *,
    ctx: ToolContext,
    calls: list[ToolCall],
    expected_version: int | None = None,
    via: str = "",
    summary: str = "",
    source: str = "",
) -> BatchResult:
    """Run every call in order in one transaction with the plan's row locked; write only if all
    succeed. Each service bumps the version itself; the result carries the version after the run
    (also set on ``ctx.program``) and the id of the journal's change set holding the apply
    (``journal.capture``; None when nothing was recorded). With ``via`` (how the change came, e.g.
    "chat"), the plan's family records what the calls changed (``summary``, ``source``) as a part
    of that change set, its ``recording`` locking the row as it starts; without ``via`` the row is
    only locked and the caller records it (the command line does)."""
    plan = held() if ctx.program is not None else None
    recorded = plan is not None and bool(via)
    summary = summary or ", ".join(call.name for call in calls)
    try:
        with (
            transaction.atomic(),
            journal.capture(athlete=ctx.athlete, summary=summary) as captured,
            # One call into the family's data layer: the recording locks the row as it starts.
            (
                plan.recording(ctx.program, actor=ctx.user, via=via, summary=summary, source=source)
                if recorded
                else contextlib.nullcontext(plan.lock(ctx.program) if plan is not None else None)
            ) as held_plan,
        ):
            current = held_plan.version if held_plan is not None else 0
            if expected_version is not None and current != expected_version:
                raise _Rollback(_stale(calls, current=current, expected=expected_version))
            run = _run(ctx=ctx, calls=calls)
            if not run.success:
                raise _Rollback(run)
    except _Rollback as failed:
        return _batch(failed.run, total=len(calls), version=_version(ctx))
    # A recording that wrote a revision settled the version (one step past the one before);
    # otherwise the services bumped it in the database, so it is read back.
    version = held_plan.version if recorded and held_plan.revision is not None else _version(ctx)
    if ctx.program is not None:
        ctx.program.version = version
    batch = _batch(run, total=len(calls), version=version)
    batch.change_set_id = captured.change_set_id
    batch.calls = calls
    return batch


def execute_read(*, ctx: ToolContext, call: ToolCall) -> CallResult:
    """Run one read tool now (the agent loop does, without asking the athlete). The summary is the
    data for the model. Anything but a read tool is refused, and the transaction is rolled back
    whatever happens, so a read can never write."""
    args, errors = check_call(call)
    if args is None:
        return CallResult(call.id, call.name, False, errors, _failure_summary(errors))
    spec = REGISTRY[call.name]
    if spec.kind != "read":
        errors = [
            ToolError(
                code="PERMISSION_DENIED",
                message=f"{call.name} makes a change, so it needs the athlete's confirmation.",
            )
        ]
        return CallResult(call.id, call.name, False, errors, _failure_summary(errors))
    try:
        with transaction.atomic():
            outcome = worded(spec.execute(ctx=ctx, args=args))
            transaction.set_rollback(True)
    except ToolStateError as exc:
        return CallResult(call.id, call.name, False, [exc.error], exc.error.message)
    return CallResult(call.id, call.name, True, [], outcome.summary, spoken=outcome.spoken)


def _stale(calls: list[ToolCall], *, current: int, expected: int) -> _Run:
    error = ToolError(
        code="STALE",
        message=(
            f"The program changed since this was previewed (version {expected}, now {current}); "
            "preview the changes again before applying them."
        ),
    )
    return _Run(steps=[_Step(call, "", None, [error]) for call in calls], success=False)
