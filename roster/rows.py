"""The roster: one row per athlete a user may read, sorted by how much they need the coach.

Who is on it: a coach's athletes (``access.policy.athletes_of``); for a staff reader, every active
user who can't use the admin (athletes), read-only. Every column comes from a bulk read (the
families' ``facts``, the chat's waiting proposals, the open flags, the inbox's unread counts when
that app is installed), so the number of queries doesn't grow with the athletes.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils.html import format_html
from django.utils.module_loading import import_string
from django.utils.safestring import SafeString, mark_safe

from access import policy

from . import chat_reads, discovery
from .findings import need_score, percent, sparkline
from .models import Flag, FlagKind, FlagStatus
from .services import collect_facts

# The inbox app's unread counts, if it is installed: a function ``(coach) -> {athlete_id:
# unread}`` (one query, docs/coaching-inbox.md) at this dotted path. Without the app the column
# is left out.
UNREAD_HOOK_APP = "inbox"
UNREAD_HOOK = "inbox.counts.unread_by_athlete"


@dataclass
class RosterRow:
    athlete: Any
    facts: dict[str, Any]
    flags: list[Flag] = field(default_factory=list)
    waiting: int = 0
    unread: int | None = None
    score: int = 0
    today: datetime.date | None = None

    @property
    def this_week_chip(self) -> SafeString:
        return chip(*self.this_week, self.week_colour)

    @property
    def last4_chip(self) -> SafeString:
        return chip(*self.last4, self.last4_colour)

    @property
    def this_week(self) -> tuple[int, int]:
        return self.facts.get("this_week") or (0, 0)

    @property
    def last4(self) -> tuple[int, int]:
        return self.facts.get("last4") or (0, 0)

    @property
    def week_colour(self) -> str | None:
        return colour(*self.this_week)

    @property
    def last4_colour(self) -> str | None:
        return colour(*self.last4)

    @property
    def days_since(self) -> int | None:
        last = self.facts.get("last_workout")
        return (self.today - last).days if last and self.today else None

    @property
    def form_now(self) -> float | None:
        form = [v for v in self.facts.get("form") or [] if v is not None]
        return form[-1] if form else None

    @property
    def spark(self) -> SafeString:
        return mark_safe(sparkline(self.facts.get("form") or []))  # numbers only

    @property
    def readiness_trend(self) -> str:
        """ "↑", "↓" or "→": the last 3 logged days against the 4 before; "" without logs."""
        values = [v for v in self.facts.get("readiness") or [] if v is not None]
        if len(values) < 2:
            return ""
        recent, before = values[-3:], values[:-3] or values[:1]
        change = sum(recent) / len(recent) - sum(before) / len(before)
        return "↑" if change > 0.25 else "↓" if change < -0.25 else "→"

    @property
    def readiness_now(self) -> float | None:
        values = [v for v in self.facts.get("readiness") or [] if v is not None]
        return values[-1] if values else None

    @property
    def crisis(self) -> bool:
        return any(flag.kind == FlagKind.CRISIS for flag in self.flags)


def colour(done: int, planned: int) -> str | None:
    """The compliance colour of ``done`` of ``planned`` sessions, by the bands of the family that
    owns compliance (TrainingPeaks': green 80–120 %, yellow 50–79 or 121–150 %, red otherwise,
    missed included); None when nothing was due."""
    share = percent(done, planned)
    bands = discovery.one("compliance_colour")
    if share is None or bands is None:
        return None
    return bands(share)


def chip(done: int, planned: int, colour_name: str | None) -> SafeString:
    """``done/planned`` in its compliance colour; a dash when nothing was planned."""
    if not planned:
        return mark_safe('<span class="muted">–</span>')
    return format_html(
        '<span class="chip {}" title="{} of {} sessions done">{}/{}</span>',
        colour_name or "",
        done,
        planned,
        done,
        planned,
    )


def athletes_for(user: Any) -> QuerySet:
    """The athletes on ``user``'s roster: a coach's own; every athlete for a staff reader."""
    users = get_user_model().objects.filter(is_active=True)
    if policy.is_staff_reader(user):
        return users.filter(is_staff=False, is_superuser=False)
    return users.filter(pk__in=policy.athletes_of(user))


def unread_hook() -> Any | None:
    """The inbox's ``unread_by_athlete`` when the inbox app is installed, else None."""
    if not apps.is_installed(UNREAD_HOOK_APP):
        return None
    return import_string(UNREAD_HOOK)


def roster(
    user: Any,
    *,
    today: datetime.date,
    search: str = "",
    kind: str = "",
    flagged: bool = False,
) -> tuple[list[RosterRow], bool]:
    """The rows for ``user`` (``search`` in the athlete's names, only those with an open flag of
    ``kind``, or any open flag with ``flagged``), neediest first; and whether the unread column
    is shown."""
    athletes = athletes_for(user)
    if search:
        athletes = athletes.filter(
            Q(username__icontains=search)
            | Q(first_name__icontains=search)
            | Q(last_name__icontains=search)
        )
    athletes = list(athletes.order_by("username"))
    ids = [athlete.pk for athlete in athletes]
    facts = collect_facts(ids, today) if ids else {}
    flags: dict[int, list[Flag]] = defaultdict(list)
    for flag in Flag.objects.filter(athlete_id__in=ids, status=FlagStatus.OPEN).order_by(
        "-occurred_on", "-pk"
    ):
        flags[flag.athlete_id].append(flag)
    waiting = chat_reads.waiting(ids) if ids else {}
    hook = unread_hook()
    unread = (
        {a: n for a, n in hook(user).items() if a in set(ids)} if hook is not None and ids else {}
    )
    rows = []
    for athlete in athletes:
        row = RosterRow(
            athlete=athlete,
            facts=facts.get(athlete.pk, {}),
            flags=flags.get(athlete.pk, []),
            waiting=waiting.get(athlete.pk, 0),
            unread=unread.get(athlete.pk, 0) if hook is not None else None,
            today=today,
        )
        if kind and not any(flag.kind == kind for flag in row.flags):
            continue
        if flagged and not row.flags:
            continue
        row.score = need_score(
            open_kinds=[flag.kind for flag in row.flags],
            waiting=row.waiting,
            unread=row.unread or 0,
            week_colour=row.week_colour,
        )
        rows.append(row)
    rows.sort(key=lambda row: (-row.score, row.athlete.username))
    return rows, hook is not None
