"""One sign-in check (``access.login``) for every page: an anonymous request to each protected
URL of the site's apps gets the login redirect with ``?next=`` the page (what Django's
``login_required`` gave, and the chat's and the library's copies), and an htmx request an
``HX-Redirect`` that sends the whole page to the login form instead of swapping the form into a
fragment. A view that refuses the method first (``require_POST`` outside the check) is asked with
the method it takes.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
APPS = ("chat", "training", "wellness", "library", "nutrition")
OPEN = {"library:feed", "nutrition:index"}  # the feed's secret token; a redirect to the meal plan
HTMX_NEXT = {"chat": "/", "library": "/library/"}  # the page these apps send the athlete back to
# Answered before the sign-in check, as before: the reply stream tells a signed-out browser to stop.
STATUS = {"chat:message_stream": 204}
POSTED = {"training:activity_delete", "wellness:delete"}  # require_POST first: asked by POST
ARG = re.compile(r"<(?:(\w+):)?(\w+)>")


def protected_routes() -> list[tuple[str, str]]:
    """(url name, path) of every route of the site's apps but the open ones, arguments filled."""
    found = []
    for entry in get_resolver().url_patterns:
        if not isinstance(entry, URLResolver) or entry.namespace not in APPS:
            continue
        prefix = str(entry.pattern)
        for pattern in entry.url_patterns:
            assert isinstance(pattern, URLPattern)
            name = f"{entry.namespace}:{pattern.name}"
            if name not in OPEN:
                path = ARG.sub(
                    lambda m: "mood" if m.group(2) == "kind" else "7", prefix + str(pattern.pattern)
                )
                found.append((name, "/" + path))
    return found


ROUTES = protected_routes()


def test_the_walk_finds_every_app_and_its_partials():
    names = {name for name, _ in ROUTES}
    assert {app for app in APPS} == {name.split(":")[0] for name in names}
    assert {"chat:message_poll", "nutrition:item_toggle", "wellness:delete"} <= names
    assert len(ROUTES) >= 35


@pytest.mark.parametrize(("name", "path"), ROUTES, ids=[name for name, _ in ROUTES])
def test_an_anonymous_request_is_sent_to_sign_in(name, path):
    response = Client().post(path) if name in POSTED else Client().get(path)
    if name in STATUS:
        assert response.status_code == STATUS[name]
        return
    assert response.status_code == 302
    assert response["Location"] == f"{LOGIN}?next={quote(path, safe='/')}"


@pytest.mark.parametrize(("name", "path"), ROUTES, ids=[name for name, _ in ROUTES])
def test_an_anonymous_htmx_request_sends_the_whole_page_to_sign_in(name, path):
    current = "http://testserver/food/meals/?week=2026-01-05"
    send = Client().post if name in POSTED else Client().get
    response = send(path, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=current)
    if name in STATUS:
        assert response.status_code == STATUS[name]
        return
    expected = HTMX_NEXT.get(name.split(":")[0], "/food/meals/")
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"{LOGIN}?next={quote(expected, safe='/')}"
