"""The coach's calendar of one athlete, inside the admin (``/admin/calendar/<athlete>/``, each view
wrapped in ``admin.site.admin_view``: an active staff user, else the admin's sign-in).

Who reaches what is the access policy's rule, as on the roster's athlete page: an athlete the user
may not read (another coach's) is a 404 on every URL; the page is read by anyone who may read the
athlete (a Staff reader too); a preview, an apply or an undo needs ``may_act`` on the athlete's
current program (its coach, or a superuser): a Staff reader gets 403. Views are thin: authorise,
call ``training.coach_calendar``, render. Every apply and undo is written to the admin's LogEntry
on the program with the coach as its user; the journal's change set and the program revision carry
the coach as actor too.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from access import policy
from coach.plan import plan
from journal.services import JournalError

from . import coach_calendar as service
from .calendar import CalendarError, calendar_view, parse_anchor

RESULT_TEMPLATE = "training/coach/_result.html"


def _athlete_or_404(user: Any, athlete_id: int) -> Any:
    athlete = get_user_model().objects.filter(pk=athlete_id, is_active=True).first()
    if athlete is None or athlete.is_staff or not policy.may_read(user, athlete):
        raise Http404("No such athlete.")
    return athlete


def _program_to_change(user: Any, athlete: Any) -> Any:
    program = plan().current(athlete)
    if program is None:
        raise Http404("This athlete has no program.")
    if not policy.may_act(user, program):
        raise PermissionDenied
    return program


@require_GET
def calendar_page(request: HttpRequest, athlete_id: int) -> HttpResponse:
    athlete = _athlete_or_404(request.user, athlete_id)
    today = timezone.localdate()
    program = plan().current(athlete)
    context: dict[str, Any] = {
        **admin.site.each_context(request),
        "is_nav_sidebar_enabled": False,
        "title": f"Calendar: {athlete.get_full_name() or athlete.username}",
        "athlete": athlete,
        "program": program,
        "may_act": program is not None and policy.may_act(request.user, program),
    }
    try:
        anchor = parse_anchor(request.GET.get("date"), today=today)
        context["cal"] = calendar_view(
            athlete=athlete,
            view=request.GET.get("view", "month") or "month",
            anchor=anchor,
            today=today,
        )
    except CalendarError as exc:
        context["error"] = str(exc)
        return render(request, "training/coach/calendar.html", context, status=400)
    if context["may_act"]:
        context["workouts"] = service.library_workouts(athlete)
        context["version"] = plan().version(program)
        context["urls"] = {
            step: reverse(f"training_coach:{step}", args=[athlete.pk])
            for step in ("preview", "apply", "undo")
        }
    return render(request, "training/coach/calendar.html", context)


def _answer(request: HttpRequest, athlete: Any, result: service.Result, status: int = 200):
    html = render_to_string(
        RESULT_TEMPLATE, {"result": result, "athlete": athlete}, request=request
    )
    return JsonResponse(
        {
            "ok": result.ok,
            "applied": result.applied,
            "stale": result.stale,
            "choose": [name for name, _ in result.choose],
            "version": result.version,
            "change_set": result.change_set_id,
            "html": html,
        },
        status=status,
    )


def _log(user: Any, program: Any, message: str) -> None:
    LogEntry.objects.log_actions(
        user_id=user.pk,
        queryset=[program],
        action_flag=CHANGE,
        change_message=f"Coach's calendar: {message}"[:500],
        single_object=True,
    )


def _step(step: Any, request: HttpRequest, athlete_id: int) -> HttpResponse:
    athlete = _athlete_or_404(request.user, athlete_id)
    program = _program_to_change(request.user, athlete)
    try:
        result = step(athlete=athlete, program=program, user=request.user, data=request.POST)
    except service.NotFound as exc:
        raise Http404(str(exc)) from exc
    except service.CalendarRequestError as exc:
        return _answer(request, athlete, service.Result(message=str(exc)), status=400)
    if result.applied:
        _log(request.user, program, f"{result.message} {result.summary}".strip())
    return _answer(request, athlete, result)


@require_POST
def preview(request: HttpRequest, athlete_id: int) -> HttpResponse:
    return _step(service.preview, request, athlete_id)


@require_POST
def apply(request: HttpRequest, athlete_id: int) -> HttpResponse:
    return _step(service.apply, request, athlete_id)


@require_POST
def undo(request: HttpRequest, athlete_id: int) -> HttpResponse:
    athlete = _athlete_or_404(request.user, athlete_id)
    program = _program_to_change(request.user, athlete)
    try:
        words = service.undo(athlete=athlete, program=program, user=request.user, data=request.POST)
    except service.NotFound as exc:
        raise Http404(str(exc)) from exc
    except service.CalendarRequestError as exc:
        return _answer(request, athlete, service.Result(message=str(exc)), status=400)
    except JournalError as exc:
        return _answer(request, athlete, service.Result(message=str(exc)), status=409)
    _log(request.user, program, words)
    return _answer(request, athlete, service.Result(ok=True, message=words))
