"""realign_plan and lighten_plan: seed 003's realignment for the model and the offline coach.

Each runs the calls ``training.plan_adjust`` builds (a ``reschedule_workout`` push; ``modify_exercise``
and ``modify_session`` calls) through those tools' own executors, in order, inside the engine's
transaction: the card shows every change they make (each date before → after; sets, loads and
cardio minutes before → after) and undo reverts them as one revision. The chat's buttons propose the
underlying calls themselves, one item each, so the athlete can edit or remove any of them.
"""

from __future__ import annotations

from pydantic import Field, ValidationError

from coach import registry
from coach.schemas import StrictModel
from coach.tools.base import Outcome, ToolContext, ToolSpec, ToolStateError, no_target, worded
from training.services import athlete_today, profile_for

from ..plan_adjust import MAX_DAYS, MIN_DAYS, PlanAdjustError, lighter_calls, realign_calls


def _step(name: str):
    """A realignment or a lightening is made of tool calls (``reschedule_workout``, and the
    program's ``modify_exercise`` and ``modify_session``): each runs as its declaration says,
    found through the registry, so the program family is not imported (a family reaches another's
    tools as the engine does)."""
    spec = registry.get_tool(name)
    return spec.args_model, spec.execute


class RealignArgs(StrictModel):
    pass


class LightenArgs(StrictModel):
    days: int = Field(strict=True, ge=MIN_DAYS, le=MAX_DAYS, description="Today and the next days")


def _today(ctx: ToolContext):
    return athlete_today(profile=profile_for(athlete=ctx.athlete))


def _run(ctx: ToolContext, calls) -> Outcome:
    details, warnings, summaries = [], [], []
    for call in calls:
        args_model, execute = _step(call.name)
        try:
            args = args_model.model_validate(call.arguments)
        except ValidationError as exc:  # built by us; a program value the schema refuses
            raise ToolStateError(
                "VALIDATION_ERROR", f"{call.name}: {exc.errors()[0]['msg']}"
            ) from exc
        outcome = worded(execute(ctx=ctx, args=args))  # a modify's data, worded as the engine does
        details.extend(outcome.details)
        warnings.extend(outcome.warnings)
        summaries.append(outcome.summary)
    return Outcome(summary=" ".join(summaries), details=details, warnings=warnings)


def _refused(exc: PlanAdjustError) -> ToolStateError:
    return ToolStateError("VALIDATION_ERROR", str(exc), exc.field)


def realign_plan(*, ctx: ToolContext, args: RealignArgs) -> Outcome:
    try:
        calls = realign_calls(program_id=ctx.program_id, today=_today(ctx))
    except PlanAdjustError as exc:
        raise _refused(exc) from exc
    outcome = _run(ctx, calls)
    outcome.summary = f"Realigned the plan to start from today. {outcome.summary}"
    return outcome


def lighten_plan(*, ctx: ToolContext, args: LightenArgs) -> Outcome:
    try:
        calls = lighter_calls(program_id=ctx.program_id, today=_today(ctx), days=args.days)
    except PlanAdjustError as exc:
        raise _refused(exc) from exc
    outcome = _run(ctx, calls)
    outcome.summary = (
        f"Lighter next {args.days} days: fewer sets, lower loads, shorter cardio "
        f"({len(calls)} change{'s' if len(calls) != 1 else ''})."
    )
    return outcome


SPECS = [
    ToolSpec(
        name="realign_plan",
        description="After missed sessions: push the first missed one and everything after it "
        "so the plan restarts today.",
        args_model=RealignArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="medium",
        category="schedule",
        display_name="Realign my plan",
        safety_rules=("Completed sessions never move; nothing moves past the program's end.",),
        execute=realign_plan,
        target=no_target,
    ),
    ToolSpec(
        name="lighten_plan",
        description="Athlete not feeling 100%: fewer sets, lower loads, shorter cardio for the "
        "next N days.",
        args_model=LightenArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="schedule",
        display_name="Lighter days",
        execute=lighten_plan,
        target=no_target,
    ),
]
