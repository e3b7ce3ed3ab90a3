"""The coach's language model, behind one ``Provider`` interface (``coach.llm.base``).

``get_provider()`` builds the configured provider from settings:

* ``LLM_PROVIDER="openai"``: any OpenAI-compatible chat completions server at ``LLM_BASE_URL``
  (OpenAI, OpenRouter, Ollama's ``/v1``, vLLM, llama.cpp, Gemini's compatibility endpoint);
* ``LLM_PROVIDER="anthropic"``: the Anthropic Messages API (``LLM_BASE_URL`` optional);
* ``LLM_PROVIDER="offline"`` (the default with nothing configured): the offline command parser.

Time-outs, retries and the token budget come from ``LLM_CONNECT_TIMEOUT``, ``LLM_READ_TIMEOUT``,
``LLM_MAX_RETRIES``, ``LLM_MAX_RETRY_WAIT`` and ``LLM_MAX_TOKENS``.

``LLM_TOOL_FORMAT`` is ``"native"`` (the default: the protocol's own ``tools``) or ``"text"`` (for
models without tool support: the tools are described in the system prompt and the model writes
``[TOOL_CALL:{...}]`` markers, see ``coach.llm.textformat``). Markers in a reply are turned into
tool calls in both formats.
"""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from coach.llm.anthropic import AnthropicProvider
from coach.llm.base import LLMError, LLMResponse, Provider, Turn, Usage
from coach.llm.offline import OfflineProvider
from coach.llm.openai import OpenAIProvider
from coach.llm.textformat import TOOL_FORMATS

__all__ = ["LLMError", "LLMResponse", "Provider", "Turn", "Usage", "get_provider"]

DEFAULT_MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-haiku-4-5"}


def _http_options(overrides: dict[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {
        "connect_timeout": settings.LLM_CONNECT_TIMEOUT,
        "read_timeout": settings.LLM_READ_TIMEOUT,
        "max_retries": settings.LLM_MAX_RETRIES,
        "max_retry_wait": settings.LLM_MAX_RETRY_WAIT,
        "max_tokens": settings.LLM_MAX_TOKENS,
        "tool_format": tool_format(),
    }
    options.update(overrides)
    return options


def tool_format() -> str:
    """``LLM_TOOL_FORMAT``, checked: ``"native"`` or ``"text"``."""
    value = str(getattr(settings, "LLM_TOOL_FORMAT", "native") or "native").strip().lower()
    if value not in TOOL_FORMATS:
        raise ImproperlyConfigured(
            f'LLM_TOOL_FORMAT is "{settings.LLM_TOOL_FORMAT}"; use '
            + " or ".join(f'"{name}"' for name in TOOL_FORMATS)
            + "."
        )
    return value


def get_provider(**overrides: Any) -> Provider:
    """The provider the settings name. ``overrides`` (e.g. ``sleep=``) go to its constructor.

    Without overrides the provider is reused for as long as the settings stay the same: its
    httpx client keeps connections alive, and building one costs about 20 ms (the TLS context)."""
    if overrides:
        return _build_provider(**overrides)
    key = (
        settings.LLM_PROVIDER,
        settings.LLM_BASE_URL,
        settings.LLM_API_KEY,
        settings.LLM_MODEL,
        settings.LLM_CONNECT_TIMEOUT,
        settings.LLM_READ_TIMEOUT,
        settings.LLM_MAX_RETRIES,
        settings.LLM_MAX_RETRY_WAIT,
        settings.LLM_MAX_TOKENS,
        tool_format(),
    )
    with _cache_lock:
        provider = _providers.get(key)
        if provider is None:
            while len(_providers) >= MAX_CACHED_PROVIDERS:  # settings changed: drop the oldest
                old = _providers.pop(next(iter(_providers)))
                if hasattr(old, "close"):
                    old.close()
            provider = _providers[key] = _build_provider()
    return provider


MAX_CACHED_PROVIDERS = 4
_providers: dict[tuple[Any, ...], Provider] = {}
_cache_lock = threading.Lock()


def _build_provider(**overrides: Any) -> Provider:
    kind = (settings.LLM_PROVIDER or "offline").strip().lower()
    if kind == "offline":
        return OfflineProvider()
    model = settings.LLM_MODEL or DEFAULT_MODELS.get(kind, "")
    if kind == "openai":
        return OpenAIProvider(
            base_url=settings.LLM_BASE_URL,
            api_key=settings.LLM_API_KEY,
            model=model,
            **_http_options(overrides),
        )
    if kind == "anthropic":
        return AnthropicProvider(
            base_url=settings.LLM_BASE_URL,
            api_key=settings.LLM_API_KEY,
            model=model,
            **_http_options(overrides),
        )
    raise ImproperlyConfigured(
        f'LLM_PROVIDER is "{settings.LLM_PROVIDER}"; use "openai", "anthropic" or "offline".'
    )
