"""What a run observed: its steps, their replies and calls, and the checks made on them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..models import ToolCallRecord

QUEUED = ToolCallRecord.Status.PROPOSED
# A write that needs no Apply (a wellness log the athlete stated) is applied in the turn that
# proposed it: among the calls a step made, an applied one was applied at once (a click applies
# calls recorded by an earlier step, which are not the step's own).
APPLIED = ToolCallRecord.Status.APPLIED


@dataclass
class Check:
    name: str
    passed: bool
    detail: str = ""


@dataclass
class Reply:
    status: str
    content: str
    error_code: str
    prompt_tokens: int
    completion_tokens: int
    model_latency_ms: int
    turn_ms: int
    model_calls: int


@dataclass
class StepResult:
    label: str
    text: str | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    exact: bool | None = None

    @property
    def queued(self) -> list[dict[str, Any]]:
        """The writes waiting for the athlete's Apply."""
        return [c for c in self.calls if c["kind"] == "write" and c["status"] == QUEUED]

    @property
    def proposed(self) -> list[dict[str, Any]]:
        """The writes the step proposed: queued, or applied at once (a scenario's ``calls``
        mean "proposed or applied at once"; evals/paraphrases/README.md)."""
        return [c for c in self.calls if c["kind"] == "write" and c["status"] in (QUEUED, APPLIED)]

    @property
    def reads(self) -> list[dict[str, Any]]:
        return [c for c in self.calls if c["kind"] == "read"]

    @property
    def reply_text(self) -> str:
        return "\n\n".join(r.content for r in self.replies)


@dataclass
class RunResult:
    steps: list[StepResult] = field(default_factory=list)
    error: str = ""
    wall_ms: int = 0

    @property
    def passed(self) -> bool:
        return not self.error and all(c.passed for s in self.steps for c in s.checks)

    @property
    def exact(self) -> bool:
        return not self.error and all(s.exact is not False for s in self.steps)

    @property
    def replies(self) -> list[Reply]:
        return [r for s in self.steps for r in s.replies]
