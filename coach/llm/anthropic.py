"""Anthropic Messages API.

``POST {base_url}/v1/messages`` (``base_url`` defaults to ``https://api.anthropic.com``) with the
headers ``x-api-key`` and ``anthropic-version: 2023-06-01`` and the body ``model``, ``system``,
``messages``, ``tools`` (``{"name", "description", "input_schema"}``) and ``max_tokens``.

The neutral turns are converted so that roles alternate, as the API requires:

* the answers to one assistant turn's tool calls become ONE user message of ``tool_result``
  blocks (``{"type": "tool_result", "tool_use_id", "content", "is_error"}``);
* a user turn right after them is merged into that same user message as a ``text`` block;
* consecutive turns of the same role are merged into one message;
* an assistant turn becomes a ``text`` block (when it has text) and one ``tool_use`` block
  ``{"id", "name", "input"}`` per call.

The response's ``content`` blocks are parsed: ``text`` blocks joined, ``tool_use`` blocks (their
``input`` is an object) turned into ``ToolCall``s; unknown block fields (``caller``) and usage
fields (``cache_creation``, ``inference_geo``) are ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from coach.llm.base import LLMError, LLMResponse, Turn, Usage
from coach.llm.errors import error_from_response
from coach.llm.http import HttpProvider
from coach.llm.sse import accumulate_anthropic_stream, iter_sse, tap_anthropic_text
from coach.llm.textcalls import with_text_calls
from coach.toolcalls import ToolCall

ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"
CONVERSATION_START = "(The conversation starts.)"


def build_messages(turns: list[Turn]) -> list[dict[str, Any]]:
    """The neutral conversation as alternating Anthropic messages of content blocks."""
    messages: list[dict[str, Any]] = []

    def push(role: str, blocks: list[dict[str, Any]]) -> None:
        if not blocks:
            return
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": list(blocks)})

    wire: dict[str, str] = {}  # the app's call id → the provider's (``ToolCall.wire_id``)
    for turn in turns:
        wire.update({call.id: call.wire_id for call in turn.tool_calls})
        if turn.role == "user":
            if turn.content.strip():
                push("user", [{"type": "text", "text": turn.content}])
        elif turn.role == "tool":
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": wire.get(turn.tool_call_id or "", turn.tool_call_id or ""),
                "content": turn.content,
            }
            if turn.is_error:
                block["is_error"] = True
            push("user", [block])
        elif turn.role == "assistant":
            blocks: list[dict[str, Any]] = []
            if turn.content.strip():
                blocks.append({"type": "text", "text": turn.content})
            blocks.extend(
                {"type": "tool_use", "id": call.wire_id, "name": call.name, "input": call.arguments}
                for call in turn.tool_calls
            )
            push("assistant", blocks)
    if messages and messages[0]["role"] != "user":
        messages.insert(
            0, {"role": "user", "content": [{"type": "text", "text": CONVERSATION_START}]}
        )
    return messages


def build_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "name": tool["name"],
            "description": tool.get("description", ""),
            "input_schema": tool.get("input_schema") or {"type": "object", "properties": {}},
        }
        for tool in tools
    ]


def parse_response(data: dict[str, Any]) -> LLMResponse:
    """Parse one non-streaming Messages body. Raises ``LLMError`` for an error body."""
    if data.get("type") == "error" or isinstance(data.get("error"), dict):
        raise error_from_response(200, data)
    content = data.get("content")
    if not isinstance(content, list):
        raise LLMError(
            "The model server's answer has no content blocks.", kind="protocol", retryable=False
        )
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_use":
            calls.append(
                ToolCall.from_raw(
                    {"id": block.get("id"), "name": block.get("name"), "input": block.get("input")}
                )
            )
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    response = LLMResponse(
        text="\n\n".join(t for t in texts if t),
        tool_calls=calls,
        finish_reason=str(data.get("stop_reason") or ""),
        usage=Usage(
            prompt_tokens=int(usage.get("input_tokens") or 0),
            completion_tokens=int(usage.get("output_tokens") or 0),
        ),
        provider="anthropic",
        model=str(data.get("model") or ""),
        raw=data,
    )
    return with_text_calls(response)


class AnthropicProvider(HttpProvider):
    """A client of the Anthropic Messages API (or a server speaking it)."""

    name = "anthropic"

    def __init__(self, *, base_url: str = "", **options: Any) -> None:
        base = (base_url or DEFAULT_BASE_URL).rstrip("/")
        if base.endswith("/v1"):  # accept "https://api.anthropic.com/v1" too
            base = base[: -len("/v1")]
        super().__init__(base_url=base, **options)

    @property
    def url(self) -> str:
        return f"{self.base_url}/v1/messages"

    def headers(self) -> dict[str, str]:
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        return headers

    def build_request(
        self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": build_messages(turns),
        }
        if system:
            payload["system"] = system
        if tools:
            payload["tools"] = build_tools(tools)
        return payload

    def parse(self, data: dict[str, Any]) -> LLMResponse:
        return parse_response(data)

    def stream_request(self, payload: dict[str, Any]) -> dict[str, Any]:
        return {**payload, "stream": True}

    def parse_stream(self, lines: Iterator[str], on_text: Callable[[str], None]) -> LLMResponse:
        return accumulate_anthropic_stream(tap_anthropic_text(iter_sse(lines), on_text))
