"""One athlete's posting is rate-limited (``CHAT_RATE_LIMIT_PER_MINUTE``, 10 by default): the
chat says so in the composer, with status 429 (which the page's htmx config swaps in), and the
message stays in the box."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from chat import services
from chat.models import Message
from tests.factories import build_program

HX = {"HX-Request": "true"}


@pytest.fixture
def conversation(db):
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    return services.conversation_for_athlete(athlete=program.athlete)


@pytest.fixture
def athlete_client(client, conversation):
    client.force_login(conversation.athlete)
    return client


def post(client, conversation, text, **headers):
    url = reverse("chat:message_send", args=[conversation.pk])
    return client.post(url, {"text": text}, headers=headers)


def test_a_burst_of_30_messages_saves_the_first_10_and_refuses_the_rest_keeping_the_text(
    athlete_client, conversation
):
    responses = [post(athlete_client, conversation, f"message {n}", **HX) for n in range(30)]
    assert [r.status_code for r in responses] == [200] * 10 + [429] * 20
    refused = responses[10].content.decode()
    assert "You can send at most 10 messages a minute." in refused
    assert 'role="alert"' in refused and 'aria-invalid="true"' in refused
    assert ">message 10</textarea>" in refused  # still in the box
    assert int(responses[10]["Retry-After"]) in range(1, 61)
    assert responses[29]["Retry-After"]
    users = Message.objects.filter(conversation=conversation, role=Message.Role.USER)
    assert list(users.order_by("pk").values_list("content", flat=True)) == [
        f"message {n}" for n in range(10)
    ]
    assert Message.objects.filter(conversation=conversation, role="assistant").count() == 10


def test_the_htmx_config_swaps_a_429_into_the_composer(athlete_client, conversation):
    html = athlete_client.get("/").content.decode()
    assert '{"code": "429", "swap": true}' in html


def test_the_limit_frees_up_as_the_minute_passes(athlete_client, conversation):
    for n in range(10):
        assert post(athlete_client, conversation, f"m{n}", **HX).status_code == 200
    assert post(athlete_client, conversation, "one more", **HX).status_code == 429
    # The oldest message is now 61 seconds old: one more may go.
    oldest = Message.objects.filter(role=Message.Role.USER).order_by("pk").first()
    Message.objects.filter(pk=oldest.pk).update(
        created_at=timezone.now() - datetime.timedelta(seconds=61)
    )
    assert post(athlete_client, conversation, "one more", **HX).status_code == 200
    assert post(athlete_client, conversation, "and another", **HX).status_code == 429


def test_retry_after_says_when_the_oldest_message_of_the_minute_leaves_it(conversation, settings):
    settings.CHAT_RATE_LIMIT_PER_MINUTE = 2
    now = timezone.now()
    for seconds in (40, 20):
        Message.objects.create(
            conversation=conversation,
            role=Message.Role.USER,
            content="hi",
        )
        Message.objects.filter(pk=Message.objects.latest("pk").pk).update(
            created_at=now - datetime.timedelta(seconds=seconds)
        )
    with pytest.raises(ValidationError) as caught:
        services.check_rate(athlete_id=conversation.athlete_id, now=now)
    assert caught.value.code == services.RATE_LIMITED
    assert caught.value.params == {"retry_after": 20}
    assert "send it again in 20 seconds" in caught.value.message


def test_the_limit_is_configurable_and_zero_turns_it_off(athlete_client, conversation, settings):
    settings.CHAT_RATE_LIMIT_PER_MINUTE = 3
    codes = [post(athlete_client, conversation, f"m{n}", **HX).status_code for n in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    settings.CHAT_RATE_LIMIT_PER_MINUTE = 0
    assert post(athlete_client, conversation, "unlimited", **HX).status_code == 200


def test_each_athlete_has_their_own_limit(client, athlete_client, conversation):
    for n in range(10):
        post(athlete_client, conversation, f"m{n}", **HX)
    other_program = build_program(weeks=1, sessions=1, exercises=1)
    other = services.conversation_for_athlete(athlete=other_program.athlete)
    client.force_login(other.athlete)
    assert post(client, other, "my first message", **HX).status_code == 200


def test_without_htmx_the_page_comes_back_with_the_text_and_the_reason(
    athlete_client, conversation, settings
):
    settings.CHAT_RATE_LIMIT_PER_MINUTE = 1
    assert post(athlete_client, conversation, "first").status_code == 302
    response = post(athlete_client, conversation, "second")
    assert response.status_code == 429
    html = response.content.decode()
    assert ">second</textarea>" in html
    assert "You can send at most 1 message a minute." in html
