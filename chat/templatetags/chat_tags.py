"""Template filters for the chat page."""

import functools
import re
import uuid

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from coach.links import page_links as _page_links
from coach.templatetags.preview_tags import humanize_field, show_value

from .. import recovery, refusals, stream
from ..cards import card_whatif
from ..markdown import render_markdown

register = template.Library()

# The before → after rendering's filters are the engine's (``coach.templatetags.preview_tags``),
# shared with the program editor; registered here too for the chat's own templates.
register.filter("humanize_field", humanize_field)
register.filter("show_value", show_value)


@register.filter
def whatif_rows(batch: object) -> list:
    """The card's what-if table rows (``chat.cards.card_whatif``)."""
    return card_whatif(batch)  # type: ignore[arg-type]


_TRAINING_PATH = re.compile(r"(?<![\w/])/training/(?:activities/\d+|fitness)/")


@register.filter
def link_training(text: object) -> SafeString:
    """Escape a reply, then make the training pages it names (``/training/activities/12/``,
    ``/training/fitness/``) into links."""
    escaped = str(escape("" if text is None else text))
    return mark_safe(
        _TRAINING_PATH.sub(lambda m: f'<a href="{m.group(0)}">{m.group(0)}</a>', escaped)
    )


@register.filter
def reply_state(message: object) -> str:
    """A waiting reply's state for the page: "thinking", "unqueued" or "overdue"
    (``chat.recovery.waiting_state``)."""
    return recovery.waiting_state(message)


@register.simple_tag
def streaming_on() -> bool:
    """Whether the thinking bubble reads the reply as server-sent events (``CHAT_STREAMING``)."""
    return stream.enabled()


_NOTES = {"overdue": refusals.OVERDUE, "unqueued": refusals.BROKER_DOWN}


@register.simple_tag
def new_key() -> str:
    """A fresh idempotency key for a form that sends a message (``chat.services.message_send``):
    rendered by the server so a post without JavaScript carries one; the page's script makes its
    own when it arms the form (``static/chat.js``)."""
    return str(uuid.uuid4())


@register.simple_tag
def recovery_note(state: str) -> str:
    """What the athlete reads about a reply that is overdue or waits for the broker."""
    return _NOTES.get(state, "")


@register.filter
def page_links(steps: object) -> list[dict[str, str]]:
    """The links a reply's calls opened: ``[{"label", "url"}]`` built from the stored, validated
    call (the tool's ``page_link``, ``coach.links.page_links``), never from the model's text."""
    return _page_links(steps)


@register.filter
def markdown(text: object) -> SafeString:
    """The coach's reply as the safe markdown subset of ``chat.markdown`` (HTML escaped), with the
    training pages it names made into links (``link_training``)."""
    return mark_safe(_reply_html("" if text is None else str(text)))


@functools.lru_cache(maxsize=256)
def _reply_html(text: str) -> str:
    """A pure function of the text, so each process renders a reply once, not on every page
    (a reply is at most ``CHAT_MAX_REPLY_CHARS``: the cache holds a few megabytes at most)."""
    html = str(render_markdown(text))
    return _TRAINING_PATH.sub(lambda m: f'<a href="{m.group(0)}">{m.group(0)}</a>', html)
