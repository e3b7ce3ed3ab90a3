"""OpenAI-compatible chat completions: OpenAI, OpenRouter, Ollama's ``/v1``, vLLM, llama.cpp's
server and Gemini's OpenAI-compatibility endpoint.

``POST {base_url}/chat/completions`` with ``model``, ``messages`` (the system prompt first, then the
neutral turns), ``tools`` (``{"type": "function", "function": {...}}``) and ``max_tokens``.

OpenAI's reasoning models refuse ``max_tokens`` and want ``max_completion_tokens`` (which also
bounds their hidden reasoning). We send it when the model name starts with ``o1``, ``o3``, ``o4`` or
``gpt-5`` (``REASONING_MODEL_PREFIXES``), and ``max_tokens`` otherwise, because most compatible
servers (Ollama, vLLM, llama.cpp, older proxies) know only ``max_tokens``. A routed name such as
OpenRouter's ``openai/o3-mini`` keeps ``max_tokens``, which OpenRouter accepts for every model.

Parsing is forgiving where real servers differ (see ``shared/provider_payloads/SOURCES.md``):
``content`` may be ``null``, ``""``, text or absent; ``arguments`` may be a JSON string (with
newlines), an object, ``""`` or missing; a tool-call id may be empty (we make one up and the agent
sends that one back); unknown tool-call fields are kept per call id, and Gemini's message-level
``extra_content``/``thought_signature`` under ``MESSAGE_EXTRAS_KEY``, in
``LLMResponse.tool_call_extras``; put them on the assistant ``Turn`` and they are echoed back. An ``error`` object in a 200 body (OpenRouter) raises ``LLMError``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from coach.llm.base import LLMError, LLMResponse, Turn, Usage
from coach.llm.errors import error_from_response
from coach.llm.http import HttpProvider
from coach.llm.sse import accumulate_openai_stream, iter_sse, tap_openai_text
from coach.llm.textcalls import with_text_calls
from coach.toolcalls import ToolCall

_KNOWN_CALL_KEYS = frozenset({"id", "type", "function", "index"})
# Message-level fields worth echoing back (Gemini's thought signature); others are dropped,
# since strict servers reject unknown message fields.
_ECHOED_MESSAGE_KEYS = ("extra_content", "thought_signature")
# ``tool_call_extras`` key under which message-level fields are kept.
MESSAGE_EXTRAS_KEY = "_message"
# Model names that take ``max_completion_tokens`` instead of ``max_tokens`` (see above).
REASONING_MODEL_PREFIXES = ("o1", "o3", "o4", "gpt-5")


def max_tokens_field(model: str) -> str:
    """``"max_completion_tokens"`` for OpenAI's reasoning models, else ``"max_tokens"``."""
    name = model.strip().lower()
    return "max_completion_tokens" if name.startswith(REASONING_MODEL_PREFIXES) else "max_tokens"


def build_messages(*, system: str, turns: list[Turn]) -> list[dict[str, Any]]:
    """The neutral conversation as OpenAI chat messages."""
    messages: list[dict[str, Any]] = []
    if system:
        messages.append({"role": "system", "content": system})
    wire: dict[str, str] = {}  # the app's call id → the provider's (``ToolCall.wire_id``)
    for turn in turns:
        wire.update({call.id: call.wire_id for call in turn.tool_calls})
        if turn.role == "user":
            messages.append({"role": "user", "content": turn.content})
        elif turn.role == "assistant":
            message: dict[str, Any] = {
                **turn.tool_call_extras.get(MESSAGE_EXTRAS_KEY, {}),
                "role": "assistant",
                "content": turn.content or None,
            }
            if turn.tool_calls:
                message["tool_calls"] = [
                    {
                        **turn.tool_call_extras.get(call.id, {}),
                        "id": call.wire_id,
                        "type": "function",
                        "function": {
                            "name": call.name,
                            "arguments": _arguments_text(call),
                        },
                    }
                    for call in turn.tool_calls
                ]
            messages.append(message)
        elif turn.role == "tool":
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": wire.get(turn.tool_call_id or "", turn.tool_call_id or ""),
                    "content": turn.content,
                }
            )
    return messages


def _arguments_text(call: ToolCall) -> str:
    """What the model sent: its raw text when it was unparseable, else the decoded object."""
    if call.arguments_error is not None and call.raw_arguments is not None:
        return call.raw_arguments
    return json.dumps(call.arguments)


def build_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": tool["name"],
                "description": tool.get("description", ""),
                "parameters": tool.get("input_schema") or {"type": "object", "properties": {}},
            },
        }
        for tool in tools
    ]


def parse_response(data: dict[str, Any]) -> LLMResponse:
    """Parse one non-streaming chat completion body. Raises ``LLMError`` for an ``error`` body."""
    if isinstance(data.get("error"), dict):
        raise error_from_response(200, data)
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise LLMError(
            "The model server's answer has no choices.", kind="protocol", retryable=False
        )
    choice = choices[0]
    message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
    content = message.get("content")
    if isinstance(content, list):  # some servers send content parts
        content = "".join(str(part.get("text") or "") for part in content if isinstance(part, dict))
    text = content if isinstance(content, str) else ""
    calls: list[ToolCall] = []
    extras: dict[str, dict[str, Any]] = {}
    for raw in message.get("tool_calls") or []:
        call = ToolCall.from_raw(raw)
        calls.append(call)
        if isinstance(raw, dict):
            extra = {k: v for k, v in raw.items() if k not in _KNOWN_CALL_KEYS}
            if extra:
                extras[call.id] = extra
    message_extras = {k: message[k] for k in _ECHOED_MESSAGE_KEYS if k in message}
    if message_extras:
        extras[MESSAGE_EXTRAS_KEY] = message_extras
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    finish_reason = str(choice.get("finish_reason") or "")
    if finish_reason == "error":
        raise LLMError(
            "The model stopped with an error.", kind="server", retryable=True, status=None
        )
    response = LLMResponse(
        text=text,
        tool_calls=calls,
        finish_reason=finish_reason,
        usage=Usage(
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
        ),
        provider="openai",
        model=str(data.get("model") or ""),
        raw=data,
        tool_call_extras=extras,
    )
    return with_text_calls(response)


class OpenAIProvider(HttpProvider):
    """A client of one OpenAI-compatible ``/chat/completions`` endpoint."""

    name = "openai"

    def __init__(
        self, *, base_url: str, extra_headers: dict[str, str] | None = None, **options: Any
    ) -> None:
        super().__init__(base_url=base_url or "https://api.openai.com/v1", **options)
        self.extra_headers = dict(extra_headers or {})

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def headers(self) -> dict[str, str]:
        headers = dict(self.extra_headers)
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        return headers

    def build_request(
        self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": build_messages(system=system, turns=turns),
            max_tokens_field(self.model): self.max_tokens,
        }
        if tools:
            payload["tools"] = build_tools(tools)
        return payload

    def parse(self, data: dict[str, Any]) -> LLMResponse:
        return parse_response(data)

    def stream_request(self, payload: dict[str, Any]) -> dict[str, Any]:
        # ``include_usage`` asks for a last chunk with the token counts (OpenAI, OpenRouter,
        # vLLM, llama.cpp and Ollama accept it).
        return {**payload, "stream": True, "stream_options": {"include_usage": True}}

    def parse_stream(self, lines: Iterator[str], on_text: Callable[[str], None]) -> LLMResponse:
        return accumulate_openai_stream(tap_openai_text(iter_sse(lines), on_text))
