"""A scripted ``Provider`` for agent tests: a real object implementing ``complete`` that returns
queued ``LLMResponse``s (or raises queued exceptions) and records every request."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from coach.llm.base import LLMResponse, Turn, Usage
from coach.toolcalls import ToolCall


@dataclass
class Request:
    system: str
    turns: list[Turn]
    tools: list[dict[str, Any]]


@dataclass
class ScriptedProvider:
    name: str = "scripted"
    model: str = "scripted-1"
    offline: bool = False
    script: list[Any] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    default: Any = None

    def text(self, text: str, **usage: int) -> ScriptedProvider:
        self.script.append(
            LLMResponse(
                text=text,
                tool_calls=[],
                finish_reason="stop",
                usage=Usage(
                    prompt_tokens=usage.get("prompt_tokens", 100),
                    completion_tokens=usage.get("completion_tokens", 20),
                ),
                provider=self.name,
                model=self.model,
                latency_ms=usage.get("latency_ms", 7),
            )
        )
        return self

    def calls(self, *calls: tuple[str, str, Any], text: str = "") -> ScriptedProvider:
        """``calls``: ``(id, name, arguments)``; a string argument is sent as raw JSON text."""
        self.script.append(
            LLMResponse(
                text=text,
                tool_calls=[
                    ToolCall.from_raw({"id": i, "name": n, "arguments": a}) for i, n, a in calls
                ],
                finish_reason="tool_calls",
                usage=Usage(prompt_tokens=100, completion_tokens=20),
                provider=self.name,
                model=self.model,
                latency_ms=7,
            )
        )
        return self

    def error(self, exc: BaseException) -> ScriptedProvider:
        self.script.append(exc)
        return self

    def complete(
        self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]
    ) -> LLMResponse:
        self.requests.append(Request(system=system, turns=list(turns), tools=tools))
        if not self.script:
            if self.default is not None:
                return self.default
            raise AssertionError("The scripted provider ran out of responses.")
        item = self.script.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item


def assert_valid_turns(turns: list[Turn]) -> None:
    """Every provider's protocol: starts with a user turn; every assistant tool call is answered by
    exactly one tool turn, right after it, before the next user or assistant turn; no two user
    turns in a row; tool turns only answer the calls just made."""
    assert turns, "no turns"
    assert turns[0].role == "user"
    index = 0
    previous_role = None
    while index < len(turns):
        turn = turns[index]
        assert turn.role in ("user", "assistant"), f"unexpected {turn.role} turn at {index}"
        if turn.role == "user":
            assert previous_role != "user", f"two user turns in a row at {index}"
            assert turn.content.strip()
        index += 1
        if turn.role == "assistant" and turn.tool_calls:
            ids = [c.id for c in turn.tool_calls]
            assert len(set(ids)) == len(ids), "duplicate call ids in one turn"
            answered = []
            while index < len(turns) and turns[index].role == "tool":
                answered.append(turns[index].tool_call_id)
                index += 1
            assert answered == ids, f"calls {ids} answered by {answered}"
        previous_role = turn.role
