"""Streaming: server-sent events, and the accumulators that turn a stream into one ``LLMResponse``.

``iter_sse(lines)`` follows the SSE rules the recorded streams need: an event ends at a blank line
or at end of input (the Anthropic SDK fixture has no final newline, so the last event is flushed
at EOF); lines starting with ``:`` are comments (OpenRouter's ``: OPENROUTER PROCESSING``
keep-alives); several ``data:`` lines join with ``\\n``; one space after the colon is dropped.

* ``accumulate_openai_stream`` gathers ``tool_calls[].index`` fragments (``id``/``name`` only in
  the first delta; argument fragments split anywhere), keeps tool calls until ``finish_reason``,
  stops at ``[DONE]``, and raises ``LLMError`` for a chunk with a top-level ``error`` or
  ``finish_reason: "error"`` (OpenRouter's mid-stream errors, after HTTP 200).
* ``accumulate_anthropic_stream`` replaces each ``tool_use`` block's initial ``input: {}`` with the
  parsed concatenation of its ``partial_json`` fragments and raises ``LLMError`` for an ``error``
  event (``overloaded_error`` → kind ``overloaded``).
* ``tap_openai_text`` / ``tap_anthropic_text`` pass the events through unchanged and hand each
  piece of text to a callback on the way (the providers' ``parse_stream``: the chat shows the text
  as the model writes it while the accumulator builds the response).
* ``accumulate_ollama_ndjson`` reads Ollama's native ``/api/chat`` NDJSON stream and keeps the tool
  calls of earlier chunks (the final ``done`` chunk carries none).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from coach.llm.base import LLMError, LLMResponse, Usage
from coach.llm.errors import error_from_response
from coach.llm.textcalls import with_text_calls
from coach.toolcalls import ToolCall

_KNOWN_FRAGMENT_KEYS = frozenset({"index", "id", "type", "function"})


@dataclass
class SSEEvent:
    event: str
    data: str

    def json(self) -> Any:
        return json.loads(self.data)


def _lines(source: Iterable[str | bytes] | str | bytes) -> Iterator[str]:
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    if isinstance(source, str):
        yield from source.splitlines()
        return
    for line in source:
        text = line.decode("utf-8") if isinstance(line, bytes) else line
        yield text.rstrip("\r\n")


def iter_sse(source: Iterable[str | bytes] | str | bytes) -> Iterator[SSEEvent]:
    """Yield the events of an SSE stream (text, bytes or an iterable of lines)."""
    event = ""
    data: list[str] = []
    for line in _lines(source):
        if line == "":
            if data:
                yield SSEEvent(event or "message", "\n".join(data))
            event, data = "", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
    if data:  # no blank line after the last event
        yield SSEEvent(event or "message", "\n".join(data))


def tap_openai_text(
    events: Iterable[SSEEvent], on_text: Callable[[str], None]
) -> Iterator[SSEEvent]:
    """The events unchanged; each ``choices[].delta.content`` is passed to ``on_text`` first."""
    for event in events:
        try:
            chunk = json.loads(event.data)
        except json.JSONDecodeError:
            chunk = None  # "[DONE]"; anything else is the accumulator's to judge
        if isinstance(chunk, dict):
            for choice in chunk.get("choices") or []:
                content = (choice.get("delta") or {}).get("content") if choice else None
                if isinstance(content, str) and content:
                    on_text(content)
        yield event


def tap_anthropic_text(
    events: Iterable[SSEEvent], on_text: Callable[[str], None]
) -> Iterator[SSEEvent]:
    """The events unchanged; each ``text_delta`` is passed to ``on_text`` first."""
    for event in events:
        try:
            payload = json.loads(event.data)
        except json.JSONDecodeError:
            payload = None
        if isinstance(payload, dict) and payload.get("type") == "content_block_delta":
            delta = payload.get("delta") or {}
            if delta.get("type") == "text_delta" and delta.get("text"):
                on_text(str(delta["text"]))
        yield event


def accumulate_openai_stream(events: Iterable[SSEEvent]) -> LLMResponse:
    text: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    finish_reason = ""
    usage = Usage()
    model = ""
    for event in events:
        if event.data.strip() == "[DONE]":
            break
        chunk = event.json()
        if not isinstance(chunk, dict):
            continue
        if isinstance(chunk.get("error"), dict):
            raise error_from_response(200, chunk)
        model = model or str(chunk.get("model") or "")
        if isinstance(chunk.get("usage"), dict):
            usage = Usage(
                prompt_tokens=int(chunk["usage"].get("prompt_tokens") or 0),
                completion_tokens=int(chunk["usage"].get("completion_tokens") or 0),
            )
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if isinstance(delta.get("content"), str):
                text.append(delta["content"])
            for fragment in delta.get("tool_calls") or []:
                index = fragment.get("index")
                if not isinstance(index, int):  # some servers omit it (SambaNova)
                    # a new id starts a new call; a fragment without one continues the last
                    index = len(calls) if fragment.get("id") or not calls else max(calls)
                slot = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
                # Unknown fields (Gemini's ``extra_content``) are echoed back, as in parse_response
                extra = {k: v for k, v in fragment.items() if k not in _KNOWN_FRAGMENT_KEYS}
                if extra:
                    slot.setdefault("extra", {}).update(extra)
                if fragment.get("id"):
                    slot["id"] = fragment["id"]
                function = fragment.get("function") or {}
                if function.get("name"):
                    slot["name"] = function["name"]
                arguments = function.get("arguments")
                if isinstance(arguments, str):
                    slot["arguments"] += arguments
                elif isinstance(arguments, dict):
                    slot["arguments"] = json.dumps(arguments)
            if choice.get("finish_reason"):
                finish_reason = choice["finish_reason"]
                if finish_reason == "error":
                    raise LLMError(
                        "The model stopped with an error.", kind="server", retryable=True
                    )
    tool_calls, extras = [], {}
    for _, slot in sorted(calls.items()):
        call = ToolCall.from_raw(
            {"id": slot["id"], "name": slot["name"], "arguments": slot["arguments"]}
        )
        tool_calls.append(call)
        if slot.get("extra"):
            extras[call.id] = slot["extra"]
    return with_text_calls(
        LLMResponse(
            text="".join(text),
            tool_calls=tool_calls,
            finish_reason=finish_reason,
            usage=usage,
            provider="openai",
            model=model,
            tool_call_extras=extras,
        )
    )


def accumulate_anthropic_stream(events: Iterable[SSEEvent]) -> LLMResponse:
    blocks: dict[int, dict[str, Any]] = {}
    stop_reason = ""
    usage = Usage()
    model = ""
    for event in events:
        payload = event.json()
        if not isinstance(payload, dict):
            continue
        kind = payload.get("type") or event.event
        if kind == "error" or event.event == "error":
            raise error_from_response(200, {"type": "error", "error": payload.get("error") or {}})
        if kind == "message_start":
            message = payload.get("message") or {}
            model = str(message.get("model") or "")
            usage.prompt_tokens = int((message.get("usage") or {}).get("input_tokens") or 0)
        elif kind == "content_block_start":
            block = dict(payload.get("content_block") or {})
            block["_json"] = ""
            blocks[int(payload.get("index", len(blocks)))] = block
        elif kind == "content_block_delta":
            block = blocks.setdefault(int(payload.get("index", 0)), {"type": "text", "text": ""})
            delta = payload.get("delta") or {}
            if delta.get("type") == "text_delta":
                block["text"] = block.get("text", "") + str(delta.get("text") or "")
            elif delta.get("type") == "input_json_delta":
                block["_json"] = block.get("_json", "") + str(delta.get("partial_json") or "")
        elif kind == "message_delta":
            stop_reason = (payload.get("delta") or {}).get("stop_reason") or stop_reason
            delta_usage = payload.get("usage") or {}
            if delta_usage.get("output_tokens") is not None:
                usage.completion_tokens = int(delta_usage["output_tokens"])
    texts: list[str] = []
    calls: list[ToolCall] = []
    for _, block in sorted(blocks.items()):
        if block.get("type") == "text" and block.get("text"):
            texts.append(block["text"])
        elif block.get("type") == "tool_use":
            arguments: Any = (
                block["_json"] if block.get("_json", "").strip() else block.get("input")
            )
            calls.append(
                ToolCall.from_raw(
                    {"id": block.get("id"), "name": block.get("name"), "arguments": arguments}
                )
            )
    return with_text_calls(
        LLMResponse(
            text="\n\n".join(texts),
            tool_calls=calls,
            finish_reason=stop_reason,
            usage=usage,
            provider="anthropic",
            model=model,
        )
    )


def accumulate_ollama_ndjson(chunks: Iterable[dict[str, Any] | str | bytes]) -> LLMResponse:
    text: list[str] = []
    calls: list[ToolCall] = []
    done_reason = ""
    usage = Usage()
    model = ""
    for chunk in chunks:
        if isinstance(chunk, bytes | str):
            if not chunk.strip():
                continue
            chunk = json.loads(chunk)
        if isinstance(chunk.get("error"), str):
            raise LLMError(chunk["error"], kind="server", retryable=False)
        model = model or str(chunk.get("model") or "")
        message = chunk.get("message") or {}
        if isinstance(message.get("content"), str):
            text.append(message["content"])
        calls.extend(ToolCall.from_raw(raw) for raw in message.get("tool_calls") or [])
        if chunk.get("done"):
            done_reason = str(chunk.get("done_reason") or "")
            usage = Usage(
                prompt_tokens=int(chunk.get("prompt_eval_count") or 0),
                completion_tokens=int(chunk.get("eval_count") or 0),
            )
    return with_text_calls(
        LLMResponse(
            text="".join(text),
            tool_calls=calls,
            finish_reason=done_reason,
            usage=usage,
            provider="ollama",
            model=model,
        )
    )
