"""Template filters for the chat page."""

import functools
import re
import threading
import uuid
from collections import OrderedDict

from django import template
from django.urls import get_script_prefix, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from coach.links import page_links as _page_links
from coach.templatetags.preview_tags import humanize_field, show_value

from .. import recovery, refusals, stream
from ..cards import card_whatif
from ..markdown import render_markdown
from ..models import Message

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


_PLAIN = (Message.Role.USER, Message.Role.COACH)


def plain_bubble(message: Message, undoable: object) -> bool:
    """Whether the message's bubble holds nothing of the request: no form (so no CSRF token, no
    Undo or Retry, whose showing depends on more than the message) and no waiting state (which
    moves with the clock). Its HTML is then a function of the message alone."""
    role, status = message.role, message.status
    if status in (Message.Status.PENDING, Message.Status.RUNNING):
        return False
    if role in _PLAIN:
        return True
    if role == Message.Role.EVENT:
        return not isinstance(undoable, (set, frozenset)) or message.pk not in undoable
    return role == Message.Role.ASSISTANT and status == Message.Status.COMPLETE


def bubble_key(message: Message, *, oob: bool) -> tuple:
    """Everything a plain bubble shows: the message (its id and when it was written: an id used
    again after a restored backup is another message), its run and state, its text (by length
    and hash: the key holds no copy of it), a coach's name, and whether it is sent out of band.
    (A reply's links come from its calls, written with its text when the run completes.)"""
    author = message.author if message.author_id else None
    name = (author.get_full_name(), author.get_username()) if author else None
    text = message.content
    return (
        message.pk,
        message.created_at,
        message.attempt,
        message.status,
        message.role,
        name,
        oob,
        len(text),
        hash(text),
    )


class Bubbles:
    """The rendered plain bubbles of this process, the least recently shown dropped past
    ``size``. Django's ``{% cache %}`` (a key's digest, its validation, a pickle per bubble)
    saved nothing: a 200-message page's template took 10.6 ms with it and without; with this
    store, 6.4 ms."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._html: OrderedDict[tuple, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> str | None:
        with self._lock:
            html = self._html.get(key)
            if html is not None:
                self._html.move_to_end(key)
            return html

    def put(self, key: tuple, html: str) -> None:
        with self._lock:
            self._html[key] = html
            self._html.move_to_end(key)
            while len(self._html) > self.size:
                self._html.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._html.clear()


# A bubble is a few hundred bytes: 20,000 of them, 100 long histories, are some 20 MB.
BUBBLES = Bubbles(20_000)


class BubbleNode(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        message = context["message"]
        if not plain_bubble(message, context.get("undoable")):
            return self.nodelist.render(context)
        key = bubble_key(message, oob=bool(context.get("oob")))
        html = BUBBLES.get(key)
        if html is None:
            html = str(self.nodelist.render(context))
            BUBBLES.put(key, html)
        return mark_safe(html)


@register.tag
def bubble_cache(parser: template.base.Parser, token: template.base.Token) -> BubbleNode:
    """``{% bubble_cache %}…{% endbubble_cache %}`` around the bubble of ``message``: a plain
    bubble (``plain_bubble``) is rendered once per process and what it shows (``bubble_key``),
    so a page's history costs a lookup per message; any other is rendered each time. The key
    holds the message's id, so a bubble is only ever shown where its message is."""
    nodelist = parser.parse(("endbubble_cache",))
    parser.delete_first_token()
    return BubbleNode(nodelist)


_PK = 987654321987  # a number no URL of the chat's has otherwise


@functools.lru_cache(maxsize=64)
def _url_with_pk(name: str, script_prefix: str) -> tuple[str, str]:
    url = reverse(name, args=[_PK])
    before, found, after = url.partition(str(_PK))
    if not found or str(_PK) in after:
        raise ValueError(f"{name}'s URL doesn't carry its one id where it can be replaced: {url}")
    return before, after


@functools.lru_cache(maxsize=64)
def _fixed_url(name: str, script_prefix: str) -> str:
    return reverse(name)


@register.simple_tag
def url_once(name: str) -> str:
    """``{% url name %}`` for a URL without arguments, reversed once per process (and script
    prefix): the page's header, menu and forms name a dozen."""
    return _fixed_url(name, get_script_prefix())


@register.simple_tag
def pk_url(name: str, pk: int) -> str:
    """``{% url name pk %}`` for a URL whose one argument is an id, reversed once per process
    (and script prefix) and then built: the page reverses these for every waiting bubble, Retry
    and Undo, and reversing was a quarter of its template's time."""
    before, after = _url_with_pk(name, get_script_prefix())
    return f"{before}{int(pk)}{after}"
