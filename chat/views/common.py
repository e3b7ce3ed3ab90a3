"""What the chat's views share: the sign-in check (``access.login``'s, sending htmx back to
``/``), and the read models the page and its partials render (the open batch and its card, the
suggested replies, the program's week).

**Work that doesn't change isn't redone.** The program panel carries the program version it shows
(``#program-version``, a hidden input that the messages and the card include in their requests).
A reply or a decision sends the panel again only when the program's version differs from it
(``regions(shown_version=...)``); without the value (an old page) it is always sent. The page
reads the suggested replies from the messages it already loaded. The plan's offer (Realign, Not
feeling 100 %: ``chat.plan_actions.plan_offer``, cached by the plan's version) is one of the
regions: part of the page, and sent again out of band with every reply and decision, the ones that
open or close a card or change the plan; the page never asks for it on its own."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import F
from django.urls import reverse

from access.login import login_required as one_login_required
from coach.llm import DEFAULT_MODELS

from .. import plan_actions, proposals, services, signals
from ..access import is_read_only
from ..cards import card_items
from ..forms import MessageForm
from ..models import BatchDecision, Conversation, Message, PendingToolBatch
from ..panel import WeekPanel, week_panel

PAGE = "chat/page.html"
NO_PROGRAM_PAGE = "chat/no_program.html"
HISTORY_LIMIT = 200
SWITCHER_LIMIT = 8  # conversations in the page's switcher (loaded when it is opened)
WAITING = (Message.Status.PENDING, Message.Status.RUNNING)
# What the page reads of its (up to HISTORY_LIMIT) messages: the bubbles (``#message``, the
# waiting state's times), the suggested replies of the latest, a coach's name. Not the model's
# side of the turn (its own text, calls, token counts: three JSON columns decoded per row for
# nothing, about 2 ms of a 200-message page). A field read but not listed here costs a query per
# message (tests/chat/views/test_page_bubbles.py counts them).
PAGE_FIELDS = (
    "conversation",
    "role",
    "content",
    "steps",
    "status",
    "reply_to",
    "batch",
    "author",
    "author__first_name",
    "author__last_name",
    "author__username",
    "suggested_replies",
    "attempt",
    "queued_at",
    "started_at",
    "created_at",
)

# The one sign-in check (``access.login``); a signed-out htmx request sends the athlete back to
# the chat's page once signed in.
login_required = one_login_required(next_page="/")


def conversation_url(conversation: Conversation) -> str:
    return reverse("chat:conversation", args=[conversation.pk])


def page_context(
    conversation: Conversation, *, form: MessageForm, week_number: int | None = None
) -> dict[str, Any]:
    read_only = is_read_only(conversation)
    if read_only:
        # A batch left open in it expires first, so the page shows the event saying why.
        proposals.expire_superseded(conversation=conversation)
    recent = list(
        conversation.messages.exclude(role=Message.Role.TOOL)
        .select_related("author")
        .only(*PAGE_FIELDS)
        .annotate(decision_kind=F("decision__kind"), batch_status=F("batch__status"))
        .order_by("-created_at", "-pk")[:HISTORY_LIMIT]
    )
    recent.reverse()
    shown = [m for m in recent if m.is_visible or m.status in WAITING]
    signals.shown(
        athlete_id=conversation.athlete_id, conversation_id=conversation.pk, messages=shown
    )
    context = {
        "conversation": conversation,
        "chat_messages": shown,
        "undoable": set() if read_only else {m.pk for m in shown if _undoable(m)},
        "form": form,
        "provider": provider_info(),
        "read_only": read_only,
        # the unprompted messages' feed (static/chat.js) asks for what is newer than the page
        "feed_after": max((m.pk for m in recent), default=0),
        "feed_seconds": settings.CHAT_FEED_SECONDS,
        "read_only_reason": services.read_only_reason(conversation) if read_only else "",
        **regions(conversation, week_number=week_number, latest=recent[-1] if recent else None),
    }
    if read_only:
        context["suggestions"] = []
        context["plan_offer"] = None
    return context


UNDOABLE_KINDS = (
    BatchDecision.Kind.APPLIED,
    BatchDecision.Kind.APPROVED,
    BatchDecision.Kind.AUTO_APPLIED,
)


def undoable_events(conversation: Conversation) -> set[int]:
    """The ids of event messages whose batch is applied (and so can still be undone)."""
    return set(
        Message.objects.filter(
            conversation=conversation,
            role=Message.Role.EVENT,
            decision__kind__in=UNDOABLE_KINDS,
            batch__status=PendingToolBatch.BatchStatus.APPLIED,
        ).values_list("pk", flat=True)
    )


def _undoable(message: Message) -> bool:
    """``undoable_events``' rule for a message the page loaded with its decision's kind and its
    batch's status (``decision_kind``, ``batch_status``: two joined columns, not the decision's
    JSON), so the page needs no second query for it."""
    return (
        message.role == Message.Role.EVENT
        and message.decision_kind in UNDOABLE_KINDS
        and message.batch_status == PendingToolBatch.BatchStatus.APPLIED
    )


_UNKNOWN: Any = object()


def regions(
    conversation: Conversation,
    *,
    week_number: int | None = None,
    shown_version: str | None = None,
    latest: Message | None = _UNKNOWN,
) -> dict[str, Any]:
    """What the out-of-band regions show: the open batch, the suggested replies, the plan's offer
    (None while a card is open), and the week, which is None when the page already shows this
    version of the program (``shown_version``).
    ``latest``: the latest message other than a tool result, when the caller has it."""
    batch = proposals.open_batch(conversation=conversation)
    unchanged = shown_version is not None and shown_version == str(conversation.program.version)
    suggestions: list[str] = []
    offer = None
    if batch is None:
        suggestions = suggestions_for(conversation, latest=latest)
        offer = plan_actions.plan_offer(conversation)
    return {
        "batch": batch,
        "items": card_items(batch),
        "suggestions": suggestions,
        "plan_offer": offer,
        "week": None if unchanged else week_of(conversation, week_number=week_number),
    }


def suggestions_for(conversation: Conversation, *, latest: Message | None = _UNKNOWN) -> list[str]:
    """The suggested replies of the coach's latest message, if it is the latest thing said."""
    if latest is _UNKNOWN:
        latest = (
            conversation.messages.exclude(role=Message.Role.TOOL)
            .order_by("-created_at", "-pk")
            .only("conversation", "role", "status", "suggested_replies")
            .first()
        )
    if latest is None or latest.role != Message.Role.ASSISTANT:
        return []
    if latest.status != Message.Status.COMPLETE:
        return []
    return [str(reply) for reply in (latest.suggested_replies or [])][:6]


def week_of(conversation: Conversation, *, week_number: int | None = None) -> WeekPanel:
    return week_panel(conversation.program, week_number=week_number)


def provider_info() -> dict[str, Any]:
    """What the header says about the coach's model (read from settings at each request, as
    ``coach.llm.get_provider`` does)."""
    name = (settings.LLM_PROVIDER or "offline").strip().lower()
    return {
        "name": name,
        "model": settings.LLM_MODEL or DEFAULT_MODELS.get(name, ""),
        "offline": name == "offline",
    }
