"""One tool call as the engine sees it, whatever shape the provider sent it in.

Providers send two shapes:

* OpenAI-compatible: ``{"id", "type": "function", "function": {"name", "arguments": "<JSON string>"}}``
* Anthropic / neutral: ``{"id", "name", "arguments": {...}}`` (Anthropic's ``input`` is accepted too)

``arguments`` may be a JSON string, an object, ``""``, ``null`` or missing; the last three mean ``{}``.
A string that is not JSON, or JSON that is not an object, is kept in ``arguments_error`` so the
engine can answer that one call with a parse error instead of raising.

**Ids.** A provider's call id is data: it may hold ``/``, spaces or hundreds of characters. The
app names each call by an id of its own (``own_ids``): the provider's one when it is already short
and URL-safe (``SAFE_ID``: 1-64 of ``[A-Za-z0-9_-]``), else a new ``call_<hex>``, with the
provider's kept in ``provider_id`` for the protocol only (``wire_id``: sent back to the provider
as it gave it). Own ids go into URLs, DOM ids and database columns. A provider id longer than the
limit is not kept: that call is answered with an error instead of being run, and the provider is
sent the app's id in its place.

``confidence`` is how sure the model said it was (0 to 1), when it said so: the text format of seed
004 carries it (``coach/llm/textcalls.py``); native calls have none. A value that is not a number
from 0 to 1 is dropped (``None``) rather than guessed.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import uuid
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    arguments_error: str | None = None
    raw_arguments: str | None = None
    confidence: float | None = None
    provider_id: str | None = None  # the provider's id, when it differs from ``id`` (see above)

    @property
    def wire_id(self) -> str:
        """The id the provider knows this call by (sent back to it in the conversation)."""
        return self.provider_id or self.id

    def __post_init__(self) -> None:
        object.__setattr__(self, "confidence", parse_confidence(self.confidence))

    def to_dict(self) -> dict[str, Any]:
        """The neutral shape stored in the database and accepted back by ``from_raw``."""
        data: dict[str, Any] = {"id": self.id, "name": self.name, "arguments": self.arguments}
        if self.arguments_error is not None:
            data["arguments_error"] = self.arguments_error
            data["raw_arguments"] = self.raw_arguments
        if self.confidence is not None:
            data["confidence"] = self.confidence
        if self.provider_id:
            data["provider_id"] = self.provider_id
        return data

    @classmethod
    def from_raw(cls, raw: Any) -> ToolCall:
        if not isinstance(raw, dict):
            return cls(
                id=new_call_id(), name="", arguments_error="A tool call must be a JSON object."
            )
        function = raw.get("function") if isinstance(raw.get("function"), dict) else None
        name = (function or raw).get("name") or ""
        if function is not None:
            arguments = function.get("arguments")
        elif "arguments" in raw:
            arguments = raw.get("arguments")
        else:
            arguments = raw.get("input")
        call_id = str(raw.get("id") or "") or new_call_id()
        confidence = parse_confidence(raw.get("confidence"))
        provider_id = raw.get("provider_id") if isinstance(raw.get("provider_id"), str) else None
        if "arguments_error" in raw and raw.get("arguments_error"):
            return cls(
                id=call_id,
                name=str(name),
                arguments_error=str(raw["arguments_error"]),
                raw_arguments=raw.get("raw_arguments"),
                confidence=confidence,
                provider_id=provider_id or None,
            )
        parsed, error = parse_arguments(arguments)
        raw_text = arguments if isinstance(arguments, str) else None
        return cls(
            id=call_id,
            name=str(name),
            arguments=parsed if error is None else {},
            arguments_error=error,
            raw_arguments=raw_text if error is not None else None,
            confidence=confidence,
            provider_id=provider_id or None,
        )


def parse_arguments(arguments: Any) -> tuple[dict[str, Any], str | None]:
    """Decode a tool call's arguments; returns ``(arguments, None)`` or ``({}, error message)``."""
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return {}, None
    if isinstance(arguments, dict):
        return arguments, None
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except json.JSONDecodeError as exc:
            return {}, f"The arguments are not valid JSON ({exc.msg} at character {exc.pos})."
        if isinstance(decoded, dict):
            return decoded, None
        return {}, f"The arguments must be a JSON object, not {type(decoded).__name__}."
    return {}, f"The arguments must be a JSON object, not {type(arguments).__name__}."


def parse_confidence(value: Any) -> float | None:
    """A confidence from 0 to 1 (a number, or a numeric string such as ``"0.9"``), else ``None``.
    Booleans, NaN, infinities and values outside 0..1 are not confidences."""
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    value = float(value)
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        return None
    return value


def new_call_id() -> str:
    """An id for a call whose provider sent none (some send an empty string)."""
    return f"call_{uuid.uuid4().hex[:24]}"


SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_safe_id(call_id: object) -> bool:
    """``call_id`` can go into a URL path, a DOM id and a database column as it is."""
    return isinstance(call_id, str) and SAFE_ID.fullmatch(call_id) is not None


def own_ids(calls: list[ToolCall], *, max_provider_chars: int) -> list[ToolCall]:
    """``calls`` named by ids of the app's own (see "Ids" in the module docstring). A call whose
    provider id is longer than ``max_provider_chars`` gets an error instead of being run."""
    out = []
    for call in calls:
        if is_safe_id(call.id):
            out.append(call)
            continue
        own = new_call_id()
        if len(call.id) <= max_provider_chars:
            out.append(dataclasses.replace(call, id=own, provider_id=call.id))
            continue
        error = call.arguments_error or (
            f"the call's id is {len(call.id):,} characters long, and ids of at most "
            f"{max_provider_chars:,} are accepted. Nothing was run; call the tool again with a "
            "short id."
        )
        raw = call.raw_arguments if call.arguments_error else json.dumps(call.arguments)
        out.append(
            dataclasses.replace(
                call, id=own, provider_id=None, arguments_error=error, raw_arguments=raw
            )
        )
    return out
