"""The calendar page: month or week grid of the athlete's sessions and activities, a day list at
phone width. Its Move forms post to the chat (``chat.views.actions.session_move``), which proposes
the move on a card; this app only shows. The athlete marks and clears the days they can't train
here too (``training.availability``): only their own, whatever the form sends."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from access.login import login_required

from . import availability, services
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


def _back(request: HttpRequest, day) -> HttpResponse:
    view = "week" if request.POST.get("view") == "week" else "month"
    suffix = f"&date={day.isoformat()}" if day else ""
    return redirect(f"{reverse('training:calendar')}?view={view}{suffix}")


@login_required
@require_POST
def unavailable_mark(request: HttpRequest) -> HttpResponse:
    """``date`` (YYYY-MM-DD) and an optional ``note``: the signed-in athlete can't train that day.
    Any other field (an athlete's id) is ignored: an athlete marks only their own days."""
    today = services.athlete_today(profile=services.profile_for(athlete=request.user))
    try:
        day = availability.parse_day(request.POST.get("date"))
        availability.mark(
            athlete=request.user, day=day, note=request.POST.get("note", ""), today=today
        )
    except availability.AvailabilityError as exc:
        messages.error(request, f"{exc} Nothing was marked.")
        return _back(request, None)
    messages.success(request, f"Marked {day:%a %d %b} as a day you can't train.")
    return _back(request, day)


@login_required
@require_POST
def unavailable_clear(request: HttpRequest, mark_id: int) -> HttpResponse:
    day = availability.clear(athlete=request.user, mark_id=mark_id)
    if day is None:
        raise Http404("No such day of yours.")
    messages.success(request, f"{day:%a %d %b} is a training day again.")
    return _back(request, day)
