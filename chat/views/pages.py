"""The chat page, the program panel, sending a message, polling for the reply and Retry.

Every view is thin: it finds the athlete's own object through ``chat.access`` (someone else's is a
404, never a 403 that would reveal it exists; a conversation whose program was given to another
athlete is someone else's), calls one service and renders a partial of ``chat/page.html`` when the
request comes from htmx, or redirects to / (or renders the whole page) when it does not, so the
page works without JavaScript.

The thinking placeholder polls until the reply is there, or until ``AGENT_TURN_DEADLINE``: then the
poll answers 286 (htmx stops polling) with a Retry button (``chat.recovery.waiting_state``).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from config.params import id_param, int_param

from .. import recovery, services
from ..access import athlete_conversations, is_read_only
from ..forms import MessageForm
from ..models import Message
from .common import (
    NO_PROGRAM_PAGE,
    PAGE,
    WAITING,
    conversation_url,
    login_required,
    page_context,
    regions,
    undoable_events,
    week_of,
)


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    conversation = services.conversation_for_athlete(athlete=request.user)
    if conversation is None and request.user.is_staff:  # coaches and staff work in the admin
        return redirect("admin:index")
    if conversation is None:
        return render(request, NO_PROGRAM_PAGE)
    week_number = int_param(request.GET.get("week"), default=0) or None
    context = page_context(conversation, form=MessageForm(), week_number=week_number)
    return render(request, PAGE, context)


@login_required
@require_GET
def program_panel(request: HttpRequest) -> HttpResponse:
    """The program panel; ``?week=N`` shows week N instead of the current one. ``?program=ID``
    (what the panel's week links carry: the panel is the same for every conversation about a
    program, so it is cached per program) shows that program, in the athlete's latest conversation
    about it (an earlier program for an old conversation); ``?conversation=ID`` that conversation's
    program. Without either, the current program."""
    raw_id = request.GET.get("conversation") or request.GET.get("program")
    if raw_id:
        if not raw_id.isascii() or not raw_id.isdigit():
            return HttpResponseBadRequest("conversation and program must be numbers.")
        wanted = id_param(raw_id)
        if wanted is None:  # past any id: no such conversation or program
            raise Http404("No conversation about this program.")
        own = athlete_conversations(request.user).select_related("program")
        if "conversation" in request.GET:
            conversation = get_object_or_404(own, pk=wanted)
        else:
            latest = own.filter(program_id=wanted).order_by("-updated_at", "-pk")
            conversation = latest.first()
            if conversation is None:
                raise Http404("No conversation about this program.")
    else:
        conversation = services.conversation_for_athlete(athlete=request.user)
    if conversation is None:
        return render(request, NO_PROGRAM_PAGE)
    week_number = int_param(request.GET.get("week"), default=0) or None
    if request.htmx:
        week = week_of(conversation, week_number=week_number)
        read_only = bool(raw_id) and is_read_only(conversation)
        context = {"week": week, "conversation": conversation, "read_only": read_only}
        return render(request, f"{PAGE}#program-panel", context)
    context = page_context(conversation, form=MessageForm(), week_number=week_number)
    return render(request, PAGE, context)


@login_required
@require_POST
def message_send(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """Send the athlete's message. A post with a key already sent in this conversation (a re-send
    whose first answer was lost) answers as the first would now: the message and its reply as it
    stands, the thinking bubble or the reply with what it changed (``services.message_send``)."""
    conversation = get_object_or_404(
        athlete_conversations(request.user).select_related("program"), pk=conversation_id
    )
    form = MessageForm(request.POST)
    sent: tuple[Message, Message | None] | None = None
    status, retry_after = 422, None
    if form.is_valid():
        try:
            sent = services.message_send(
                conversation=conversation,
                text=form.cleaned_data["text"],
                key=form.cleaned_data["key"],
            )
        except ValidationError as exc:
            form.add_error("text", exc)
            if exc.code == services.RATE_LIMITED:  # the text stays in the box, as for any error
                status, retry_after = 429, exc.params["retry_after"]
    if sent is None:
        if request.htmx:
            response = render(
                request,
                f"{PAGE}#composer",
                {"conversation": conversation, "form": form},
                status=status,
            )
        else:
            response = render(request, PAGE, page_context(conversation, form=form), status=status)
        if retry_after is not None:
            response["Retry-After"] = str(retry_after)
        return response
    if not request.htmx:
        return redirect(conversation_url(conversation))
    message, reply = sent
    context = {"conversation": conversation, "form": MessageForm(), "new_messages": [message]}
    if reply is not None and reply.status in WAITING:
        context["new_messages"].append(reply)
    elif reply is not None:  # a re-send after the reply came: the reply as its poll shows it
        context.update(
            new_messages=[message, reply, *turn_events(reply)],
            undoable=undoable_events(conversation),
            answered=True,
            **regions(conversation, shown_version=request.POST.get("program_version")),
        )
    return render(request, f"{PAGE}#sent", context)


# What the thinking bubble (``#thinking``, ``chat.recovery.waiting_state``) reads of a reply.
POLL_FIELDS = ("conversation", "role", "status", "created_at", "queued_at", "started_at")


@login_required
@require_GET
def message_poll(request: HttpRequest, message_id: int) -> HttpResponse:
    """While the reply is waiting (most polls) only what the thinking bubble shows is read; the
    reply, its conversation and program once it is there."""
    own = Message.objects.filter(
        pk=message_id, conversation__in=athlete_conversations(request.user)
    )
    message = get_object_or_404(own.only(*POLL_FIELDS))
    if not request.htmx:
        return redirect(conversation_url(message.conversation))
    if message.status not in WAITING:
        message = get_object_or_404(own.select_related("conversation__program"))
    if message.status in WAITING:
        attempt = int_param(request.GET.get("attempt"), default=0) + 1
        # ``fallback``: the streamed bubble gave up on its events; this one polls instead
        context = {"message": message, "attempt": attempt, "fallback": "fallback" in request.GET}
        if recovery.waiting_state(message) == "overdue":
            return HttpResponseStopPolling(render_to_string(f"{PAGE}#thinking", context, request))
        return render(request, f"{PAGE}#thinking", context)
    return _reply(request, message)


@login_required
@require_POST
def message_retry(request: HttpRequest, message_id: int) -> HttpResponse:
    """Retry: re-run the turn for the same athlete message (``chat.recovery.retry``); one reply
    however many clicks. ``message_id`` is the reply, or the athlete's message it answers."""
    message = get_object_or_404(
        Message.objects.select_related("conversation__program"),
        pk=message_id,
        role__in=[Message.Role.ASSISTANT, Message.Role.USER, Message.Role.EVENT],
        conversation__in=athlete_conversations(request.user),
    )
    if is_read_only(message.conversation):
        return HttpResponse(services.read_only_reason(message.conversation), status=409)
    reply = recovery.retry(message=message)
    if not request.htmx:
        return redirect(conversation_url(message.conversation))
    if reply.status in WAITING:
        return render(request, f"{PAGE}#thinking", {"message": reply, "attempt": 0})
    return _reply(request, reply)


def _reply(request: HttpRequest, message: Message) -> HttpResponse:
    conversation = message.conversation
    context = {
        "message": message,
        "conversation": conversation,
        "undoable": undoable_events(conversation),
        "new_messages": turn_events(message),
        **regions(conversation, shown_version=request.GET.get("program_version")),
    }
    return render(request, f"{PAGE}#reply", context)


def turn_events(reply: Message) -> list[Message]:
    """The event lines the reply's own turn wrote (a log written at once, with its Undo), shown
    after the reply."""
    if reply.batch_id is None:
        return []
    return list(
        Message.objects.filter(
            conversation_id=reply.conversation_id,
            role=Message.Role.EVENT,
            batch_id=reply.batch_id,
            pk__gt=reply.pk,
        ).select_related("decision")
    )
