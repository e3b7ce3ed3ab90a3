"""What django-axes needs from Spotter to throttle failed sign-ins (issue 18 item 3).

django-axes counts failed sign-ins in the database (every web process sees the same counts) and
locks an account, and separately an address, after ``LOGIN_FAILURE_LIMIT`` failures within
``LOGIN_LOCKOUT_MINUTES``; the lock ends that long after the last counted failure. Its backend
comes first in ``AUTHENTICATION_BACKENDS``, so a locked sign-in is refused before any password is
checked (a locked account answers the same whether the password is right or wrong), on the site's
login page and the admin's alike. This module gives axes two things:

- ``client_ip``: the address a failure is counted against is ``REMOTE_ADDR``, never a header the
  client writes. Behind a proxy, the server rewrites ``REMOTE_ADDR`` from ``X-Forwarded-For`` only
  when the connection comes from a proxy listed in ``FORWARDED_ALLOW_IPS`` (uvicorn under
  ``bin/serve``, config/gunicorn.py), so a client cannot claim a new address with each guess.
- ``lockout_response``: the page a locked sign-in gets, status 429 (Too Many Requests: the
  sign-in is refused for now, not forbidden) with ``Retry-After`` and the message "Too many failed
  sign-ins. Try again in N minutes.", N counting down to the end of the lock.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from axes.attempts import get_cool_off_threshold
from axes.helpers import (
    get_client_parameters,
    get_client_username,
    get_cool_off,
    get_failure_limit,
)
from axes.models import AccessAttempt
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone

LOCKOUT_STATUS = 429


def client_ip(request: HttpRequest) -> str | None:
    """The address failures are counted against: the connection's, as the server resolved it."""
    return request.META.get("REMOTE_ADDR") or None


def lockout_message(minutes: int) -> str:
    unit = "minute" if minutes == 1 else "minutes"
    return f"Too many failed sign-ins. Try again in {minutes} {unit}."


def lock_ends_at(request: HttpRequest, credentials: dict | None = None) -> datetime:
    """When the lock on this request's account or address ends: the full cool-off after the last
    failure of whichever (account or address) reached the limit. An upper bound: the lock may
    lift sooner, when enough of the older failures have aged out, never later."""
    now = getattr(request, "axes_attempt_time", None) or timezone.now()
    cool_off = get_cool_off(request) or timedelta(0)
    limit = get_failure_limit(request, credentials)
    threshold = get_cool_off_threshold(request)
    last_failure = None
    for filters in get_client_parameters(
        get_client_username(request, credentials),
        getattr(request, "axes_ip_address", client_ip(request)),
        getattr(request, "axes_user_agent", ""),
        request,
        credentials,
    ):
        counted = AccessAttempt.objects.filter(**filters, attempt_time__gte=threshold).aggregate(
            failures=Sum("failures_since_start"), last=Max("attempt_time")
        )
        if (counted["failures"] or 0) >= limit and counted["last"] is not None:
            last_failure = max(last_failure or counted["last"], counted["last"])
    return (last_failure or now) + cool_off


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the sign-in is refused; say for how long, and where to go next.

    axes calls it with the view's response (ignored: the page replaces it) under WSGI, and
    with ``None`` in its place under ASGI; ``credentials`` may be ``None`` (the username is then
    read from the form, as axes does)."""
    now = getattr(request, "axes_attempt_time", None) or timezone.now()
    seconds = max(1, math.ceil((lock_ends_at(request, credentials) - now).total_seconds()))
    minutes = max(1, math.ceil(seconds / 60))
    html = render_to_string(
        "registration/locked_out.html",
        {"message": lockout_message(minutes), "back_url": request.path},
        request=request,
    )
    response = HttpResponse(html, status=LOCKOUT_STATUS)
    response["Retry-After"] = str(seconds)
    return response
