"""The wellness page: the athlete's own logs of the last 30 days and their reminders, each with a
soft delete. Someone else's log answers 404 (its existence is not revealed)."""

from __future__ import annotations

import datetime

from django.contrib import messages as flash
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from access.login import login_required

from . import selectors, services

DAYS_SHOWN = 30


@require_GET
@login_required
def wellness_page(request: HttpRequest) -> HttpResponse:
    tz = services.athlete_tz(request.user)
    today = services.local_now(request.user).date()
    since = today - datetime.timedelta(days=DAYS_SHOWN - 1)
    logs = selectors.logs_since(athlete=request.user, since=since)
    care = [(log, log.occurred_at.astimezone(tz)) for log in logs["care"]]
    return render(
        request,
        "wellness/page.html",
        {
            "logs": logs,
            "care": care,
            "since": since,
            "time_zone": str(tz),
            "reminders": list(selectors.reminders_of(athlete=request.user)),
        },
    )


@require_POST
@login_required
def log_delete(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    if kind not in selectors.KINDS:
        raise Http404("No such log.")
    try:
        log = selectors.log_of_athlete(athlete=request.user, kind=kind, pk=pk)
    except selectors.KINDS[kind].DoesNotExist as exc:
        raise Http404("No such log.") from exc
    services.soft_delete(log)
    flash.success(request, "Deleted.")
    return redirect("wellness:page")
