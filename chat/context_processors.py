"""The site's menu: the chat, then each family's pages as it declares them (``NAV`` beside its
``TOOLS``: ``(label, URL name)`` pairs), in ``INSTALLED_APPS`` order, so a new family's page joins
the menu with no edit of the base template; and the pages linked under the week in the chat's
panel (``PANEL``, the same pairs). The menu is the same for every request: it is built
once per process, on first use (the URLs must be loaded by then)."""

from __future__ import annotations

import functools

from django.http import HttpRequest
from django.urls import reverse

from coach.plan import declared


def _links(declaration: str) -> tuple[dict[str, str], ...]:
    return tuple({"label": label, "url": reverse(name)} for label, name in declared(declaration))


@functools.cache
def nav_links() -> tuple[dict[str, str], ...]:
    return _links("NAV")


@functools.cache
def panel_links() -> tuple[dict[str, str], ...]:
    return _links("PANEL")


def nav(request: HttpRequest) -> dict[str, object]:
    return {"nav_links": nav_links(), "panel_links": panel_links()}
