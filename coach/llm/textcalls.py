"""Tool calls written in a reply's text (seed 004): ``[TOOL_CALL:{...}]`` markers.

Some models (and every model under ``LLM_TOOL_FORMAT=text``) write their calls in the text:

    Sure, lighter squats. [TOOL_CALL:{"id":"call-1","tool":"set_reps",
    "parameters":{"weekNumber":1,"sessionNumber":1,"exerciseNumber":1,"updates":{"reps":"5"}},
    "confidence":0.9}]

``extract_text_calls(text)`` finds EVERY marker, anywhere in the text (start, middle, end, several),
removes it from the text the athlete sees, tidies the whitespace it leaves, and returns the calls
as ordinary ``ToolCall``s, so the engine can't tell them from native ones:

* ``tool`` or ``name`` is the tool; ``parameters`` or ``arguments`` its arguments (an object, or a
  JSON string of one); ``id`` is kept (a new one is made when it is missing); ``confidence`` (0..1)
  is kept on the call.
* The JSON is read by Python's own decoder, so nested objects and lists, and ``]`` or ``}`` inside
  strings, are read right. A complete JSON object whose closing ``]`` the model forgot is accepted.
* A malformed marker (JSON that does not parse, no tool name, arguments that are not an object, a
  marker cut off before its JSON ends) becomes a call whose ``arguments_error`` says what is wrong,
  so the engine answers it with its parse-error path. Its name is recovered when it can be read
  (``""`` otherwise). It is still removed: a raw ``[TOOL_CALL:`` never reaches the screen; a
  marker with no end takes the rest of the text with it.

``with_text_calls(response)`` applies this to a parsed ``LLMResponse``: its text loses the markers
and its tool calls gain the parsed ones, after the native ones. Every response parser of a model
server calls it (OpenAI-compatible and Anthropic, plain and streamed, Ollama's native chat), in
either ``LLM_TOOL_FORMAT``. The offline provider does not: its text is written by the app, and a
marker in it could only be the athlete's own words echoed back ("I didn't understand ..."), which
must not turn into a proposal the model never made.
"""

from __future__ import annotations

import json
import re
from typing import Any

from coach.llm.base import LLMResponse
from coach.toolcalls import ToolCall, new_call_id, parse_arguments

MARKER = "[TOOL_CALL:"
# The opening of a marker. Case and spaces are forgiven (``[tool_call :``); a reply cut off
# right after ``[TOOL_CALL`` (no colon yet) is an opening too.
_OPENING = re.compile(r"\[\s*TOOL_CALL\s*(?::|\Z)", re.IGNORECASE)
# A name that can still be read from a marker whose JSON is broken.
_NAME_IN_BROKEN_JSON = re.compile(r'"(?:tool|name)"\s*:\s*"([A-Za-z0-9_.-]{1,64})"')
_DECODER = json.JSONDecoder()
# Private-use characters standing for a removed marker while the text is tidied.
_GAP = "\ue000"
_END = "\ue001"


def extract_text_calls(text: str) -> tuple[str, list[ToolCall]]:
    """``(text without the markers, the calls they held, in order)``. See the module docstring."""
    calls: list[ToolCall] = []
    # One round leaves no opening (``_close_gap``); looking again costs nothing and guarantees
    # it. Every round removes at least one marker.
    while text and _OPENING.search(text) is not None:
        text, found = _extract_once(text)
        calls.extend(found)
    return text, calls


def _extract_once(text: str) -> tuple[str, list[ToolCall]]:
    kept: list[str] = []
    calls: list[ToolCall] = []
    position = 0
    while True:
        match = _OPENING.search(text, position)
        if match is None:
            kept.append(text[position:])
            break
        kept.append(text[position : match.start()])
        kept.append(_GAP)
        call, position = _read_marker(text, match.end())
        calls.append(call)
    return _tidy("".join(kept)), calls


def with_text_calls(response: LLMResponse) -> LLMResponse:
    """``response`` with the markers of its text turned into calls (after the native ones)."""
    text, calls = extract_text_calls(response.text or "")
    if calls:
        response.text = text
        response.tool_calls = [*response.tool_calls, *calls]
    return response


# --- one marker ----------------------------------------------------------------------------------


def _read_marker(text: str, start: int) -> tuple[ToolCall, int]:
    """The call of the marker whose body starts at ``start``, and where the marker ends."""
    body_start = _skip_spaces(text, start)
    if text.startswith("{", body_start):
        try:
            data, end = _DECODER.raw_decode(text, body_start)
        except (json.JSONDecodeError, RecursionError):  # nested too deep is broken too
            pass
        else:
            after = _skip_spaces(text, end)
            end = after + 1 if text.startswith("]", after) else end
            return _call_from_json(data, raw=text[body_start:end].rstrip("]")), end
    end = _marker_end(text, body_start)
    if end is None:
        end, raw = len(text), text[body_start:]
        reason = "The [TOOL_CALL:...] marker is not finished (the reply was cut off?)."
    else:
        raw = text[body_start : end - 1]
        reason = "The [TOOL_CALL:...] marker does not hold a valid JSON object."
    found = _NAME_IN_BROKEN_JSON.search(raw)
    return _broken(name=found.group(1) if found else "", reason=reason, raw=raw), end


def _call_from_json(data: Any, *, raw: str) -> ToolCall:
    if not isinstance(data, dict):
        return _broken(
            name="",
            reason=f"A [TOOL_CALL:...] marker must hold a JSON object, not {type(data).__name__}.",
            raw=raw,
        )
    name = data.get("tool") or data.get("name")
    call_id = str(data.get("id") or "") or new_call_id()
    if not isinstance(name, str) or not name.strip():
        return _broken(
            name="", reason='The [TOOL_CALL:...] marker names no "tool".', raw=raw, call_id=call_id
        )
    arguments = data["parameters"] if "parameters" in data else data.get("arguments")
    parsed, error = parse_arguments(arguments)
    if error is not None:
        return _broken(
            name=name.strip(),
            reason=error,
            raw=raw,
            call_id=call_id,
            confidence=data.get("confidence"),
        )
    return ToolCall(
        id=call_id, name=name.strip(), arguments=parsed, confidence=data.get("confidence")
    )


def _broken(
    *,
    name: str,
    reason: str,
    raw: str,
    call_id: str | None = None,
    confidence: Any = None,
) -> ToolCall:
    return ToolCall(
        id=call_id or new_call_id(),
        name=name,
        arguments_error=reason,
        raw_arguments=raw,
        confidence=confidence,
    )


def _skip_spaces(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _marker_end(text: str, position: int) -> int | None:
    """Where a marker whose body is not valid JSON ends: after the first ``]`` outside strings and
    outside any ``{...}``/``[...]`` it opened; ``None`` when there is none."""
    depth = 0
    in_string = False
    escaped = False
    for index in range(position, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif char == "]":
            if depth == 0:
                return index + 1
            depth -= 1
    return None


def _tidy(text: str) -> str:
    """Close the gaps the removed markers (each now one ``_GAP``) leave, and nothing else: a line
    that held only markers goes; a gap inside a line becomes one space, or nothing at either end
    of the line or before punctuation; at most one blank line remains where markers were."""
    text = re.sub(rf"(?m)^[ \t]*{_GAP}(?:[ \t]*{_GAP})*[ \t]*(?:\n|\Z)", _END, text)
    text = re.sub(rf"[ \t]*{_GAP}(?:[ \t]*{_GAP})*[ \t]*", _close_gap, text)
    text = re.sub(rf"\n*{_END}(?:\n*{_END})*\n*", lambda m: "\n" * min(m[0].count("\n"), 2), text)
    return text.strip()


def _close_gap(match: re.Match[str]) -> str:
    text, start, end = match.string, match.start(), match.end()
    at_line_start = start == 0 or text[start - 1] == "\n"
    at_line_end = end == len(text) or text[end] in "\n.,;:!?)"
    if at_line_start or at_line_end or not match.group(0).strip(_GAP):
        # Joining must not make a new opening of two halves ("[TOOL_" + marker + "CALL:").
        joined = _without_gaps(text[max(0, start - 20) : start]) + _without_gaps(text[end:][:20])
        return " " + _END if _OPENING.search(joined) else _END
    return " " + _END


def _without_gaps(text: str) -> str:
    return text.replace(_GAP, "").replace(_END, "")
