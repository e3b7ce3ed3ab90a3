"""The inbox's pages outside the admin: the unread badge in the chat's menu, each person's
e-mail settings, and the signed one-click unsubscribe link of every e-mail (``notify``).

The unsubscribe link needs no sign-in: its signature names the person and the kind of e-mail.
A GET shows a button (mail scanners that follow links unsubscribe no one); the POST switches it
off, and is exempt from CSRF because a mail client sends it by itself (RFC 8058's one-click
``List-Unsubscribe-Post``) and the signed token is what authorises it.
"""

from __future__ import annotations

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from access.login import login_required

from . import counts, notify


@login_required()
@require_GET
def badge(request: HttpRequest) -> HttpResponse:
    """The athlete's unread messages from their coach, as the menu's badge (empty when none)."""
    unread = counts.unread_for_athlete(request.user)
    return render(request, "inbox/badge.html", {"unread": unread})


@login_required()
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    row = notify.settings_for(request.user)
    if request.method == "POST":
        row.coach_updates = request.POST.get("coach_updates") == "on"
        row.review_digest = request.POST.get("review_digest") == "on"
        row.save(update_fields=["coach_updates", "review_digest"])
        messages.success(request, "Saved.")
        return HttpResponseRedirect(reverse("inbox:settings"))
    return render(
        request,
        "inbox/settings.html",
        {"row": row, "coaches": request.user.is_staff, "has_email": bool(request.user.email)},
    )


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        _, kind = notify.read_token(token)
    except signing.BadSignature:
        return render(request, "inbox/unsubscribe.html", {"invalid": True}, status=400)
    context = {"kind": notify.KINDS[kind], "token": token}
    if request.method == "POST":
        try:
            notify.unsubscribe(token)
        except LookupError:
            return render(request, "inbox/unsubscribe.html", {"invalid": True}, status=400)
        context["done"] = True
    return render(request, "inbox/unsubscribe.html", context)
