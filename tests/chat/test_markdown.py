"""The coach's replies render a safe markdown subset; nothing a model or user writes becomes
markup of its own."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from chat import services
from chat.markdown import render_markdown
from chat.models import Message
from tests.factories import ConversationFactory, build_program

SAFE_TAGS = {"p", "br", "strong", "em", "ul", "ol", "li", "code", "pre"}


def test_paragraphs_bold_italics_and_lists_render():
    html = render_markdown(
        "Done — **applied** the *change*.\n\n- one\n- two\n\n1. first\n2. second"
    )
    assert html == (
        "<p>Done — <strong>applied</strong> the <em>change</em>.</p>"
        "<ul><li>one</li><li>two</li></ul>"
        "<ol><li>first</li><li>second</li></ol>"
    )


def test_single_line_breaks_stay_line_breaks_and_a_list_may_follow_a_line():
    html = render_markdown("Done — I applied the changes.\n- Week 1: renamed\n- Week 2: changed")
    assert html == (
        "<p>Done — I applied the changes.</p>"
        "<ul><li>Week 1: renamed</li><li>Week 2: changed</li></ul>"
    )
    assert render_markdown("line one\nline two") == "<p>line one<br>line two</p>"


def test_inline_code_and_code_blocks_escape_their_html():
    html = render_markdown(
        "Type `<b>help</b>` or:\n```\n<script>alert(1)</script>\n**not bold**\n```"
    )
    assert "<code>&lt;b&gt;help&lt;/b&gt;</code>" in html
    assert "<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;\n**not bold**</code></pre>" in html
    assert "<strong>" not in html


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "**<script>alert(1)</script>**",
        "- <iframe src=javascript:alert(1)>",
        "`</code><script>alert(1)</script>`",
        "\x000\x00<script>alert(1)</script>",
    ],
)
def test_html_in_a_reply_is_escaped(text):
    html = render_markdown(text)
    assert set(re.findall(r"<\s*/?\s*(\w+)", html)) <= SAFE_TAGS
    assert "<script" not in html and "<img" not in html and "<iframe" not in html
    assert " on" not in re.sub(r"&[a-z#0-9]+;", "", "".join(re.findall(r"<[^>]*>", html)))


@pytest.mark.parametrize(
    "text",
    [
        "[x](javascript:alert(1))",
        "[click me](https://example.com)",
        "<a href='javascript:alert(1)'>x</a>",
        "javascript:alert(1)",
    ],
)
def test_links_are_shown_as_text_never_followed(text):
    html = render_markdown(text)
    assert "<a" not in html
    assert "href=" not in "".join(re.findall(r"<[^>]*>", html))


def test_a_markdown_link_shows_its_text_and_address_as_plain_text():
    assert render_markdown("[x](javascript:alert(1))") == "<p>x (javascript:alert(1))</p>"
    assert render_markdown("see [the docs](https://example.com/a)") == (
        "<p>see the docs (https://example.com/a)</p>"
    )


def test_underscores_inside_words_are_not_italics():
    assert render_markdown("use snake_case_names") == "<p>use snake_case_names</p>"


def test_empty_and_missing_text_render_nothing():
    assert render_markdown("") == ""
    assert render_markdown(None) == ""


def test_the_chat_page_renders_the_coachs_markdown_but_not_the_athletes(client, db):
    program = build_program(weeks=1, sessions=1, exercises=1, start_date=timezone.localdate())
    conversation = services.conversation_for_athlete(athlete=program.athlete)
    user = Message.objects.create(
        conversation=conversation, role=Message.Role.USER, content="**mine** <b>x</b>"
    )
    Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        content="**Done**\n- one\n[x](javascript:alert(1)) <script>alert(1)</script>",
        reply_to=user,
    )
    client.force_login(program.athlete)
    html = client.get("/").content.decode()
    assert "<p><strong>Done</strong></p><ul><li>one</li></ul>" in html
    assert "<p>x (javascript:alert(1)) &lt;script&gt;alert(1)&lt;/script&gt;</p>" in html
    assert "<script>alert(1)</script>" not in html
    assert 'href="javascript' not in html
    assert "**mine** &lt;b&gt;x&lt;/b&gt;" in html  # the athlete's own text stays as typed


def test_the_admin_timeline_renders_the_coachs_markdown_escaped(client, db):
    staff = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    conversation = ConversationFactory(program=build_program(weeks=1, sessions=1, exercises=1))
    Message.objects.create(
        conversation=conversation,
        role=Message.Role.ASSISTANT,
        content="*easy* week\n```\n<script>alert(1)</script>\n```",
    )
    client.force_login(staff)
    url = reverse("admin:chat_conversation_timeline", args=[conversation.pk])
    html = client.get(url).content.decode()
    assert (
        "<p><em>easy</em> week</p><pre><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>"
        in html
    )
    assert "<script>alert(1)</script>" not in html


def test_an_ordered_list_keeps_its_first_number():
    assert (
        render_markdown("3. third\n4. fourth") == '<ol start="3"><li>third</li><li>fourth</li></ol>'
    )
    assert render_markdown("1. one") == "<ol><li>one</li></ol>"
