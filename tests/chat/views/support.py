"""What the chat page's view tests share besides fixtures (those are in ``conftest.py``): the
``HX`` header, and helpers that open a batch of rename calls and read the first exercise back."""

from __future__ import annotations

from chat.models import PendingToolBatch
from coach.engine import ToolContext, preview_calls
from coach.toolcalls import ToolCall
from programs.models import Exercise

HX = {"HX-Request": "true"}


def rename_call(name: str, *, exercise: int = 1, call_id: str = "call_rename") -> ToolCall:
    return ToolCall(
        id=call_id,
        name="modify_exercise",
        arguments={
            "weekNumber": 1,
            "sessionNumber": 1,
            "exerciseNumber": exercise,
            "updates": {"name": name},
        },
    )


def make_batch(conversation, calls: list[ToolCall]) -> PendingToolBatch:
    """An open batch as the agent leaves it: the calls, previewed on the current program."""
    program = conversation.program
    program.refresh_from_db()
    result = preview_calls(ctx=ToolContext.for_program(program), calls=calls)
    return PendingToolBatch.objects.create(
        conversation=conversation,
        calls=[call.to_dict() for call in calls],
        preview=result.preview,
        results=[r.to_dict() for r in result.results],
        program_version=program.version,
    )


def first_exercise(program) -> Exercise:
    return Exercise.objects.get(
        session__week__program=program, session__week__position=1, session__position=1, position=1
    )
