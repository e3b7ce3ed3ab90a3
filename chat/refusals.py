"""What the athlete reads when something goes wrong in a turn: provider failures, the step limit,
and proposals that were refused (seed 000, Phase 5). Written in the athlete's words; the model's
own words about a refused change are not shown, since that change will never be on a card."""

from __future__ import annotations

from coach import engine
from coach.registry import get_tool
from coach.toolcalls import ToolCall
from coach.wording import athlete_words

TRY_AGAIN = "Try again"
PROPOSAL_FALLBACK_TEXT = (
    "Here's what I'd change. Check the preview, then click Apply Changes if it looks right."
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
LOST = "The coach's answer got lost on the way. Nothing was changed; click Retry to ask again."
OVERDUE = "The coach is taking too long to answer. Nothing was changed; click Retry to ask again."
BROKER_DOWN = (
    "The coach is unreachable right now; your message is saved and will be answered when it's back."
)

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


def too_many_calls_message(count: int, limit: int) -> str:
    return (
        f"I tried to make {count:,} changes and lookups for this one message, and I can make at "
        f"most {limit:,} per message, so I didn't run or queue any of them. Nothing was changed. "
        "Could you ask for fewer changes at a time (for example, one week at a time)?"
    )


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
    message = athlete_words(first.message)  # the model keeps the precise field names
    several = len(writes) > 1
    if first.code == "PARSE_ERROR":
        text = "I had trouble understanding that request. Can you rephrase what you'd like me to change?"
        replies = ["Start over", "Show me my workouts"]
    elif first.code == "UNKNOWN_TOOL":
        text = "I tried to make a kind of change I can't make. Can you rephrase what you'd like me to change?"
        replies = ["Start over", "Show me my workouts"]
    elif first.code == "LOW_CONFIDENCE":
        text = (
            "I wasn't sure that's what you meant, so I didn't do it. Could you tell me exactly "
            "what you'd like?"
        )
        replies = ["Never mind"]
    elif first.code == "NOT_STATED":
        spec = get_tool(first_call.name)
        what = spec.label.lower() if spec is not None else "that"
        example = spec.stated_example if spec is not None else ""
        text = (
            f'I only {what} when you tell me so in your own words (for example "{example}"); '
            "I never guess it. Could you tell me what happened?"
            if example
            else f"I only {what} when you tell me what happened in your own words; I never guess "
            "it. Could you tell me?"
        )
        replies = ["Never mind"]
    elif first.code == "NOT_FOUND":
        text = f"I couldn't make that change because {_lower_first(message)}"
        replies = ["Try a different exercise", "Show me the session", "Never mind"]
    elif first.code == "VALIDATION_ERROR" and message.endswith("is required."):
        text = f"I need more information to make that change: {_lower_first(message)}"
        replies = ["Show me the session", "Never mind"]
    else:
        text = f"I couldn't make that change: {message}"
        replies = ["Try something different", "Show me the session", "Never mind"]
    if several:
        text += (
            f" None of the {len(writes)} changes were queued, since they were meant to go together."
        )
    text += " Nothing was changed."
    return text, replies
