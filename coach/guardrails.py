"""Seed 004's guardrails, checked before a write call is queued or written (pure: no database).
They read what each tool declares (``ToolSpec``) and name no tool and no family.

1. **Confidence.** A write call whose confidence is below ``CONFIDENCE_THRESHOLD`` (0.7) is not
   made: the coach asks the athlete instead. Text-format calls carry ``confidence`` beside the
   call; native calls may pass it as an argument (a tool may declare it). A call without one
   passes this check (most native calls never say).
2. **Stated, not inferred.** A high or critical tool with ``intent_words`` runs only when the
   athlete's latest message says one of them (say ``took``, ``taken``, ``had`` for a dose) as a
   statement: not negated just before ("I haven't taken", "didn't take", "forgot"), not a plan or
   a wish ("I should have taken", "if I had"), not in a question ("should I have taken
   ibuprofen?"). A tool that declares ``intent_objects`` also needs the word's object to be what
   the call logs: for a dose, the medication's name, a word such as "pills" or a dose within the
   few words after it ("I took my aspirin", "took 400 mg ibuprofen") — "I had a headache" states
   a symptom, not a dose. A turn that answers a decision (no athlete message) states nothing.
3. **Crisis.** A call its tool's ``crisis`` declaration says reports a crisis (a mood logged as
   ``crisis``) is the response's only call: the others are refused with ``crisis_only``, and the
   conversation layer shows the fixed reply the declaration gives (``crisis_reply``).

Parameter validation (schema, then state) is the engine's, as for every tool. Each refusal is a
``Refusal``: a reason code (data, stored in the audit log) and the ``ToolError`` the model reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from .registry import get_tool
from .toolcalls import ToolCall, parse_confidence
from .tools.base import ToolError

CONFIDENCE_THRESHOLD = 0.7
_NEGATION = re.compile(
    r"\b(not|never|no|didn't|didnt|haven't|havent|hasn't|hadn't|forgot|forget|without|skipped"
    # a plan, a wish or a condition states nothing either
    r"|should|would|could|might|may|will|shall|if|whether|gonna|going|want|wanna|plan|planning)\b"
    r"(\W+\w+){0,2}\W*$",
    re.IGNORECASE,
)
# A sentence ends at . ! ? or ; before a space (not inside "2.5 mg"), or at a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[\w'-]+")
# The object of an intent word is among the few words of its clause around it; these end a clause
# ("I had a headache and ibuprofen helps": the words near "had" are "I" and "a headache").
_OBJECT_WORDS = 4
_CLAUSE_END = re.compile(
    r"[,:(]|\b(and|but|so|then|because|after|before|when|while|with|for|since|until|or|at|on|in)\b",
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


def states_intent(
    statement: str | None, words: tuple[str, ...], objects: Callable[[str], bool] | None = None
) -> bool:
    """One of ``words`` appears in ``statement`` as a word, in a sentence that is not a question,
    not negated or made a plan by the words just before, and (with ``objects``) followed within
    or preceded within its clause by a word ``objects`` accepts."""
    if not statement:
        return False
    statement = statement.replace("\u2019", "'")
    for sentence in _SENTENCE_END.split(statement):
        if sentence.rstrip().endswith("?"):
            continue
        for word in words:
            for match in re.finditer(rf"\b{re.escape(word)}\b", sentence, re.IGNORECASE):
                if _NEGATION.search(sentence[: match.start()]):
                    continue
                if objects is None or _names_object(sentence, match, objects):
                    return True
    return False


def _names_object(sentence: str, match: re.Match, objects: Callable[[str], bool]) -> bool:
    """Whether a word ``objects`` accepts is among the few words of the intent word's clause just
    after it ("I took my aspirin") or, said the other way round, just before it ("aspirin taken
    at 8")."""
    after = sentence[match.end() :]
    if (end := _CLAUSE_END.search(after)) is not None:
        after = after[: end.start()]
    before = sentence[: match.start()]
    if ends := list(_CLAUSE_END.finditer(before)):
        before = before[ends[-1].end() :]
    near = _WORD.findall(after)[:_OBJECT_WORDS] + _WORD.findall(before)[-_OBJECT_WORDS:]
    return any(objects(w.lower()) for w in near)


def crisis_reply(call: ToolCall) -> str:
    """The fixed reply when ``call`` reports a crisis (its tool's ``crisis`` declaration), else
    ""."""
    spec = get_tool(call.name)
    if spec is None or spec.crisis is None or not isinstance(call.arguments, dict):
        return ""
    return spec.crisis(call.arguments)


def is_crisis(call: ToolCall) -> bool:
    return bool(crisis_reply(call))


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
    objects = spec.intent_objects(call.arguments) if spec.intent_objects else None
    stated = states_intent(statement, spec.intent_words, objects)
    if spec.sensitivity in ("high", "critical") and spec.intent_words and not stated:
        words = ", ".join(spec.intent_words[:4])
        return Refusal(
            Reason.NOT_STATED,
            ToolError(
                code="NOT_STATED",
                message=f"Not made: {call.name} needs the athlete's own statement in their "
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
                    message="Not made: when the athlete is in crisis only that is logged.",
                ),
            )
        elif (refusal := check(call, statement=statement)) is not None:
            refusals[call.id] = refusal
    return refusals
