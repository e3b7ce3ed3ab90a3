"""Seed 004's guardrails, checked before a write call is queued or written (pure: no database).

1. **Confidence.** A write call whose confidence is below ``CONFIDENCE_THRESHOLD`` (0.7) is not
   made: the coach asks the athlete instead. Text-format calls carry ``confidence`` beside the
   call; native calls may pass it as an argument (the wellness tools declare it). A call without
   one passes this check (most native calls never say).
2. **Stated, not inferred.** A high or critical tool with ``intent_words`` runs only when the
   athlete's latest message says one of them (``took``, ``taken``, ``had`` for
   ``log_medication``), not negated just before ("I haven't taken", "didn't take", "forgot").
   A turn that answers a decision (no athlete message) states nothing.
3. **Crisis.** A response that logs a ``crisis`` mood makes no other call: the others are refused
   with ``crisis_only`` and the conversation layer shows the deployment's fixed crisis message.

Parameter validation (schema, then state) is the engine's, as for every tool. Each refusal is a
``Refusal``: a reason code (data, stored in the audit log) and the ``ToolError`` the model reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .registry import get_tool
from .toolcalls import ToolCall, parse_confidence
from .tools.base import ToolError

CONFIDENCE_THRESHOLD = 0.7
_NEGATION = re.compile(
    r"\b(not|never|no|didn't|didnt|haven't|havent|hasn't|hadn't|forgot|forget|without|skipped)\b"
    r"(\W+\w+){0,2}\W*$",
    re.IGNORECASE,
)


class Reason(StrEnum):
    LOW_CONFIDENCE = "low_confidence"
    NOT_STATED = "not_stated"
    CRISIS_ONLY = "crisis_only"


@dataclass(frozen=True)
class Refusal:
    reason: Reason
    error: ToolError


def confidence_of(call: ToolCall) -> float | None:
    if call.confidence is not None:
        return call.confidence
    return parse_confidence(call.arguments.get("confidence")) if call.arguments else None


def states_intent(statement: str | None, words: tuple[str, ...]) -> bool:
    """One of ``words`` appears in ``statement`` as a word, not negated by the words just before."""
    if not statement:
        return False
    statement = statement.replace("\u2019", "'")
    for word in words:
        for match in re.finditer(rf"\b{re.escape(word)}\b", statement, re.IGNORECASE):
            if not _NEGATION.search(statement[: match.start()]):
                return True
    return False


def is_crisis(call: ToolCall) -> bool:
    return call.name == "log_mood" and call.arguments.get("mood") == "crisis"


def check(call: ToolCall, *, statement: str | None) -> Refusal | None:
    spec = get_tool(call.name)
    if spec is None or spec.kind != "write":
        return None
    confidence = confidence_of(call)
    if confidence is not None and confidence < CONFIDENCE_THRESHOLD:
        return Refusal(
            Reason.LOW_CONFIDENCE,
            ToolError(
                code="LOW_CONFIDENCE",
                message=f"Not made: confidence {confidence:g} is below {CONFIDENCE_THRESHOLD}. "
                "Ask the athlete what they want instead.",
            ),
        )
    stated = states_intent(statement, spec.intent_words)
    if spec.sensitivity in ("high", "critical") and spec.intent_words and not stated:
        words = ", ".join(spec.intent_words[:4])
        return Refusal(
            Reason.NOT_STATED,
            ToolError(
                code="NOT_STATED",
                message=f"Not made: {spec.name} needs the athlete's own statement in their "
                f"latest message (e.g. {words}); it is never inferred. Ask them.",
            ),
        )
    return None


def check_response(calls: list[ToolCall], *, statement: str | None) -> dict[str, Refusal]:
    """The refusals of one response's write calls, keyed by call id (empty: all may go on)."""
    refusals = {}
    crisis = any(is_crisis(c) for c in calls)
    for call in calls:
        if crisis and not is_crisis(call):
            refusals[call.id] = Refusal(
                Reason.CRISIS_ONLY,
                ToolError(
                    code="CRISIS_ONLY",
                    message="Not made: when the athlete is in crisis only the mood is logged.",
                ),
            )
        elif (refusal := check(call, statement=statement)) is not None:
            refusals[call.id] = refusal
    return refusals
