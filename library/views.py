"""The library pages, the calendar-feed settings and the feed itself.

Views are thin: find what the user may see (someone else's workout is a 404, never a 403), call
``library`` services, render. ``library/index.html`` has a ``results`` partial that htmx swaps as
the athlete types; without JavaScript the form submits and the whole page renders the same list.
The feed needs no login, only its secret token; a wrong token is a 404.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from access.login import login_required

from .access import WorkoutNotFound, get_workout_for, visible_workouts
from .feed import build_feed, feed_by_token, feed_for, rotate_feed_token
from .presentation import owner_label, template_rows
from .search import MAX_LIMIT, search_workouts

INDEX = "library/index.html"
BROWSE_LIMIT = 60


@login_required(next_page="library:index")
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """All the workouts the user may see, or ``?q=`` the best matches (up to 10)."""
    query = request.GET.get("q", "").strip()
    error = ""
    if query:
        try:
            hits = search_workouts(user=request.user, query=query, limit=MAX_LIMIT)
        except ValueError as exc:
            hits, error = [], str(exc)
        ids = [hit.id for hit in hits]
        by_id = visible_workouts(request.user).select_related("owner").in_bulk(ids)
        workouts = [by_id[pk] for pk in ids if pk in by_id]
    else:
        workouts = list(visible_workouts(request.user).select_related("owner")[:BROWSE_LIMIT])
    context = {
        "query": query,
        "error": error,
        "cards": [(w, owner_label(w, request.user)) for w in workouts],
        "browsing": not query,
        "browse_limit": BROWSE_LIMIT,
    }
    template = f"{INDEX}#results" if request.htmx else INDEX
    return render(request, template, context)


@login_required(next_page="library:index")
@require_GET
def detail(request: HttpRequest, workout_id: int) -> HttpResponse:
    try:
        workout = get_workout_for(user=request.user, workout_id=workout_id)
    except WorkoutNotFound:
        raise Http404("No such workout in your library.") from None
    context = {
        "workout": workout,
        "owner": owner_label(workout, request.user),
        **template_rows(workout),
    }
    return render(request, "library/detail.html", context)


@login_required(next_page="library:index")
@require_GET
def feed_settings(request: HttpRequest) -> HttpResponse:
    feed = feed_for(athlete=request.user)
    return render(request, "library/feed_settings.html", _feed_context(request, feed))


@login_required(next_page="library:index")
@require_POST
def feed_rotate(request: HttpRequest) -> HttpResponse:
    feed = rotate_feed_token(athlete=request.user)
    if not request.htmx:
        return redirect("library:feed_settings")
    context = _feed_context(request, feed) | {"rotated": True}
    return render(request, "library/feed_settings.html#feed-url", context)


def _feed_context(request: HttpRequest, feed) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("library:feed", args=[feed.token]))
    return {"feed": feed, "feed_url": url, "webcal_url": "webcal://" + url.split("://", 1)[1]}


@require_GET
def feed(request: HttpRequest, token: str) -> HttpResponse:
    found = feed_by_token(token=token)
    if found is None:
        raise Http404("No calendar at this address.")
    response = HttpResponse(build_feed(feed=found), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="spotter.ics"'
    response["Cache-Control"] = "private, max-age=300"
    response["X-Robots-Tag"] = "noindex"
    return response
