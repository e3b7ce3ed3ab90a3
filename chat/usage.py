"""What a turn's model calls cost, as the reply and the audit log record it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from coach.llm.base import LLMResponse, Provider


@dataclass
class TurnUsage:
    """What the model calls of one turn cost: provider, model, tokens and latency, added up, and
    the tool families loaded for them (``chat.toolsets``)."""

    provider: str = ""
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: int = 0
    calls: int = 0
    tool_families: list[str] = field(default_factory=list)

    def add(self, response: LLMResponse, provider: Provider) -> None:
        self.provider = response.provider or getattr(provider, "name", "")
        self.model = response.model or getattr(provider, "model", "")
        self.prompt_tokens += response.usage.prompt_tokens or 0
        self.completion_tokens += response.usage.completion_tokens or 0
        self.latency_ms += response.latency_ms or 0
        self.calls += 1

    def fields(self) -> dict[str, Any]:
        return {
            "provider": self.provider[:50],
            "model": self.model[:200],
            "prompt_tokens": self.prompt_tokens if self.calls else None,
            "completion_tokens": self.completion_tokens if self.calls else None,
            "latency_ms": self.latency_ms if self.calls else None,
            "tool_families": list(self.tool_families),
        }


def response_usage(response: LLMResponse, provider: Provider) -> dict[str, Any]:
    return {
        "provider": (response.provider or getattr(provider, "name", ""))[:50],
        "model": (response.model or getattr(provider, "model", ""))[:200],
        "prompt_tokens": response.usage.prompt_tokens,
        "completion_tokens": response.usage.completion_tokens,
        "latency_ms": response.latency_ms,
    }
