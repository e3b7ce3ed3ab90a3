"""The one sign-in check of the pages: every view that needs a signed-in user is decorated with
``login_required`` from here, once (before, the chat and the library each had a copy, and the
other apps used Django's, which sends an htmx request's fragment the login page itself).

A plain anonymous request gets what it got before: a redirect to the login form with ``?next=``
the page it asked for (Django's ``redirect_to_login``). An htmx request (a poll or a click after
the session expired) gets an ``HX-Redirect`` that sends the whole page to the login form, with
``?next=`` the page the browser shows (``HX-Current-URL``'s path), or ``next_page`` when the view
names one (the chat sends the athlete back to ``/``, the library to its index), as the chat's and
the library's copies did; in training, nutrition and wellness, where Django's decorator answered
htmx with the plain redirect, this is new.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

View = Callable[..., HttpResponse]


def login_required(view: View | None = None, *, next_page: str | None = None) -> Any:
    """``@login_required`` or ``@login_required(next_page="url name or path")``."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.user.is_authenticated:
                return view(request, *args, **kwargs)
            if getattr(request, "htmx", False):
                return HttpResponseClientRedirect(
                    f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': _htmx_next(request, next_page)}, safe='/')}"
                )
            return redirect_to_login(request.get_full_path())

        return wrapper

    return decorate(view) if view is not None else decorate


def _htmx_next(request: HttpRequest, named: str | None) -> str:
    if named is not None:
        return named if named.startswith("/") else reverse(named)
    current = request.htmx.current_url
    return (urlsplit(current).path or "/") if current else request.path
