"""The buttons that propose changes without words (``chat.plan_actions``): Move on the calendar,
Realign my plan and Not feeling 100 % in the chat.

Each is a plain form POST (it works without JavaScript): the view finds the athlete's own
conversation and, for Move, a session of that conversation's program (anything else is a 404),
proposes, and sends the athlete to the chat, where the card waits for Apply. A form value that
can't be used (a bad date, a length outside 3 to 14, nothing missed) changes nothing: the athlete
goes back with a message naming the bounds.

``plan_offer`` renders the chat's offer alone (empty while a card is open). The page doesn't ask
for it: the offer is part of the page and of each reply and decision (``common.regions``); this
URL serves a client that wants it on its own.
"""

from __future__ import annotations

import datetime

from django.contrib import messages as flash
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from coach.plan import PlanAdjustError, plan

from .. import plan_actions, proposals, services
from .common import login_required


def _conversation(request: HttpRequest):
    conversation = services.conversation_for_athlete(athlete=request.user)
    if conversation is None:
        raise Http404("No program to change.")
    return conversation


@login_required
@require_GET
def plan_offer(request: HttpRequest) -> HttpResponse:
    conversation = _conversation(request)
    offer = None
    if proposals.open_batch(conversation=conversation) is None:
        offer = plan_actions.plan_offer(conversation)
    return render(request, "chat/_plan_actions.html", {"plan_offer": offer})


@login_required
@require_POST
def session_move(request: HttpRequest, session_id: int) -> HttpResponse:
    """``new_date`` (YYYY-MM-DD) and ``strategy`` (swap or push) for one of the athlete's sessions."""
    conversation = _conversation(request)
    session = plan().session(conversation.program, session_id)
    if session is None:
        raise Http404("No such session in this program.")
    raw = (request.POST.get("new_date") or "").strip()
    try:
        new_date = datetime.date.fromisoformat(raw)
    except ValueError:
        flash.error(
            request, f"Choose the new date as YYYY-MM-DD (got {raw[:20]!r}); nothing moved."
        )
        back = reverse("training:calendar")
        if session.scheduled_date:
            back += f"?date={session.scheduled_date.isoformat()}"
        return redirect(back)
    plan_actions.move_session(
        conversation=conversation,
        session=session,
        new_date=new_date,
        strategy=request.POST.get("strategy", "swap"),
    )
    return redirect("chat:home")


@login_required
@require_POST
def plan_realign(request: HttpRequest) -> HttpResponse:
    conversation = _conversation(request)
    try:
        plan_actions.realign(conversation=conversation)
    except PlanAdjustError as exc:
        flash.info(request, str(exc))
    return redirect("chat:home")


@login_required
@require_POST
def plan_lighter(request: HttpRequest) -> HttpResponse:
    conversation = _conversation(request)
    raw = (request.POST.get("days") or "").strip()
    days: object = int(raw) if raw.isdigit() and len(raw) < 4 else raw
    try:
        plan_actions.lighter(conversation=conversation, days=days)
    except PlanAdjustError as exc:
        flash.error(request, str(exc))
    return redirect("chat:home")
