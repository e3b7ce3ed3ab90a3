"""The calendar page: month or week grid of the athlete's sessions and activities, a day list at
phone width. Its Move forms post to the chat (``chat.views.actions.session_move``), which proposes
the move on a card; this app only shows."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from access.login import login_required

from . import services
from .calendar import CalendarError, calendar_view, parse_anchor


@require_GET
@login_required
def calendar_page(request: HttpRequest) -> HttpResponse:
    """``?view=month|week&date=YYYY-MM-DD``; a bad value is a 400 that names the bounds."""
    today = services.athlete_today(profile=services.profile_for(athlete=request.user))
    try:
        anchor = parse_anchor(request.GET.get("date"), today=today)
        view = calendar_view(
            athlete=request.user,
            view=request.GET.get("view", "month") or "month",
            anchor=anchor,
            today=today,
        )
    except CalendarError as exc:
        return render(request, "training/calendar.html", {"error": str(exc)}, status=400)
    return render(request, "training/calendar.html", {"cal": view})
