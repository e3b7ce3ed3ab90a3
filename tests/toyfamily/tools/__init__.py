"""The toy family's tools: ``toy_ping`` reads the athlete's first name, ``toy_rename`` changes it
(written through the undo journal, so the engine's generic undo puts it back). Nothing outside
this folder names them."""

from __future__ import annotations

from pydantic import Field

from coach.schemas import StrictModel
from coach.tools.base import Outcome, ToolContext, ToolSpec, detail, no_target, quote
from journal import services as journal


class PingArgs(StrictModel):
    pass


class RenameArgs(StrictModel):
    name: str = Field(min_length=1, max_length=30, description="The athlete's new first name.")


def toy_ping(*, ctx: ToolContext, args: PingArgs) -> Outcome:
    name = ctx.athlete.first_name or "(no first name)"
    return Outcome(summary=f"Toy pong: {quote(name)}.", spoken=f"Pong, {name}.")


def toy_rename(*, ctx: ToolContext, args: RenameArgs) -> Outcome:
    athlete = ctx.athlete
    before = athlete.first_name
    athlete.first_name = args.name
    athlete.save(update_fields=["first_name"])
    journal.updated(athlete, {"first_name": before})
    return Outcome(
        summary=f"Toy renamed {quote(before)} to {quote(args.name)}.",
        details=[
            detail(
                type="modify",
                target="Toy name",
                fields=[{"field": "firstName", "oldValue": before, "newValue": args.name}],
            )
        ],
    )


TOOLS = (
    ToolSpec(
        name="toy_ping",
        description="Toy read: the athlete's first name.",
        args_model=PingArgs,
        kind="read",
        requires_confirmation=False,
        sensitivity="low",
        category="toy",
        display_name="Toy ping",
        needs_program=False,
        phrases=("who am I", "what is my name"),
        execute=toy_ping,
        target=no_target,
    ),
    ToolSpec(
        name="toy_rename",
        description="Toy write: change the athlete's first name.",
        args_model=RenameArgs,
        kind="write",
        requires_confirmation=True,
        sensitivity="low",
        category="toy",
        display_name="Toy rename",
        safety_rules=("Toy rule: only the name the athlete gives.",),
        needs_program=False,
        phrases=("call me {name}", "my name is {name}"),
        execute=toy_rename,
        target=no_target,
    ),
)
PURPOSES = {"toy": "a toy family that only the tests install"}
