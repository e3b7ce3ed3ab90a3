"""A long conversation written straight to the database, for ``bench_tokens`` and the budget's
tests: exchanges of an athlete's question and the coach's answer, every ``read_every``-th with a
``get_week`` round (its real result), every ``propose_every``-th proposing a change that is
answered "awaiting confirmation". No model, no task: rows only."""

from __future__ import annotations

from django.utils import timezone

from chat.models import Conversation, Message
from chat.proposals import AWAITING_CONFIRMATION
from coach.plan import plan

QUESTION = "How should my squat feel in week {n}? My knees were a bit sore after the last session."
ANSWER = (
    "Week {n}: keep the squat at a weight you could lift two more times, and stop a set early if "
    "your knees ache. Sore knees after squats usually settle with a warm-up and a slower descent.\n"
    "---\nShow me week {n}\nMake it easier"
)
RENAME = {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 1, "updates": {"name": "Squat"}}


def build_history(
    *, conversation: Conversation, messages: int, read_every: int = 5, propose_every: int = 7
) -> int:
    """Add about ``messages`` messages (never more) to ``conversation``; returns how many."""
    week_text = plan().week_text(conversation.program, position=1, today=timezone.localdate())
    week_text = week_text or "no weeks"
    rows: list[Message] = []
    proposals: list[tuple[Message, str]] = []
    n = 0
    while len(rows) + len(proposals) + 2 <= messages:
        n += 1
        rows.append(
            Message(
                conversation=conversation,
                role=Message.Role.USER,
                content=QUESTION.format(n=n),
                status=Message.Status.COMPLETE,
            )
        )
        reply = Message(
            conversation=conversation,
            role=Message.Role.ASSISTANT,
            content=ANSWER.format(n=n).split("\n---")[0],
            llm_content=ANSWER.format(n=n),
            status=Message.Status.COMPLETE,
            suggested_replies=[f"Show me week {n}", "Make it easier"],
        )
        if n % read_every == 0:
            call_id = f"read_{n}"
            reply.steps = [
                {
                    "text": "",
                    "tool_calls": [
                        {"id": call_id, "name": "get_week", "arguments": {"weekNumber": 1}}
                    ],
                    "results": [{"tool_call_id": call_id, "content": week_text, "is_error": False}],
                }
            ]
        if n % propose_every == 0 and len(rows) + len(proposals) + 3 <= messages:
            call_id = f"write_{n}"
            reply.tool_calls = [{"id": call_id, "name": "modify_exercise", "arguments": RENAME}]
            proposals.append((reply, call_id))
        rows.append(reply)
    Message.objects.bulk_create(rows, batch_size=1000)
    Message.objects.bulk_create(
        (
            Message(
                conversation=conversation,
                role=Message.Role.TOOL,
                content=AWAITING_CONFIRMATION,
                tool_call_id=call_id,
                reply_to=reply,
                status=Message.Status.COMPLETE,
            )
            for reply, call_id in proposals
        ),
        batch_size=1000,
    )
    return len(rows) + len(proposals)
