"""The suggested replies the app offers the athlete, understood by the offline coach.

Every suggested reply the code can produce (``chat.refusals``, the agent's failure replies and the
offline coach's own) is a chip the athlete may click, so each gets a useful answer, never "I didn't
understand". The ones about the pending batch are answered here, from the batch as data
(``coach.llm.base.Pending``, never the system prompt's prose):

- "What does this change?": each pending change, by its tool's label and its preview's line.
- "Never mind", "Start over": nothing changes; how to discard what is pending.
- "Try again": the athlete's previous message, once more.

The others ("Show my program", "Show me the session", "Try a different exercise", ...) are a
family's: each family's ``Commands.answer`` is asked in turn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from coach.llm.base import Pending, Turn
from coach.registry import REGISTRY
from coach.wording import athlete_words

from .families import declared
from .grammar import ReplyAnswer, with_replies

_WHAT_CHANGES = re.compile(
    r"what (does|will) (this|that|it) change|what changes|explain (this|that)", re.I
)
_NEVER_MIND = re.compile(r"never ?mind|forget (it|that)|start over|no thanks?|cancel", re.I)
_TRY_AGAIN = re.compile(r"try (it )?again|retry|again", re.I)
_PATTERNS = (_WHAT_CHANGES, _NEVER_MIND, _TRY_AGAIN)


def _bare(message: str) -> str:
    return message.strip().rstrip(".!?").strip()


def _family_answer(text: str, turns: Sequence[Turn]) -> ReplyAnswer | None:
    for family in declared():
        if family.answer is not None and (found := family.answer(text, turns)) is not None:
            return found
    return None


def _is_reply(text: str, turns: Sequence[Turn]) -> bool:
    return any(p.fullmatch(text) for p in _PATTERNS) or _family_answer(text, turns) is not None


def _previous_message(turns: Sequence[Turn]) -> str:
    users = [t for t in turns if t.role == "user" and (t.athlete_text or t.content or "").strip()]
    for turn in reversed(users[:-1]):
        text = (turn.athlete_text if turn.athlete_text is not None else turn.content).strip()
        if text and not _is_reply(_bare(text), turns):
            return text
    return ""


def answer_reply(
    message: str, *, turns: Sequence[Turn], pending: Pending | None = None
) -> ReplyAnswer | None:
    """The answer to ``message`` when it is one of the suggested replies, else None."""
    text = _bare(message)
    if _WHAT_CHANGES.fullmatch(text):
        return ReplyAnswer(text=_pending_text(pending))
    if _NEVER_MIND.fullmatch(text):
        return ReplyAnswer(
            text=with_replies(
                "No problem, I won't change anything."
                + (
                    " To discard the changes waiting in the preview, press Cancel."
                    if pending is not None and pending.calls
                    else ""
                ),
                ["Show my program", "help"],
            )
        )
    if _TRY_AGAIN.fullmatch(text):
        previous = _previous_message(turns)
        if previous:
            return ReplyAnswer(retry=previous)
        return ReplyAnswer(
            text=with_replies("There's nothing to try again yet: tell me what to change.", ["help"])
        )
    return _family_answer(text, turns)


def _pending_text(pending: Pending | None) -> str:
    if pending is None or not pending.calls:
        return with_replies(
            "Nothing is waiting for you right now: no change is proposed.",
            ["Show my program", "help"],
        )
    changes = []
    for call in pending.calls:
        spec = REGISTRY.get(call.name)
        label = spec.label if spec is not None else "A change"
        changes.append(f"- {label}" + (f": {athlete_words(call.summary)}" if call.summary else ""))
    problem = pending.problem
    text = (
        "The preview card lists each proposed change with its before → after.\n"
        + "\n".join(changes)
        + "\n"
        + (f"It can't be applied as it is: {problem} " if problem else "")
        + "Nothing changes until you press Apply Changes; Cancel discards them, and you can edit "
        "or remove each item on the card first."
    )
    return with_replies(text, ["help"])
