"""The program panel of the chat page, rendered once per program version and day.

The panel (``chat/_week.html``: one week's sessions and exercises) is the same HTML for every
request that shows the same week of the same program on the same day, and a program never changes
without its version changing (every service bumps ``Program.version``; the page already trusts
that when it skips resending the panel, ``chat.views.common.regions``). So the rendered HTML is
kept in Django's cache under a key made of everything it depends on: the program's state
(the plan's ``version_key``, ``coach.plan``: for a program its id, version and ``updated_at``), the week asked for, and today's
date (which week is current, which session is today). A change gives a new key;
nothing is ever invalidated by hand, so the cache can't be stale, and a per-process cache (the
default local-memory one) is as correct as a shared one. The panel holds no per-request data
(no CSRF token, no user), so one rendering serves every request that has the same key.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from coach.plan import plan

from .context_processors import panel_links

TEMPLATE = "chat/_week.html"
TTL_SECONDS = 24 * 60 * 60  # a key can't outlive its day anyway


@dataclass(frozen=True)
class WeekPanel:
    """What the ``program-panel`` partial shows: the version it was rendered from (the page's
    ``#program-version``) and the week's HTML."""

    version: int
    html: SafeString


def panel_key(program: Any, *, week_number: int | None, today: datetime.date) -> str:
    return f"chat:week-panel:{plan().version_key(program)}:{week_number or 0}:{today.isoformat()}"


def week_panel(
    program: Any, *, week_number: int | None = None, today: datetime.date | None = None
) -> WeekPanel:
    """The panel for week ``week_number`` (the current week when None) of ``program`` as loaded:
    from the cache, or read (three queries) and rendered once."""
    today = today or timezone.localdate()
    key = panel_key(program, week_number=week_number, today=today)
    html = cache.get(key)
    if html is None:
        view = plan().week_panel(program, today=today, week_number=week_number)
        html = render_to_string(TEMPLATE, {"week": view, "panel_links": panel_links()})
        cache.set(key, str(html), TTL_SECONDS)
    return WeekPanel(version=program.version, html=mark_safe(html))
