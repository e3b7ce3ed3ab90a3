"""Flags: computed from every family's findings, and the coach's resolve and snooze.

``compute_flags`` is what the periodic task (``roster.tasks.compute_flags``) and the roster's
"Check now" button run. It is idempotent: a finding whose evidence already has a flag (open,
snoozed or resolved) updates nothing but the open flag's wording, and a condition (``EVENT_KINDS``
aside) keeps one open flag per athlete and kind, cleared (recorded as Spotter's action) once it no
longer holds; a snooze past its day wakes up. The coach's actions go through ``resolve`` and ``snooze``, each one
``FlagAction`` row with who and when, written with the change.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from access import policy

from . import chat_reads, discovery
from .findings import EVENT_KINDS, Finding, Limits
from .models import Flag, FlagAction, FlagStatus

MAX_SNOOZE_DAYS = 60


class FlagActionError(ValueError):
    """A resolve or snooze that can't be done; the message is for a person."""


@dataclass(frozen=True)
class Computed:
    created: int
    cleared: int
    woke: int


def ids_of(values: Any) -> list[int]:
    """The ids in a one-field ``values()`` queryset (the policy's ``athletes_of`` and kin)."""
    return sorted({value for row in values for value in row.values()})


def athletes_to_watch() -> list[int]:
    """Every athlete someone coaches (the access policy's coaching relation)."""
    return ids_of(policy.coached_athletes())


def gather(athlete_ids: list[int], today: datetime.date, limits: Limits) -> list[Finding]:
    """Every family's findings and the chat's, for ``athlete_ids``."""
    found = chat_reads.findings(athlete_ids, today, limits)
    for findings in discovery.declared("findings"):
        found += findings(athlete_ids, today, limits)
    facts = collect_facts(athlete_ids, today)
    for athlete_id in athlete_ids:
        last = facts.get(athlete_id, {}).get("last_active")
        idle = (today - last).days if last else None
        if last is not None and idle >= limits.inactive_days:
            found.append(
                Finding(
                    athlete_id=athlete_id,
                    kind="inactive",
                    evidence_key=f"inactive:{last.isoformat()}",
                    summary=f"No workout or log for {idle} days (last on {last:%a %d %b})",
                    occurred_on=last,
                )
            )
    return found


def collect_facts(athlete_ids: list[int], today: datetime.date) -> dict[int, dict[str, Any]]:
    """Every family's facts, merged per athlete; ``last_active`` is the newest of theirs."""
    merged: dict[int, dict[str, Any]] = {pk: {} for pk in athlete_ids}
    for facts in discovery.declared("facts"):
        for athlete_id, values in facts(athlete_ids, today).items():
            row = merged.setdefault(athlete_id, {})
            last = [day for day in (row.get("last_active"), values.get("last_active")) if day]
            row.update(values)
            row["last_active"] = max(last, default=None)
    return merged


def compute_flags(
    *, athlete_ids: list[int] | None = None, today: datetime.date | None = None
) -> Computed:
    today = today or timezone.localdate()
    limits = Limits.from_settings()
    ids = athletes_to_watch() if athlete_ids is None else sorted(athlete_ids)
    if not ids:
        return Computed(0, 0, 0)
    found = gather(ids, today, limits)
    existing = {
        (flag.athlete_id, flag.kind, flag.evidence_key): flag
        for flag in Flag.objects.filter(athlete_id__in=ids)
    }
    # A condition has one open (or snoozed) flag per athlete and kind: a finding of it whose
    # anchor moved (a longer run of missed sessions, form low for longer than the window) goes
    # on updating that flag instead of clearing it and raising another.
    holding = {
        (flag.athlete_id, flag.kind): flag
        for flag in existing.values()
        if flag.kind not in EVENT_KINDS and flag.status in (FlagStatus.OPEN, FlagStatus.SNOOZED)
    }
    still: set[int] = set()
    created = cleared = woke = 0
    with transaction.atomic():
        for finding in found:
            flag = existing.get((finding.athlete_id, finding.kind, finding.evidence_key))
            if flag is None:
                flag = holding.get((finding.athlete_id, finding.kind))
            if flag is None:
                created += _create(finding)
                continue
            still.add(flag.pk)
            if flag.status == FlagStatus.OPEN and (flag.summary, flag.excerpt) != (
                finding.summary,
                finding.excerpt,
            ):
                Flag.objects.filter(pk=flag.pk).update(
                    summary=finding.summary[:300], excerpt=finding.excerpt
                )
        for flag in existing.values():
            if flag.status == FlagStatus.SNOOZED and flag.snoozed_until <= today:
                _record(flag, FlagStatus.OPEN, FlagAction.Action.WOKE, actor=None)
                woke += 1
            elif (
                flag.status in (FlagStatus.OPEN, FlagStatus.SNOOZED)
                and flag.kind not in EVENT_KINDS
                and flag.pk not in still
            ):
                _record(flag, FlagStatus.CLEARED, FlagAction.Action.CLEARED, actor=None)
                cleared += 1
    return Computed(created=created, cleared=cleared, woke=woke)


def _create(finding: Finding) -> int:
    """Create the finding's flag; 0 when a concurrent run made it first (the constraint)."""
    try:
        with transaction.atomic():
            Flag.objects.create(
                athlete_id=finding.athlete_id,
                kind=finding.kind,
                evidence_key=finding.evidence_key[:200],
                summary=finding.summary[:300],
                source=finding.source,
                excerpt=finding.excerpt,
                link=finding.link,
                occurred_on=finding.occurred_on,
            )
    except IntegrityError:
        return 0
    return 1


def _record(
    flag: Flag,
    status: str,
    action: str,
    *,
    actor: Any,
    note: str = "",
    until: datetime.date | None = None,
) -> None:
    now = timezone.now()
    Flag.objects.filter(pk=flag.pk).update(
        status=status,
        snoozed_until=until,
        decided_by=actor if actor is not None else flag.decided_by,
        decided_at=now if actor is not None else flag.decided_at,
        updated_at=now,
    )
    FlagAction.objects.create(flag=flag, action=action, actor=actor, note=note, until=until)


def actionable(user: Any) -> Any:
    """The flags ``user`` may resolve or snooze: their athletes' (the policy's ``REVIEW`` on the
    athlete: the coach, or a superuser). Staff readers act on none."""
    return policy.visible(Flag.objects.all(), user, lookup="athlete", action=policy.REVIEW)


@transaction.atomic
def resolve(*, flag_id: int, actor: Any, note: str = "") -> Flag:
    flag = _lock(flag_id, actor)
    if flag.status == FlagStatus.RESOLVED:
        raise FlagActionError("This flag is already resolved.")
    _record(flag, FlagStatus.RESOLVED, FlagAction.Action.RESOLVED, actor=actor, note=note[:500])
    flag.refresh_from_db()
    return flag


@transaction.atomic
def snooze(*, flag_id: int, actor: Any, days: int, note: str = "") -> Flag:
    if not 1 <= days <= MAX_SNOOZE_DAYS:
        raise FlagActionError(f"Snooze for 1 to {MAX_SNOOZE_DAYS} days (got {days}).")
    flag = _lock(flag_id, actor)
    if flag.status not in (FlagStatus.OPEN, FlagStatus.SNOOZED):
        raise FlagActionError("Only an open flag can be snoozed.")
    until = timezone.localdate() + datetime.timedelta(days=days)
    _record(
        flag,
        FlagStatus.SNOOZED,
        FlagAction.Action.SNOOZED,
        actor=actor,
        note=note[:500],
        until=until,
    )
    flag.refresh_from_db()
    return flag


def _lock(flag_id: int, actor: Any) -> Flag:
    """The flag, locked, if ``actor`` may act on it; ``Flag.DoesNotExist`` otherwise (a 404)."""
    return actionable(actor).select_for_update().get(pk=flag_id)
