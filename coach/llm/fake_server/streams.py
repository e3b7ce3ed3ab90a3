"""Streamed answers of the fake LLM server, as the real servers write them (see
``tests/llm/payloads``): OpenAI-compatible chunks ending in ``[DONE]``, Anthropic's typed events.
Each list item is one write; the first write carries the first token, so the time it was sent is
the provider's time to first token."""

from __future__ import annotations

import json
from typing import Any

Call = tuple[str, str, dict[str, Any] | str]


def _words(text: str) -> list[str]:
    """``text`` cut after each space, so the pieces join back to it exactly."""
    pieces, current = [], ""
    for char in text:
        current += char
        if char == " ":
            pieces.append(current)
            current = ""
    return pieces + ([current] if current else [])


def _sse(data: Any, event: str | None = None) -> str:
    head = f"event: {event}\n" if event else ""
    body = data if isinstance(data, str) else json.dumps(data)
    return f"{head}data: {body}\n\n"


def openai_stream_chunks(
    text: str, calls: list[Call], *, pieces: list[str] | None = None, model: str = "fake-model"
) -> list[str]:
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model}
    chunks = [_sse({**base, "choices": [{"index": 0, "delta": {"role": "assistant"}}]})]
    for piece in pieces if pieces is not None else _words(text):
        chunks.append(_sse({**base, "choices": [{"index": 0, "delta": {"content": piece}}]}))
    chunks[:2] = ["".join(chunks[:2])]  # the first write carries the first token
    for index, (call_id, name, args) in enumerate(calls):
        arguments = args if isinstance(args, str) else json.dumps(args)
        fragment = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        }
        chunks.append(
            _sse({**base, "choices": [{"index": 0, "delta": {"tool_calls": [fragment]}}]})
        )
    finish = "tool_calls" if calls else "stop"
    chunks.append(_sse({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}))
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    chunks.append(_sse({**base, "choices": [], "usage": usage}))
    chunks.append(_sse("[DONE]"))
    return chunks


def anthropic_stream_chunks(
    text: str, calls: list[Call], *, pieces: list[str] | None = None, model: str = "fake-model"
) -> list[str]:
    message = {"id": "msg_fake", "type": "message", "role": "assistant", "model": model}
    message.update({"content": [], "usage": {"input_tokens": 10, "output_tokens": 1}})
    chunks = [_sse({"type": "message_start", "message": message}, "message_start")]
    index = 0
    if text or pieces:
        start = {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}}
        start["content_block"]["text"] = ""
        chunks.append(_sse(start, "content_block_start"))
        for piece in pieces if pieces is not None else _words(text):
            delta = {"type": "content_block_delta", "index": 0}
            delta["delta"] = {"type": "text_delta", "text": piece}
            chunks.append(_sse(delta, "content_block_delta"))
        chunks.append(_sse({"type": "content_block_stop", "index": 0}, "content_block_stop"))
        index = 1
    chunks[:3] = ["".join(chunks[:3])]  # the first write carries the first token
    for call_id, name, args in calls:
        block = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
        chunks.append(
            _sse(
                {"type": "content_block_start", "index": index, "content_block": block},
                "content_block_start",
            )
        )
        partial = args if isinstance(args, str) else json.dumps(args)
        delta = {"type": "content_block_delta", "index": index}
        delta["delta"] = {"type": "input_json_delta", "partial_json": partial}
        chunks.append(_sse(delta, "content_block_delta"))
        chunks.append(_sse({"type": "content_block_stop", "index": index}, "content_block_stop"))
        index += 1
    stop = {"type": "message_delta", "delta": {"stop_reason": "tool_use" if calls else "end_turn"}}
    stop["usage"] = {"output_tokens": 5}
    chunks.append(_sse(stop, "message_delta"))
    chunks.append(_sse({"type": "message_stop"}, "message_stop"))
    return chunks
