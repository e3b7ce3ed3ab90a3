"""Suite-wide fixtures: fake LLM servers (registered by ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coach.llm.fake_server import FakeLLMServer


@pytest.fixture
def fake_openai_server() -> Iterator[FakeLLMServer]:
    """A started OpenAI-compatible fake; ``.base_url`` ends in ``/v1``; ``.provider()``."""
    with FakeLLMServer(protocol="openai") as server:
        yield server


@pytest.fixture
def fake_anthropic_server() -> Iterator[FakeLLMServer]:
    """A started Anthropic Messages fake; ``.base_url`` is its root; ``.provider()``."""
    with FakeLLMServer(protocol="anthropic") as server:
        yield server


@pytest.fixture
def llm_settings_openai(settings, fake_openai_server: FakeLLMServer) -> FakeLLMServer:
    """Django settings pointing ``get_provider()`` at the OpenAI fake (no real waits)."""
    settings.LLM_PROVIDER = "openai"
    settings.LLM_BASE_URL = fake_openai_server.base_url
    settings.LLM_API_KEY = "test-key"
    settings.LLM_MODEL = "fake-model"
    settings.LLM_MAX_RETRIES = 1
    settings.LLM_MAX_RETRY_WAIT = 0.05
    return fake_openai_server


@pytest.fixture
def llm_settings_anthropic(settings, fake_anthropic_server: FakeLLMServer) -> FakeLLMServer:
    """Django settings pointing ``get_provider()`` at the Anthropic fake (no real waits)."""
    settings.LLM_PROVIDER = "anthropic"
    settings.LLM_BASE_URL = fake_anthropic_server.base_url
    settings.LLM_API_KEY = "test-key"
    settings.LLM_MODEL = "fake-model"
    settings.LLM_MAX_RETRIES = 1
    settings.LLM_MAX_RETRY_WAIT = 0.05
    return fake_anthropic_server
