"""One tool call as the engine sees it, whatever shape the provider sent it in.

Providers send two shapes:

* OpenAI-compatible: ``{"id", "type": "function", "function": {"name", "arguments": "<JSON string>"}}``
* Anthropic / neutral: ``{"id", "name", "arguments": {...}}`` (Anthropic's ``input`` is accepted too)

``arguments`` may be a JSON string, an object, ``""``, ``null`` or missing; the last three mean ``{}``.
A string that is not JSON, or JSON that is not an object, is kept in ``arguments_error`` so the
engine can answer that one call with a parse error instead of raising.

``confidence`` is how sure the model said it was (0 to 1), when it said so: the text format of seed
004 carries it (``coach/llm/textcalls.py``); native calls have none. A value that is not a number
from 0 to 1 is dropped (``None``) rather than guessed.
"""

from __future__ import annotations

import json
import math
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
        if "arguments_error" in raw and raw.get("arguments_error"):
            return cls(
                id=call_id,
                name=str(name),
                arguments_error=str(raw["arguments_error"]),
                raw_arguments=raw.get("raw_arguments"),
                confidence=confidence,
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
