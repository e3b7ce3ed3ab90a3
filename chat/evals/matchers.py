"""Argument matchers and tool-call matching.

A matcher is written in a scenario file as:

* a plain value: equal (``1`` also equals ``1.0``; strings compare exactly);
* ``{ one_of = [a, b] }``: equal to one of them;
* ``{ range = [lo, hi] }``: ``lo <= value <= hi`` (numbers, or ISO dates as strings);
* ``{ regex = "(?i)lunge" }``: the value, as text, contains a match (``re.search``);
* ``{ any = true }``: present, any value; ``{ absent = true }``: not given (or null);
  ``{ empty = true }``: not given, null, or an empty list, text or object.

Arguments are addressed by dotted paths: ``updates.name``, ``weeks.0.phase`` (list index from 0),
``session.cardio.duration``. A path not in the arguments is "absent".

``match_calls`` pairs expected calls with actual ones: **lenient** (any order, an expected call may
match several actual calls when its ``times`` is ``"1+"``, every actual call must be matched) or
**strict** (the exact tool-call match: same number of calls, in order, one for one).
"""

from __future__ import annotations

import re
from typing import Any

from .scenarios import CallSpec

MISSING = object()


def lookup(data: Any, path: str) -> Any:
    """The value at a dotted ``path`` of ``data``; ``MISSING`` when there is none."""
    value = data
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif (
            isinstance(value, list)
            and part.lstrip("-").isdigit()
            and -len(value) <= int(part) < len(value)
        ):
            value = value[int(part)]
        elif isinstance(value, list) and part == "length":
            value = len(value)
        else:
            return MISSING
    return value


def _equal(actual: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return float(actual) == float(expected)
    return actual == expected


def _ordered(value: Any, lo: Any, hi: Any) -> bool:
    try:
        if isinstance(lo, int | float) and not isinstance(value, bool):
            value = float(value)
        return lo <= value <= hi
    except (TypeError, ValueError):
        return False


def matches(actual: Any, matcher: Any) -> tuple[bool, str]:
    """Whether ``actual`` (``MISSING`` when absent) satisfies ``matcher``; the reason if not."""
    if isinstance(matcher, dict) and len(matcher) == 1 and next(iter(matcher)) in OPERATORS:
        name, operand = next(iter(matcher.items()))
        return OPERATORS[name](actual, operand)
    if actual is MISSING:
        return False, f"absent, expected {matcher!r}"
    return (True, "") if _equal(actual, matcher) else (False, f"{actual!r} ≠ {matcher!r}")


def _one_of(actual: Any, options: Any) -> tuple[bool, str]:
    if actual is not MISSING and any(_equal(actual, o) for o in options):
        return True, ""
    return False, f"{_shown(actual)} is not one of {options!r}"


def _range(actual: Any, bounds: Any) -> tuple[bool, str]:
    lo, hi = bounds
    if actual is not MISSING and _ordered(actual, lo, hi):
        return True, ""
    return False, f"{_shown(actual)} is not in [{lo!r}, {hi!r}]"


def _regex(actual: Any, pattern: Any) -> tuple[bool, str]:
    if actual is not MISSING and actual is not None and re.search(pattern, str(actual)):
        return True, ""
    return False, f"{_shown(actual)} does not match /{pattern}/"


def _any(actual: Any, _operand: Any) -> tuple[bool, str]:
    return (actual is not MISSING, "" if actual is not MISSING else "absent")


def _absent(actual: Any, _operand: Any) -> tuple[bool, str]:
    if actual is MISSING or actual is None:
        return True, ""
    return False, f"{actual!r} given, expected none"


def _empty(actual: Any, _operand: Any) -> tuple[bool, str]:
    if actual is MISSING or actual in (None, "", [], {}):
        return True, ""
    return False, f"{actual!r} given, expected nothing"


def _shown(actual: Any) -> str:
    return "absent" if actual is MISSING else repr(actual)


OPERATORS = {
    "one_of": _one_of,
    "range": _range,
    "regex": _regex,
    "any": _any,
    "absent": _absent,
    "empty": _empty,
}


def call_matches(spec: CallSpec, call: dict[str, Any]) -> tuple[bool, str]:
    """``call`` is ``{"name", "arguments"}``; ``spec.args`` are already rendered."""
    if call.get("name") != spec.tool:
        return False, f"{call.get('name')} is not {spec.tool}"
    arguments = call.get("arguments") or {}
    for path, matcher in spec.args.items():
        ok, why = matches(lookup(arguments, path), matcher)
        if not ok:
            return False, f"{spec.tool} {path}: {why}"
    return True, ""


def match_calls(
    specs: list[CallSpec], calls: list[dict[str, Any]], *, strict: bool
) -> tuple[bool, str]:
    """Whether ``calls`` are the ``specs`` (see the module docstring); the reason if not."""
    if strict:
        # "1+" counts as its minimum here: the exact match is the smallest correct answer.
        expanded = [s for s in specs for _ in range(s.minimum)]
        if len(expanded) != len(calls):
            return False, f"{len(calls)} calls, expected exactly {len(expanded)}"
        for spec, call in zip(expanded, calls, strict=True):
            ok, why = call_matches(spec, call)
            if not ok:
                return False, why
        return True, ""
    # Lenient: each call goes to the first spec it matches that still needs calls, else to a
    # satisfied spec that takes more ("1+"); greedy is enough because specs are written apart.
    counts = [0] * len(specs)
    unmatched: list[str] = []
    for call in calls:
        reasons = []
        chosen = None
        for index, spec in enumerate(specs):
            ok, why = call_matches(spec, call)
            if ok and counts[index] < spec.minimum:
                chosen = index
                break
            if ok and spec.unbounded and chosen is None:
                chosen = index
            reasons.append(why)
        if chosen is None:
            detail = "; ".join(r for r in reasons if r) or "nothing was expected"
            unmatched.append(f"unexpected {call.get('name')} ({detail})")
        else:
            counts[chosen] += 1
    missing = [
        f"missing {spec.tool} ×{spec.minimum - n}"
        for spec, n in zip(specs, counts, strict=True)
        if n < spec.minimum
    ]
    problems = missing + unmatched
    return (not problems, "; ".join(problems))
