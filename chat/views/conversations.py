"""The athlete's conversations: the list, opening one, and **New conversation**.

Each view finds the athlete's own conversation through ``chat.access`` (another athlete's, or one
whose program was given to someone else, is a 404). A conversation about an earlier program opens
read-only: the page says why and offers a new conversation instead of the composer.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from config.params import id_param, int_param

from .. import services, signals
from ..access import athlete_conversations, current_program_id
from ..forms import MessageForm
from .common import (
    NO_PROGRAM_PAGE,
    PAGE,
    SWITCHER_LIMIT,
    conversation_url,
    login_required,
    page_context,
)

LIST_PAGE = "chat/conversations.html"


@login_required
@require_GET
def conversation_list(request: HttpRequest) -> HttpResponse:
    """Every conversation; from htmx (the chat page's menu, ``?current=ID`` being the open one),
    the ``SWITCHER_LIMIT`` most recent."""
    conversations = services.conversation_list(athlete=request.user)
    if request.htmx:
        conversations = conversations[:SWITCHER_LIMIT]
    current = current_program_id(request.user.pk)
    rows = [{"conversation": c, "read_only": c.program_id != current} for c in conversations]
    if request.htmx:
        context = {"rows": rows, "current": id_param(request.GET.get("current"))}
        return render(request, f"{LIST_PAGE}#switcher", context)
    return render(request, LIST_PAGE, {"rows": rows, "has_program": current is not None})


@login_required
@require_GET
def conversation_open(request: HttpRequest, conversation_id: int) -> HttpResponse:
    conversation = get_object_or_404(
        athlete_conversations(request.user).select_related("program"), pk=conversation_id
    )
    week_number = int_param(request.GET.get("week"), default=0) or None
    context = page_context(conversation, form=MessageForm(), week_number=week_number)
    return render(request, PAGE, context)


@login_required
@require_POST
def conversation_new(request: HttpRequest) -> HttpResponse:
    conversation = services.conversation_new(athlete=request.user)
    if conversation is None:
        return render(request, NO_PROGRAM_PAGE, status=404)
    return redirect(conversation_url(conversation))


@login_required
@require_GET
def message_feed(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """``?after=ID``: the messages no flow of the open page fetches (a coach's post, a delivered
    reminder) newer than ID, as bubbles to append, with ``X-Feed-After`` the id to ask after next
    time; 204 when there are none (and for a conversation that isn't the athlete's). The page's
    script (``static/chat.js``) asks every ``CHAT_FEED_SECONDS`` and announces each bubble
    (``spotter:reply``: the tab title counts them while the tab is in the background)."""
    after = id_param(request.GET.get("after") or "0")
    if after is None:
        return HttpResponseBadRequest("after must be a message id (digits).")
    feed = services.unprompted_messages(
        athlete=request.user, conversation_id=conversation_id, after=after
    )
    if not feed:
        return HttpResponse(status=204)
    signals.shown(athlete_id=request.user.pk, conversation_id=conversation_id, messages=feed)
    response = render(request, f"{PAGE}#feed", {"feed": feed, "undoable": set()})
    response["X-Feed-After"] = str(feed[-1].pk)
    return response
