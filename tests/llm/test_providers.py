"""The HTTP providers against real local servers: request bodies, response parsing, get_provider.

Retries, back-off, time-outs and error kinds are in test_provider_retries.py.
"""

from __future__ import annotations

import itertools

import pytest

from coach.llm import get_provider
from coach.llm.anthropic import AnthropicProvider
from coach.llm.base import Turn
from coach.llm.offline import OfflineProvider
from coach.llm.openai import OpenAIProvider
from coach.toolcalls import ToolCall
from tests.llm.provider_support import payload

TOOLS = [
    {
        "name": "remove_week",
        "description": "Remove a week.",
        "input_schema": {
            "type": "object",
            "properties": {"weekNumber": {"type": "integer"}},
            "required": ["weekNumber"],
        },
    }
]


def conversation_with_tool_results() -> list[Turn]:
    """user → assistant with two calls → two tool results → a user follow-up."""
    return [
        Turn(role="user", content="Drop weeks 2 and 3"),
        Turn(
            role="assistant",
            content="I'll remove both weeks.",
            tool_calls=[
                ToolCall(id="call_a", name="remove_week", arguments={"weekNumber": 3}),
                ToolCall(id="call_b", name="remove_week", arguments={"weekNumber": 2}),
            ],
        ),
        Turn(role="tool", tool_call_id="call_a", content="Success"),
        Turn(role="tool", tool_call_id="call_b", content="Error: week 2 is locked", is_error=True),
        Turn(role="user", content="Thanks, what changed?"),
    ]


# --- OpenAI-compatible ---------------------------------------------------------------------------


def test_openai_text_reply_and_request_shape(fake_openai_server):
    fake_openai_server.enqueue_openai_text("Hello there")
    provider = fake_openai_server.provider(max_tokens=321)

    response = provider.complete(
        system="Be brief.", turns=[Turn(role="user", content="Hi")], tools=TOOLS
    )

    assert response.text == "Hello there"
    assert response.tool_calls == []
    assert response.finish_reason == "stop"
    assert (response.usage.prompt_tokens, response.usage.completion_tokens) == (10, 5)
    request = fake_openai_server.last_request
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer test-key"
    assert request.json["model"] == "fake-model"
    assert request.json["max_tokens"] == 321
    assert request.json["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
    ]
    assert request.json["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "remove_week",
                "description": "Remove a week.",
                "parameters": TOOLS[0]["input_schema"],
            },
        }
    ]


def test_openai_without_api_key_sends_no_authorization(fake_openai_server):
    provider = fake_openai_server.provider(api_key="")
    provider.complete(system="", turns=[Turn(role="user", content="Hi")], tools=[])
    assert "authorization" not in fake_openai_server.last_request.headers


def test_openai_tool_calls_with_string_object_and_broken_arguments(fake_openai_server):
    fake_openai_server.enqueue_openai_tool_calls(
        [
            ("call_1", "remove_week", {"weekNumber": 2}),
            ("", "remove_week", ""),
            ("call_3", "remove_week", "{not json"),
        ],
        text="Removing.",
    )
    response = fake_openai_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=TOOLS
    )
    first, second, third = response.tool_calls
    assert (first.id, first.name, first.arguments) == ("call_1", "remove_week", {"weekNumber": 2})
    assert second.id.startswith("call_") and second.arguments == {}
    assert third.arguments_error is not None and third.raw_arguments == "{not json"
    assert response.text == "Removing."
    assert response.finish_reason == "tool_calls"


def test_openai_tool_results_answer_every_call_id_as_role_tool(fake_openai_server):
    provider = fake_openai_server.provider()
    provider.complete(system="S", turns=conversation_with_tool_results(), tools=TOOLS)

    messages = fake_openai_server.last_request.json["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "tool", "user"]
    assistant = messages[2]
    assert assistant["content"] == "I'll remove both weeks."
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_a", "call_b"]
    assert assistant["tool_calls"][0] == {
        "id": "call_a",
        "type": "function",
        "function": {"name": "remove_week", "arguments": '{"weekNumber": 3}'},
    }
    assert {m["tool_call_id"] for m in messages if m["role"] == "tool"} == {"call_a", "call_b"}
    assert messages[4]["content"] == "Error: week 2 is locked"


def test_openai_assistant_without_text_sends_null_content(fake_openai_server):
    turns = [
        Turn(role="user", content="x"),
        Turn(role="assistant", tool_calls=[ToolCall(id="c1", name="remove_week", arguments={})]),
        Turn(role="tool", tool_call_id="c1", content="ok"),
    ]
    fake_openai_server.provider().complete(system="", turns=turns, tools=TOOLS)
    assert fake_openai_server.last_request.json["messages"][1]["content"] is None


def test_openai_unparseable_arguments_are_sent_back_as_the_model_wrote_them(fake_openai_server):
    bad = ToolCall.from_raw({"id": "c1", "name": "remove_week", "arguments": "{oops"})
    turns = [
        Turn(role="user", content="x"),
        Turn(role="assistant", tool_calls=[bad]),
        Turn(role="tool", tool_call_id="c1", content="Error: bad JSON", is_error=True),
    ]
    fake_openai_server.provider().complete(system="", turns=turns, tools=TOOLS)
    sent = fake_openai_server.last_request.json["messages"][1]["tool_calls"][0]
    assert sent["function"]["arguments"] == "{oops"


def test_openai_accepts_base_url_without_v1(fake_openai_server):
    provider = OpenAIProvider(base_url=fake_openai_server.root_url, model="m", sleep=lambda s: None)
    provider.complete(system="", turns=[Turn(role="user", content="x")], tools=[])
    provider.close()
    assert fake_openai_server.last_request.path == "/chat/completions"


# --- Anthropic -----------------------------------------------------------------------------------


def test_anthropic_tool_use_and_request_shape(fake_anthropic_server):
    fake_anthropic_server.enqueue_anthropic_tool_use(
        [("toolu_1", "remove_week", {"weekNumber": 2})], text="OK."
    )
    provider = fake_anthropic_server.provider(max_tokens=500)

    response = provider.complete(
        system="Be brief.", turns=[Turn(role="user", content="Drop week 2")], tools=TOOLS
    )

    assert response.text == "OK."
    assert [(c.id, c.name, c.arguments) for c in response.tool_calls] == [
        ("toolu_1", "remove_week", {"weekNumber": 2})
    ]
    assert response.finish_reason == "tool_use"
    request = fake_anthropic_server.last_request
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == "test-key"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in request.headers
    assert request.json["system"] == "Be brief."
    assert request.json["max_tokens"] == 500
    assert request.json["tools"] == [TOOLS[0]]
    assert request.json["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Drop week 2"}]}
    ]


def test_anthropic_tool_results_are_one_user_message_with_the_following_text_merged(
    fake_anthropic_server,
):
    fake_anthropic_server.provider().complete(
        system="S", turns=conversation_with_tool_results(), tools=TOOLS
    )

    messages = fake_anthropic_server.last_request.json["messages"]
    roles = [m["role"] for m in messages]
    assert roles == ["user", "assistant", "user"]
    assert all(a != b for a, b in itertools.pairwise(roles))
    assert messages[1]["content"] == [
        {"type": "text", "text": "I'll remove both weeks."},
        {"type": "tool_use", "id": "call_a", "name": "remove_week", "input": {"weekNumber": 3}},
        {"type": "tool_use", "id": "call_b", "name": "remove_week", "input": {"weekNumber": 2}},
    ]
    assert messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "call_a", "content": "Success"},
        {
            "type": "tool_result",
            "tool_use_id": "call_b",
            "content": "Error: week 2 is locked",
            "is_error": True,
        },
        {"type": "text", "text": "Thanks, what changed?"},
    ]


def test_anthropic_consecutive_user_turns_merge_and_first_message_is_user(fake_anthropic_server):
    turns = [
        Turn(role="assistant", content="Welcome!"),
        Turn(role="user", content="one"),
        Turn(role="user", content="two"),
    ]
    fake_anthropic_server.provider().complete(system="", turns=turns, tools=[])
    messages = fake_anthropic_server.last_request.json["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[2]["content"] == [
        {"type": "text", "text": "one"},
        {"type": "text", "text": "two"},
    ]
    assert "system" not in fake_anthropic_server.last_request.json


def test_anthropic_recorded_tool_use_payload_through_http(fake_anthropic_server):
    fake_anthropic_server.enqueue(json=payload("anthropic_tool_use_with_caller.json"))
    response = fake_anthropic_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=[]
    )
    assert response.tool_calls[0].arguments == {"location": "San Francisco, CA", "units": "f"}


def test_anthropic_base_url_with_v1_is_accepted(fake_anthropic_server):
    provider = AnthropicProvider(base_url=fake_anthropic_server.root_url + "/v1", model="m")
    provider.complete(system="", turns=[Turn(role="user", content="x")], tools=[])
    provider.close()
    assert fake_anthropic_server.last_request.path == "/v1/messages"


# --- the fake server and get_provider ------------------------------------------------------------


def test_fake_server_answers_ok_by_default_in_each_protocol(fake_openai_server):
    openai_reply = fake_openai_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=[]
    )
    assert openai_reply.text == "OK"
    fake_openai_server.protocol = "anthropic"
    anthropic_reply = fake_openai_server.provider().complete(
        system="", turns=[Turn(role="user", content="x")], tools=[]
    )
    assert anthropic_reply.text == "OK"
    assert [r.path for r in fake_openai_server.requests] == ["/v1/chat/completions", "/v1/messages"]


def test_get_provider_follows_settings(settings, fake_openai_server, fake_anthropic_server):
    settings.LLM_PROVIDER = "offline"
    assert isinstance(get_provider(), OfflineProvider)

    settings.LLM_PROVIDER = "openai"
    settings.LLM_BASE_URL = fake_openai_server.base_url
    settings.LLM_MODEL = "my-model"
    settings.LLM_READ_TIMEOUT = 7.0
    provider = get_provider()
    assert isinstance(provider, OpenAIProvider)
    assert provider.http.client.timeout.read == 7.0
    assert (
        provider.complete(system="", turns=[Turn(role="user", content="x")], tools=[]).text == "OK"
    )
    assert fake_openai_server.last_request.json["model"] == "my-model"

    settings.LLM_PROVIDER = "anthropic"
    settings.LLM_BASE_URL = fake_anthropic_server.base_url
    provider = get_provider()
    assert isinstance(provider, AnthropicProvider)
    assert (
        provider.complete(system="", turns=[Turn(role="user", content="x")], tools=[]).text == "OK"
    )


def test_get_provider_rejects_an_unknown_provider(settings):
    from django.core.exceptions import ImproperlyConfigured

    settings.LLM_PROVIDER = "carrier-pigeon"
    with pytest.raises(ImproperlyConfigured, match="carrier-pigeon"):
        get_provider()


def test_settings_fixture_points_get_provider_at_the_fake(llm_settings_anthropic):
    llm_settings_anthropic.enqueue_anthropic_text("from settings")
    assert (
        get_provider().complete(system="", turns=[Turn(role="user", content="x")], tools=[]).text
        == "from settings"
    )


def test_get_provider_reuses_one_client_while_the_settings_stay_the_same(settings):

    settings.LLM_PROVIDER = "openai"
    settings.LLM_BASE_URL = "http://127.0.0.1:9/v1"
    first = get_provider()
    assert get_provider() is first
    settings.LLM_MODEL = "another-model"
    second = get_provider()
    assert second is not first and second.model == "another-model"
    assert get_provider(max_retries=0) is not second  # overrides always build a new one
