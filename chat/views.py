"""The chat page and its htmx endpoints.

Every view is thin: it finds the athlete's own object (someone else's is a 404, never a 403 that
would reveal it exists), calls one service from ``chat.services`` and renders a partial of
``chat/page.html`` when the request comes from htmx, or redirects to / (or renders the whole page)
when it does not, so the page works without JavaScript.

Partials of ``chat/page.html`` (django-template-partials):

* ``program-panel``: the current week of the program (``#program-panel``)
* ``message``: one bubble (user, coach, or a small centred event line); a pending coach reply
  renders ``thinking``, the placeholder that polls its message until the reply is there
* ``batch-card``: the preview card of the open batch, with Apply Changes and Cancel (``#batch-card``)
* ``suggestions``: the suggested-reply chips, empty while a batch is open (``#suggestions``)
* ``composer``: the message form with its inline error (``#composer``)
* ``sent``, ``reply``, ``decided``: the htmx responses of sending, polling and deciding; each is a
  main swap plus out-of-band swaps of the regions above.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages as flash
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from chat import services
from chat.forms import DecisionForm, MessageForm
from chat.models import Conversation, Message, PendingToolBatch
from coach.llm import DEFAULT_MODELS

PAGE = "chat/page.html"
NO_PROGRAM_PAGE = "chat/no_program.html"
HISTORY_LIMIT = 200
STALE_NOTE = "The plan changed since you saw it — review the updated changes."
WAITING = (Message.Status.PENDING, Message.Status.RUNNING)


def login_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Django's ``login_required``, except that an htmx request (a poll or a click after the
    session expired) sends the whole page to the login form instead of swapping the login page
    into a fragment."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.htmx:
            return HttpResponseClientRedirect(f"{resolve_url(settings.LOGIN_URL)}?next=/")
        return redirect_to_login(request.get_full_path())

    return wrapper


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    conversation = services.conversation_for_athlete(athlete=request.user)
    if conversation is None:
        return render(request, NO_PROGRAM_PAGE)
    week_number = _int_param(request.GET.get("week"), default=0) or None
    context = page_context(conversation, form=MessageForm(), week_number=week_number)
    return render(request, PAGE, context)


@login_required
@require_GET
def program_panel(request: HttpRequest) -> HttpResponse:
    """The program panel; ``?week=N`` shows week N instead of the current one."""
    conversation = services.conversation_for_athlete(athlete=request.user)
    if conversation is None:
        return render(request, NO_PROGRAM_PAGE)
    week_number = _int_param(request.GET.get("week"), default=0) or None
    if request.htmx:
        week = week_of(conversation, week_number=week_number)
        return render(request, f"{PAGE}#program-panel", {"week": week})
    context = page_context(conversation, form=MessageForm(), week_number=week_number)
    return render(request, PAGE, context)


@login_required
@require_POST
def message_send(request: HttpRequest, conversation_id: int) -> HttpResponse:
    conversation = get_object_or_404(
        Conversation.objects.select_related("program"), pk=conversation_id, athlete=request.user
    )
    form = MessageForm(request.POST)
    sent: tuple[Message, Message] | None = None
    if form.is_valid():
        try:
            sent = services.message_send(conversation=conversation, text=form.cleaned_data["text"])
        except ValidationError as exc:
            form.add_error("text", exc)
    if sent is None:
        if request.htmx:
            return render(
                request,
                f"{PAGE}#composer",
                {"conversation": conversation, "form": form},
                status=422,
            )
        return render(request, PAGE, page_context(conversation, form=form), status=422)
    if not request.htmx:
        return redirect("chat:home")
    return render(
        request,
        f"{PAGE}#sent",
        {"conversation": conversation, "form": MessageForm(), "new_messages": list(sent)},
    )


@login_required
@require_GET
def message_poll(request: HttpRequest, message_id: int) -> HttpResponse:
    message = get_object_or_404(
        Message.objects.select_related("conversation__program"),
        pk=message_id,
        conversation__athlete=request.user,
    )
    if not request.htmx:
        return redirect("chat:home")
    if message.status in WAITING:
        attempt = _int_param(request.GET.get("attempt"), default=0) + 1
        return render(request, f"{PAGE}#thinking", {"message": message, "attempt": attempt})
    conversation = message.conversation
    context = {"message": message, "conversation": conversation, **regions(conversation)}
    return render(request, f"{PAGE}#reply", context)


@login_required
@require_POST
def batch_apply(request: HttpRequest, batch_id: int) -> HttpResponse:
    return _decide(request, batch_id, services.batch_apply)


@login_required
@require_POST
def batch_cancel(request: HttpRequest, batch_id: int) -> HttpResponse:
    return _decide(request, batch_id, services.batch_cancel)


def _decide(request: HttpRequest, batch_id: int, decide: Any) -> HttpResponse:
    batch = get_object_or_404(
        PendingToolBatch.objects.select_related("conversation__program"),
        pk=batch_id,
        conversation__athlete=request.user,
    )
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("The form must say which revision of the changes you saw.")
    try:
        decision = decide(
            batch_id=batch.pk, user=request.user, revision=form.cleaned_data["revision"]
        )
    except PendingToolBatch.DoesNotExist as exc:
        raise Http404("No such changes.") from exc
    note = ""
    if decision.outcome in ("stale", "revision_mismatch"):
        note = STALE_NOTE
    if not request.htmx:
        if note:
            flash.info(request, note)
        elif decision.outcome == "failed":
            flash.error(
                request, decision.batch.error_message or "The changes could not be applied."
            )
        return redirect("chat:home")
    if decision.outcome == "already_decided":
        # Decided elsewhere (another tab, a double click): reload to show the current state.
        return HttpResponseClientRefresh()
    new_messages: list[Message] = []
    if decision.outcome in ("applied", "cancelled", "failed"):
        # the event line this click recorded, then the coach's acknowledgment (if one is queued)
        event = (
            Message.objects.filter(batch=decision.batch, role=Message.Role.EVENT)
            .order_by("-created_at", "-pk")
            .first()
        )
        if event is not None:
            new_messages.append(event)
        if decision.followup is not None:
            new_messages.append(decision.followup)
    context = {
        **regions(batch.conversation),
        "conversation": batch.conversation,
        "decision": decision,
        "note": note,
        "new_messages": new_messages,
    }
    return render(request, f"{PAGE}#decided", context)


# --- read models for the templates ----------------------------------------------------------------


def page_context(
    conversation: Conversation, *, form: MessageForm, week_number: int | None = None
) -> dict[str, Any]:
    recent = list(
        conversation.messages.exclude(role=Message.Role.TOOL).order_by("-created_at", "-pk")[
            :HISTORY_LIMIT
        ]
    )
    recent.reverse()
    shown = [m for m in recent if m.is_visible or m.status in WAITING]
    return {
        "conversation": conversation,
        "chat_messages": shown,
        "form": form,
        "provider": provider_info(),
        **regions(conversation, week_number=week_number),
    }


def regions(conversation: Conversation, *, week_number: int | None = None) -> dict[str, Any]:
    """What the out-of-band regions show: the open batch, the suggested replies, the week."""
    batch = services.open_batch(conversation=conversation)
    return {
        "batch": batch,
        "suggestions": [] if batch is not None else suggestions_for(conversation),
        "week": week_of(conversation, week_number=week_number),
    }


def suggestions_for(conversation: Conversation) -> list[str]:
    """The suggested replies of the coach's latest message, if it is the latest thing said."""
    latest = (
        conversation.messages.exclude(role=Message.Role.TOOL)
        .order_by("-created_at", "-pk")
        .only("role", "status", "suggested_replies")
        .first()
    )
    if latest is None or latest.role != Message.Role.ASSISTANT:
        return []
    if latest.status != Message.Status.COMPLETE:
        return []
    return [str(reply) for reply in (latest.suggested_replies or [])][:6]


def week_of(conversation: Conversation, *, week_number: int | None = None) -> dict[str, Any]:
    return services.program_week_view(program=conversation.program, week_number=week_number)


def provider_info() -> dict[str, Any]:
    """What the header says about the coach's model (read from settings at each request, as
    ``coach.llm.get_provider`` does)."""
    name = (settings.LLM_PROVIDER or "offline").strip().lower()
    return {
        "name": name,
        "model": settings.LLM_MODEL or DEFAULT_MODELS.get(name, ""),
        "offline": name == "offline",
    }


def _int_param(raw: str | None, *, default: int) -> int:
    try:
        return max(0, min(int(raw or default), 1000))
    except ValueError:
        return default
