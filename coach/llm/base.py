"""The one interface every LLM provider implements, and the neutral conversation it speaks.

A conversation is a list of ``Turn``s. Each provider converts it to its own protocol:

* ``Turn(role="user", content=...)``: the athlete's words (or a system note such as "I applied the
  changes"), as plain text.
* ``Turn(role="assistant", content=..., tool_calls=[ToolCall, ...])``: the model's reply.
* ``Turn(role="tool", tool_call_id=..., content=..., is_error=...)``: the answer to one tool call.
  Every tool call of an assistant turn is answered by exactly one tool turn before the next user
  turn (DESIGN.md: "A valid conversation for every provider"). Anthropic's client merges the tool
  turns and a following user turn into one user message; OpenAI's sends them as ``role: tool``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from coach.toolcalls import ToolCall


@dataclass
class Turn:
    role: Literal["user", "assistant", "tool"]
    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_call_id: str | None = None
    is_error: bool = False
    # Provider-specific fields of this turn's tool calls, keyed by call id, echoed back verbatim
    # (Gemini's ``extra_content.google.thought_signature`` must be sent back with its call).
    tool_call_extras: dict[str, dict[str, Any]] = field(default_factory=dict)
    # A user turn may report decisions (Apply, Cancel, undo...) written by the app, not typed:
    # ``events`` holds them as data and ``athlete_text`` what the athlete typed after the latest
    # one (None when the turn wasn't built that way). Real providers send only ``content``; the
    # offline coach reads these instead of parsing prose.
    events: list[dict[str, Any]] = field(default_factory=list)
    athlete_text: str | None = None
    # A read tool's answer in words for a person (``Outcome.spoken``); real providers send
    # ``content``, the data, and the offline coach shows this instead when there is one.
    person_text: str | None = None


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class LLMResponse:
    text: str
    tool_calls: list[ToolCall]
    finish_reason: str = ""
    usage: Usage = field(default_factory=Usage)
    provider: str = ""
    model: str = ""
    latency_ms: int = 0
    raw: Any = None
    # Unknown fields of each tool call, keyed by call id; store them on the assistant Turn
    # (``Turn.tool_call_extras``) so the provider can echo them back.
    tool_call_extras: dict[str, dict[str, Any]] = field(default_factory=dict)


class LLMError(Exception):
    """A provider failed. ``kind`` is one of: rate_limit, overloaded, quota, timeout, server,
    auth, bad_request, connection, protocol. ``retryable`` says whether trying again may help."""

    def __init__(
        self,
        message: str,
        *,
        kind: str,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after


class Provider(Protocol):
    name: str  # "openai", "anthropic" or "offline"
    model: str
    offline: bool

    def complete(
        self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]
    ) -> LLMResponse:
        """One model call. ``tools`` are registry definitions ``{"name", "description",
        "input_schema"}``; each provider converts them to its own format. Raises ``LLMError``."""
        ...
