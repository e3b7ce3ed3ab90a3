"""The chat page and its message endpoints (send and poll), through Django's test client: the
page and login, sending, polling, who may reach a conversation or message, CSRF, the template
filters and the program panel's paging. The batch card's Apply and Cancel are in
``test_batch_endpoints.py``.

htmx requests carry the ``HX-Request`` header; without it every endpoint still works as a plain
form post that redirects to the chat page.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from chat.models import Message
from chat.templatetags.chat_tags import humanize_field, show_value
from programs.services import object_update
from tests.chat.views.support import HX, first_exercise, make_batch, rename_call
from tests.factories import UserFactory

# --- helpers ------------------------------------------------------------------------------------


def coach_reply(
    conversation, *, content: str, status=Message.Status.COMPLETE, replies=None
) -> Message:
    user = Message.objects.create(
        conversation=conversation, role=Message.Role.USER, content="question"
    )
    return Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        content=content,
        status=status,
        reply_to=user,
        suggested_replies=replies or [],
    )


# --- the page -----------------------------------------------------------------------------------


def test_chat_page_redirects_an_anonymous_visitor_to_the_login_page(client, db):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_an_htmx_request_after_the_session_expired_sends_the_page_to_the_login_form(
    client, conversation
):
    url = reverse("chat:message_send", args=[conversation.pk])
    response = client.post(url, {"text": "hello"}, headers=HX)
    assert response["HX-Redirect"] == "/accounts/login/?next=/"
    assert conversation.messages.count() == 0


def test_login_page_renders_a_labelled_form(client, db):
    response = client.get("/accounts/login/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Log in to Spotter" in html
    assert 'name="username"' in html and 'name="password"' in html


def test_logging_in_lands_the_athlete_on_the_chat(client, athlete):
    response = client.post(
        "/accounts/login/", {"username": athlete.username, "password": "pw-for-tests"}, follow=True
    )
    assert response.redirect_chain[-1][0] == "/"
    assert ">Send</button>" in response.content.decode()


def test_chat_page_shows_the_current_week_and_a_send_button(athlete_client, program):
    response = athlete_client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="program-panel"' in html
    assert "Week 1" in html
    assert "Back Squat" in html
    assert ">Send</button>" in html
    assert 'name="text"' in html
    assert 'hx-headers=\'{"x-csrftoken": "' in html


def test_athlete_without_a_program_sees_a_friendly_page(client, db):
    client.force_login(UserFactory())
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "No program yet" in html
    assert ">Send</button>" not in html


def test_offline_provider_shows_a_badge_and_the_help_hint(athlete_client, settings):
    settings.LLM_PROVIDER = "offline"
    html = athlete_client.get("/").content.decode()
    assert "Offline coach" in html
    assert "<kbd>help</kbd>" in html


def test_a_configured_provider_is_named_in_the_header_without_the_offline_badge(
    athlete_client, settings
):
    settings.LLM_PROVIDER = "openai"
    settings.LLM_MODEL = "gpt-test"
    html = athlete_client.get("/").content.decode()
    assert "Offline coach" not in html
    assert "openai · gpt-test" in html


def test_program_partial_renders_only_the_panel_for_htmx(athlete_client, program):
    response = athlete_client.get(reverse("chat:program"), headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<aside id="program-panel"')
    assert "<html" not in html


def test_history_shows_user_coach_and_event_messages_but_not_tool_results(
    athlete_client, conversation
):
    coach_reply(conversation, content="Hello from your coach")
    Message.objects.create(
        conversation=conversation, role=Message.Role.EVENT, content="You applied the changes."
    )
    Message.objects.create(
        conversation=conversation,
        role=Message.Role.TOOL,
        content="SECRET TOOL RESULT",
        tool_call_id="x",
    )
    html = athlete_client.get("/").content.decode()
    assert 'class="bubble bubble-user"' in html
    assert "Hello from your coach" in html
    assert 'class="event-line"' in html
    assert "SECRET TOOL RESULT" not in html


# --- sending ------------------------------------------------------------------------------------


def test_posting_a_message_saves_it_and_returns_the_bubble_and_a_thinking_placeholder(
    athlete_client, conversation
):
    url = reverse("chat:message_send", args=[conversation.pk])
    response = athlete_client.post(url, {"text": "  Can I swap squats?  "}, headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    user_msg = conversation.messages.get(role=Message.Role.USER)
    placeholder = conversation.messages.get(role=Message.Role.ASSISTANT)
    assert user_msg.content == "Can I swap squats?"
    assert placeholder.reply_to_id == user_msg.pk
    # the composer comes back empty and enabled; the bubbles are appended out of band
    assert html.lstrip().startswith('<form id="composer"')
    assert "></textarea>" in html
    assert 'hx-swap-oob="beforeend:#messages"' in html
    assert "Can I swap squats?" in html
    assert reverse("chat:message_poll", args=[placeholder.pk]) in html
    assert "Coach is thinking" in html


def test_posting_without_htmx_redirects_to_the_chat(athlete_client, conversation):
    url = reverse("chat:message_send", args=[conversation.pk])
    response = athlete_client.post(url, {"text": "hello"})
    assert response.status_code == 302
    assert response["Location"] == reverse("chat:conversation", args=[conversation.pk])
    assert conversation.messages.filter(role=Message.Role.USER).count() == 1


def test_an_empty_message_gives_an_inline_error_and_saves_nothing(athlete_client, conversation):
    url = reverse("chat:message_send", args=[conversation.pk])
    response = athlete_client.post(url, {"text": "   "}, headers=HX)
    html = response.content.decode()
    assert response.status_code == 422
    assert "Type a message first." in html
    assert 'aria-invalid="true"' in html
    assert conversation.messages.count() == 0


def test_a_too_long_message_keeps_the_text_in_the_box(athlete_client, conversation):
    url = reverse("chat:message_send", args=[conversation.pk])
    text = "x" * 4001
    response = athlete_client.post(url, {"text": text}, headers=HX)
    html = response.content.decode()
    assert response.status_code == 422
    assert "at most 4000 characters (yours has 4001)" in html
    assert f">{text}</textarea>" in html
    assert conversation.messages.count() == 0


def test_a_message_with_markup_is_escaped(athlete_client, conversation):
    url = reverse("chat:message_send", args=[conversation.pk])
    response = athlete_client.post(url, {"text": "<script>alert(1)</script>"}, headers=HX)
    html = response.content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = athlete_client.get("/").content.decode()
    assert "<script>alert(1)</script>" not in page


def test_an_exercise_name_with_markup_is_escaped_on_the_panel_and_the_card(
    athlete_client, conversation, program
):
    object_update(obj=first_exercise(program), fields={"name": "<script>x()</script>"})
    make_batch(conversation, [rename_call("<img src=x onerror=alert(1)>", exercise=2)])
    html = athlete_client.get("/").content.decode()
    assert "<script>x()</script>" not in html
    assert "&lt;script&gt;x()&lt;/script&gt;" in html
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


# --- polling ------------------------------------------------------------------------------------


def test_polling_a_pending_reply_returns_the_placeholder_again(athlete_client, conversation):
    reply = coach_reply(conversation, content="", status=Message.Status.PENDING)
    response = athlete_client.get(
        reverse("chat:message_poll", args=[reply.pk]) + "?attempt=2", headers=HX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Coach is thinking" in html
    assert "attempt=3" in html
    assert 'hx-trigger="load delay:400ms"' in html


def test_polling_a_finished_reply_returns_the_bubble_and_suggested_replies(
    athlete_client, conversation
):
    reply = coach_reply(
        conversation, content="Squats are great.", replies=["Tell me more", "Thanks"]
    )
    response = athlete_client.get(reverse("chat:message_poll", args=[reply.pk]), headers=HX)
    html = response.content.decode()
    assert html.lstrip().startswith(f'<div class="bubble bubble-coach" id="message-{reply.pk}"')
    assert "Squats are great." in html
    assert "Coach is thinking" not in html
    assert '<div id="suggestions" class="suggestions" hx-swap-oob="true">' in html
    assert ">Tell me more</button>" in html
    assert '<aside id="program-panel" class="program-panel"' in html
    assert (
        '<div id="batch-card" class="batch-region" hx-include="#program-version" hx-swap-oob="true">'
        in html
    )
    assert "Apply Changes" not in html


def test_polling_a_reply_that_proposed_changes_shows_the_card_and_hides_suggestions(
    athlete_client, conversation
):
    reply = coach_reply(conversation, content="I can rename it.", replies=["Yes please"])
    batch = make_batch(conversation, [rename_call("Goblet Squat")])
    html = athlete_client.get(
        reverse("chat:message_poll", args=[reply.pk]), headers=HX
    ).content.decode()
    assert "Proposed changes" in html
    assert "Goblet Squat" in html
    assert ">Apply Changes</button>" in html
    assert ">Cancel</button>" in html
    assert f'name="revision" value="{batch.revision}"' in html
    assert reverse("chat:batch_apply", args=[batch.pk]) in html
    assert "Yes please" not in html


def test_polling_a_failed_reply_shows_it_as_an_error_bubble(athlete_client, conversation):
    reply = coach_reply(
        conversation, content="The coach is unavailable right now.", status=Message.Status.FAILED
    )
    html = athlete_client.get(
        reverse("chat:message_poll", args=[reply.pk]), headers=HX
    ).content.decode()
    assert "bubble-error" in html
    assert "The coach is unavailable right now." in html


def test_the_poll_view_makes_a_bounded_number_of_queries(
    athlete_client, conversation, django_assert_max_num_queries
):
    reply = coach_reply(conversation, content="Here you go", replies=["Thanks"])
    make_batch(conversation, [rename_call("Goblet Squat")])
    url = reverse("chat:message_poll", args=[reply.pk])
    # session, user, the status, the reply, undoable, batch, and the week (cold cache: 3)
    with django_assert_max_num_queries(9):
        response = athlete_client.get(url, headers=HX)
    assert response.status_code == 200


# --- everyone sees only their own ---------------------------------------------------------------


def test_another_athletes_conversation_is_a_404(intruder_client, conversation):
    url = reverse("chat:message_send", args=[conversation.pk])
    response = intruder_client.post(url, {"text": "hi"}, headers=HX)
    assert response.status_code == 404
    assert conversation.messages.count() == 0


def test_another_athletes_message_is_a_404(intruder_client, conversation):
    reply = coach_reply(conversation, content="private")
    response = intruder_client.get(reverse("chat:message_poll", args=[reply.pk]), headers=HX)
    assert response.status_code == 404


def test_the_endpoints_refuse_the_wrong_method(athlete_client, conversation):
    assert (
        athlete_client.get(reverse("chat:message_send", args=[conversation.pk])).status_code == 405
    )
    assert athlete_client.post("/").status_code == 405


# --- CSRF ---------------------------------------------------------------------------------------


def test_a_post_without_the_csrf_token_is_refused_and_with_the_header_accepted(
    athlete, conversation
):
    client = Client(enforce_csrf_checks=True)
    client.force_login(athlete)
    client.get("/")  # sets the csrftoken cookie
    url = reverse("chat:message_send", args=[conversation.pk])
    refused = client.post(url, {"text": "hello"}, headers=HX)
    assert refused.status_code == 403
    assert conversation.messages.count() == 0
    token = client.cookies["csrftoken"].value
    accepted = client.post(url, {"text": "hello"}, headers={**HX, "X-CSRFToken": token})
    assert accepted.status_code == 200
    assert conversation.messages.filter(role=Message.Role.USER).count() == 1


# --- filters ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("targetLoad", "Target load"),
        ("name", "Name"),
        ("rest_seconds", "Rest seconds"),
        ("workingSets", "Working sets"),
    ],
)
def test_field_names_are_humanised(raw, expected):
    assert humanize_field(raw) == expected


def test_preview_values_read_like_words():
    assert show_value(None) == "—"
    assert show_value(True) == "yes"
    assert show_value(["a", "b"]) == "a, b"
    assert show_value(135) == "135"


def test_the_program_panel_pages_to_another_week_with_and_without_htmx(athlete_client, program):
    url = reverse("chat:program") + "?week=2"
    partial = athlete_client.get(url, headers=HX).content.decode()
    assert "<h2>Week 2 · Accumulation</h2>" in partial
    assert f'href="/program/?week=1&amp;program={program.pk}"' in partial
    assert "<html" not in partial
    page = athlete_client.get(url).content.decode()
    assert "<h2>Week 2 · Accumulation</h2>" in page
    assert ">Send</button>" in page
