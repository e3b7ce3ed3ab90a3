"""A fake OpenAI- and Anthropic-compatible LLM server on loopback, scripted from Python: the
benchmarks' model and the tests' (see ``server.py``)."""

from .server import (
    ANTHROPIC_PATHS,
    OPENAI_PATHS,
    Call,
    FakeLLMServer,
    RecordedRequest,
    ScriptedResponse,
    anthropic_message,
    openai_completion,
)

__all__ = [
    "ANTHROPIC_PATHS",
    "OPENAI_PATHS",
    "Call",
    "FakeLLMServer",
    "RecordedRequest",
    "ScriptedResponse",
    "anthropic_message",
    "openai_completion",
]
