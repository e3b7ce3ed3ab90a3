"""The checks of one step: what the scenario expects against what the step observed."""

from __future__ import annotations

from typing import Any

from coach.plan import declared

from .. import proposals
from ..models import Message
from . import fixtures
from .matchers import MISSING, call_matches, lookup, match_calls, matches
from .results import Check, StepResult
from .scenarios import Step


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
        ok, why = match_calls(expect["calls"], result.proposed, strict=False)
        checks.append(Check("tool calls proposed", ok, why))
    if "any_of" in expect:
        reasons = [match_calls(o, result.proposed, strict=False) for o in expect["any_of"]]
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
        ok = ok and not result.proposed and not (last and last.error_code)
        checks.append(
            Check("answered without a proposal", ok, "" if ok else _why_not_answered(result))
        )
    if "refused" in expect:
        refused = expect["refused"]
        ok = not result.proposed
        detail = "" if ok else f"proposed {[c['name'] for c in result.proposed]}"
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
    for key, value_at in expectations().items():  # the families' own: "program"
        for path, matcher in expect.get(key, {}).items():
            ok, why = matches(value_at(world, path, lookup=lookup, missing=MISSING), matcher)
            checks.append(Check(f"{key} {path}", ok, why))
    return checks


def expectations() -> dict[str, Any]:
    """The expectation keys the families declare (``EVAL.EXPECTS``): key → ``value_at(world,
    path, *, lookup, missing)``."""
    return {key: f for family in declared("EVAL") for key, f in family.EXPECTS.items()}


def _why_not_answered(result: StepResult) -> str:
    if result.proposed:
        return f"proposed {[c['name'] for c in result.proposed]}"
    if not result.replies:
        return "no reply"
    last = result.replies[-1]
    return f"{last.status} {last.error_code}".strip() or "empty reply"


def exact_match(expect: dict[str, Any], result: StepResult) -> bool:
    """The strict tool-call match of a message step: the proposed writes (queued, or applied at
    once) are one of the expected lists one for one, in order, and the reads that ran are
    exactly the expected reads."""
    options = expect.get("any_of") or [expect.get("calls", [])]
    writes = any(match_calls(o, result.proposed, strict=True)[0] for o in options)
    reads = match_calls(expect.get("reads", []), result.reads, strict=True)[0]
    return writes and reads
