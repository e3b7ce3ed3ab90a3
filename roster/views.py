"""The coach's workspace in the admin (``/admin/roster/``): the roster, an athlete's page, a
flag's evidence and its resolve and snooze.

Every view runs inside the admin (``admin.site.admin_view``: an active ``is_staff`` user) and asks
the access policy who may see what: a coach reads and acts on their own athletes, a staff reader
reads everyone and acts on nothing, and anyone else's athlete or flag is a 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from access import policy

from . import chat_reads, discovery, services
from .models import Flag, FlagKind, FlagStatus
from .render import rows_html
from .rows import roster

SNOOZE_CHOICES = (1, 3, 7, 14)


def _context(request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
    # the admin's look, without its app sidebar: the roster's ten columns need the width
    return {
        **admin.site.each_context(request),
        "is_nav_sidebar_enabled": False,
        "title": title,
        **extra,
    }


def _may_act(user: Any) -> bool:
    """Coaches (and superusers) act; a staff reader who coaches no one only reads."""
    return policy.is_superuser(user) or policy.athletes_of(user).exists()


@require_GET
def roster_page(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "").strip()[:100]
    kind = request.GET.get("kind", "")
    if kind and kind not in FlagKind.values:
        kind = ""
    flagged = request.GET.get("flagged") == "1"
    rows, unread_column = roster(
        request.user, today=timezone.localdate(), search=search, kind=kind, flagged=flagged
    )
    return render(
        request,
        "roster/roster.html",
        _context(
            request,
            "Roster",
            rows=rows,
            unread_column=unread_column,
            search=search,
            kind=kind,
            flagged=flagged,
            kinds=FlagKind.choices,
            may_act=_may_act(request.user),
            rows_html=rows_html(rows, row_urls(), unread_column),
        ),
    )


def row_urls() -> dict[str, str]:
    """The prefixes of the rows' links, reversed once (200 rows would reverse 600 times): each
    row appends its id and a slash, as the URL patterns read (``athletes/<id>/``, ``flags/<id>/``)."""
    return {
        "athlete": reverse("roster:athlete", args=[1]).removesuffix("1/"),
        "flag": reverse("roster:flag", args=[1]).removesuffix("1/"),
        "reviews": reverse("admin:chat_pendingtoolbatch_changelist"),
    }


def _athlete_or_404(user: Any, athlete_id: int) -> Any:
    athlete = get_user_model().objects.filter(pk=athlete_id, is_active=True).first()
    if athlete is None or athlete.is_staff or not policy.may_read(user, athlete):
        raise Http404("No such athlete.")
    return athlete


@require_GET
def athlete_page(request: HttpRequest, athlete_id: int) -> HttpResponse:
    athlete = _athlete_or_404(request.user, athlete_id)
    today = timezone.localdate()
    sections = sorted(
        (section for make in discovery.declared("sections") for section in make(athlete, today)),
        key=lambda section: section.order,
    )
    flags = Flag.objects.filter(athlete=athlete).order_by("status", "-occurred_on", "-pk")
    return render(
        request,
        "roster/athlete.html",
        _context(
            request,
            athlete.get_full_name() or athlete.username,
            athlete=athlete,
            sections=sections,
            open_flags=[f for f in flags if f.status == FlagStatus.OPEN],
            other_flags=[f for f in flags if f.status != FlagStatus.OPEN][:20],
            conversations=chat_reads.conversations_of(athlete.pk),
            waiting=chat_reads.waiting([athlete.pk]).get(athlete.pk, 0),
            may_act=policy.may_review(request.user, athlete),
            snooze_choices=SNOOZE_CHOICES,
        ),
    )


def _flag_or_404(user: Any, flag_id: int) -> Flag:
    flag = (
        policy.visible(Flag.objects.select_related("athlete"), user, lookup="athlete")
        .filter(pk=flag_id)
        .first()
    )
    if flag is None:
        raise Http404("No such flag.")
    return flag


@require_GET
def flag_page(request: HttpRequest, flag_id: int) -> HttpResponse:
    flag = _flag_or_404(request.user, flag_id)
    crisis = discovery.one("crisis_message")
    return render(
        request,
        "roster/flag.html",
        _context(
            request,
            flag.get_kind_display(),
            flag=flag,
            actions=flag.actions.select_related("actor"),
            care_resources=crisis() if flag.kind == FlagKind.CRISIS and crisis else "",
            may_act=policy.may_review(request.user, flag),
            snooze_choices=SNOOZE_CHOICES,
        ),
    )


def _back(request: HttpRequest, flag_id: int) -> HttpResponse:
    return redirect("roster:flag", flag_id=flag_id)


@require_POST
def flag_resolve(request: HttpRequest, flag_id: int) -> HttpResponse:
    try:
        services.resolve(flag_id=flag_id, actor=request.user, note=request.POST.get("note", ""))
    except Flag.DoesNotExist as exc:
        raise Http404("No such flag.") from exc
    except services.FlagActionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Flag resolved.")
    return _back(request, flag_id)


@require_POST
def flag_snooze(request: HttpRequest, flag_id: int) -> HttpResponse:
    try:
        days = int(request.POST.get("days", ""))
    except ValueError:
        days = 0
    try:
        flag = services.snooze(
            flag_id=flag_id, actor=request.user, days=days, note=request.POST.get("note", "")
        )
    except Flag.DoesNotExist as exc:
        raise Http404("No such flag.") from exc
    except services.FlagActionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Snoozed until {flag.snoozed_until:%a %d %b}.")
    return _back(request, flag_id)


@require_POST
def check_now(request: HttpRequest) -> HttpResponse:
    """Compute the flags of the user's athletes now (the periodic task does it for everyone)."""
    if not _may_act(request.user):
        raise Http404("Only a coach checks their athletes.")
    ids = (
        services.athletes_to_watch()
        if policy.is_superuser(request.user)
        else services.ids_of(policy.athletes_of(request.user))
    )
    done = services.compute_flags(athlete_ids=ids)
    messages.success(
        request, f"Checked {len(ids)} athletes: {done.created} new flags, {done.cleared} cleared."
    )
    return redirect("roster:roster")
