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

import datetime
import time
from collections.abc import Callable, Sequence
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
class PendingCall:
    """One call of the batch waiting for the athlete: what it is and how its preview reads."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    summary: str = ""  # its preview's line (the words for a person when the tool has them)


@dataclass
class Pending:
    """The batch waiting for a decision, as data: its status, its calls in order, and what keeps
    it from being applied (``problem``, written for the athlete). A provider that declares
    ``reads_pending`` gets it beside the system prompt (whose ``<pending_changes>`` block says the
    same for a model); the offline coach reads this, never the prompt's prose."""

    status: str
    calls: list[PendingCall] = field(default_factory=list)
    problem: str = ""


@dataclass
class World:
    """What a provider that declares ``reads_world`` (the offline coach) may read while it
    understands one message: whose data (``ctx``, the
    tools' ``ToolContext``; None when the conversation has no athlete context, as in a direct
    call), the athlete's today, and the conversation so far. Lists computed from it are cached for
    the message (``cached``)."""

    ctx: Any = None
    today: datetime.date = field(default_factory=datetime.date.today)
    turns: Sequence[Turn] = ()
    said: list[Any] = field(default_factory=list)  # the calls understood so far in this message
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def recent_calls(self) -> list[tuple[str, dict[str, Any]]]:
        """The tool calls of the conversation, newest first, as ``(name, arguments)``: what was
        just proposed or changed is what "that" and "it" mean."""
        calls = [(p.name, dict(p.arguments)) for p in reversed(self.said)]
        for turn in reversed(self.turns):
            for call in reversed(turn.tool_calls or []):
                calls.append((call.name, dict(call.arguments or {})))
        return calls

    def weekday(self, index: int, *, next_week: bool = False) -> datetime.date:
        """The date of weekday ``index`` (Monday 0) in the athlete's current week (or the next)."""
        monday = self.today - datetime.timedelta(days=self.today.weekday())
        return monday + datetime.timedelta(days=index + (7 if next_week else 0))


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


class DeadlineExceeded(LLMError):
    """The turn's total time (``Deadline``) is spent: no further request or retry is made."""

    def __init__(self, message: str) -> None:
        super().__init__(message, kind="timeout", retryable=False)


class TurnAbandoned(LLMError):
    """The turn is no longer wanted (its reply was failed, or another run replaced it): no further
    request or retry is made, and whatever it would answer is dropped."""

    def __init__(self) -> None:
        super().__init__(
            "The reply this request was for is no longer waiting for it.",
            kind="abandoned",
            retryable=False,
        )


class Deadline:
    """One total time for everything a turn asks of the model: every call, every retry, every wait
    between them. A request's time-outs are cut to what is left (``cap``), a retry whose wait
    would pass the deadline is not made, and ``check`` raises once it is spent.

    ``still_wanted`` (optional) is asked before each request and each retry; when it answers
    False the turn stops at once (``TurnAbandoned``): nothing calls the model for a reply the
    athlete has already been told failed."""

    def __init__(
        self,
        seconds: float,
        *,
        still_wanted: Callable[[], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds = max(0.0, float(seconds))
        self.clock = clock
        self.at = clock() + self.seconds
        self.still_wanted = still_wanted

    def remaining(self) -> float:
        return max(0.0, self.at - self.clock())

    @property
    def spent(self) -> bool:
        return self.clock() >= self.at

    def exceeded(self) -> DeadlineExceeded:
        return DeadlineExceeded(
            f"The turn's {self.seconds:g} s for the model are spent; no further request is made."
        )

    def check(self) -> None:
        """Raise ``DeadlineExceeded`` once the time is spent, ``TurnAbandoned`` once the turn is
        no longer wanted."""
        if self.spent:
            raise self.exceeded()
        if self.still_wanted is not None and not self.still_wanted():
            raise TurnAbandoned()

    def cap(self, seconds: float) -> float:
        """``seconds`` (a time-out), or what is left of the deadline when that is less."""
        return max(0.001, min(float(seconds), self.remaining()))


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
