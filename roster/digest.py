"""The roster's section of the coach's e-mail digest (``inbox.notify`` finds this module by name,
``digest_lines`` and ``DIGEST_TITLE``): the needs-attention flags raised for the coach's athletes
since the last digest, the crisis ones first. Only the flag's summary is written, never the
athlete's own words (``Flag.excerpt``), which stay behind the coach's login."""

from __future__ import annotations

import datetime
from typing import Any

from access import policy

from .models import Flag, FlagKind, FlagStatus

DIGEST_TITLE = "New needs-attention flags"
MAX_LINES = 50


def digest_lines(*, coach: Any, since: datetime.datetime | None) -> list[str]:
    flags = Flag.objects.filter(
        athlete_id__in=policy.athletes_of(coach), status=FlagStatus.OPEN
    ).select_related("athlete")
    if since is not None:
        flags = flags.filter(created_at__gt=since)
    ordered = sorted(flags, key=lambda f: (f.kind != FlagKind.CRISIS, -f.pk))
    lines = [f"{flag.athlete.get_username()}: {flag.summary}" for flag in ordered[:MAX_LINES]]
    if len(ordered) > MAX_LINES:
        lines.append(f"… and {len(ordered) - MAX_LINES} more on the roster.")
    return lines
