"""Realignment (seed 003): the calls that realign a plan after missed sessions, or make the next
days lighter. Deterministic: the same program and day always give the same calls, built from the
existing tools, so they are previewed, edited, applied and undone like any other proposal.

* **Missed**: a past session (before the athlete's today) with something to do (exercises or
  cardio; rest days are never missed) that is neither completed nor skipped, and dated after the
  last session the athlete did or skipped. Sessions left undone before a later session was done
  are history, not a backlog: pushing the plan for them would move weeks of it for one old gap.
* **Realign my plan** (``realign_calls``): one ``reschedule_workout`` ``push`` of the first missed
  session to today, so it and every later open session move by the same number of days (the card
  lists every date before → after). The chat offers it from ``REALIGN_MIN_MISSED`` (3) missed
  sessions; asked for explicitly it works from one. The push's own rules hold (completed sessions
  never move, never past the program's end: the error says by how much it could push).
* **Move a session** (``move_calls``): the calendar's drag, one ``reschedule_workout``.
* **Not feeling 100 %** (``lighter_calls``): for the open sessions of today and the next
  ``days - 1`` days (``MIN_DAYS``..``MAX_DAYS``, 3 to 14): each exercise gets about a third fewer
  working sets (at least one less, never below one) and a load about 10 % lower (``lower_load``);
  each cardio block about a quarter shorter. One ``modify_exercise`` per exercise and one
  ``modify_session`` per cardio block, so each can be edited or removed on the card.

Declared as ``ADJUSTMENTS`` (``training.tools``), its ``PlanAdjustError`` the engine's
(``coach.plan``), the conversation layer turns these into a batch (``chat.plan_actions``); the model and the offline
coach reach the same changes through the ``realign_plan`` and ``lighten_plan`` tools
(``training.tools.plan_adjust``), which run these very calls.
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q

from coach.plan import PlanAdjustError
from coach.toolcalls import ToolCall
from programs.models import Exercise, Session

from .services import athlete_today, profile_for

__all__ = [
    "MAX_DAYS",
    "MIN_DAYS",
    "PlanAdjustError",
    "lighter_calls",
    "missed_sessions",
    "missed_summary",
    "realign_calls",
    "today",
]

REALIGN_MIN_MISSED = 3
MIN_DAYS, MAX_DAYS = 3, 14
SET_CUT = 1 / 3
LOAD_FACTOR = 0.9
CARDIO_FACTOR = 0.75
TEXT_LIMIT = 2000  # CardioInput's instructions and notes


def today(athlete) -> datetime.date:
    """The athlete's today, in their time zone (what "missed" and "the next days" count from)."""
    return athlete_today(profile=profile_for(athlete=athlete))


@dataclass(frozen=True)
class MissedSummary:
    """What the chat offers: the missed sessions (oldest first) and whether to offer Realign."""

    sessions: list[Session]

    @property
    def count(self) -> int:
        return len(self.sessions)

    @property
    def offer_realign(self) -> bool:
        return self.count >= REALIGN_MIN_MISSED


def _with_work(queryset):
    """Sessions with exercises or a cardio block (a rest day is neither)."""
    return queryset.annotate(n_exercises=Count("exercises")).filter(
        Q(n_exercises__gt=0) | Q(cardio__isnull=False)
    )


def missed_sessions(*, program_id: int, today: datetime.date) -> list[Session]:
    """The missed sessions of the program, oldest first (see the module docstring)."""
    past = Session.objects.filter(week__program_id=program_id, scheduled_date__lt=today)
    last_done = (
        past.filter(Q(completed=True) | Q(skipped=True))
        .order_by("-scheduled_date")
        .values_list("scheduled_date", flat=True)
        .first()
    )
    open_past = past.filter(completed=False, skipped=False)
    if last_done is not None:
        open_past = open_past.filter(scheduled_date__gt=last_done)
    return list(
        _with_work(open_past)
        .select_related("week")
        .order_by("scheduled_date", "week__position", "position")
    )


def missed_summary(*, program_id: int, today: datetime.date) -> MissedSummary:
    return MissedSummary(sessions=missed_sessions(program_id=program_id, today=today))


def realign_calls(*, program_id: int, today: datetime.date) -> list[ToolCall]:
    """``reschedule_workout`` push of the first missed session to ``today``."""
    missed = missed_sessions(program_id=program_id, today=today)
    if not missed:
        raise PlanAdjustError(
            "No session has been missed since your last workout: nothing to realign."
        )
    return [_reschedule("realign-1", missed[0], today, "push")]


MOVE_STRATEGIES = ("swap", "replace", "push")


def move_calls(*, session: Session, new_date: datetime.date, strategy: str) -> list[ToolCall]:
    """The calendar's drag of a session to another day: one ``reschedule_workout``, swapping with
    a session already on that day, replacing it, or pushing every later one by the same days (an
    unknown strategy swaps). The athlete's calendar offers swap and push; the coach's all three."""
    return [
        _reschedule(
            "move-1", session, new_date, strategy if strategy in MOVE_STRATEGIES else "swap"
        )
    ]


def _reschedule(call_id: str, session: Session, new_date: datetime.date, strategy: str) -> ToolCall:
    return ToolCall(
        id=call_id,
        name="reschedule_workout",
        arguments={
            "workout_id": session.ref,
            "new_date": new_date.isoformat(),
            "strategy": strategy,
        },
    )


def check_days(days: object) -> int:
    if isinstance(days, bool) or not isinstance(days, int) or not MIN_DAYS <= days <= MAX_DAYS:
        raise PlanAdjustError(
            f"A lighter stretch lasts {MIN_DAYS} to {MAX_DAYS} days (got {str(days)[:20]}).",
            "days",
        )
    return days


def fewer_sets(sets: int) -> int:
    """About a third fewer, at least one less, never below one: 2→1, 3→2, 4→3, 5→3, 6→4."""
    return max(1, sets - max(1, round(sets * SET_CUT)))


_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_RPE = re.compile(r"\b(RPE|RIR)\s*(\d+(?:\.\d+)?)", re.I)
_WEIGHT = re.compile(r"(\d+(?:\.\d+)?)\s*(kg|kgs|lb|lbs|pounds?)\b", re.I)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _number(value: float) -> str:
    return f"{value:g}"


def _round_to(value: float, step: float) -> float:
    return max(step, math.floor(value / step + 0.5) * step)


def lower_load(load: str) -> str:
    """About 10 % lighter, in the load's own terms; a load without a number stays as it is.

    ``"185 lbs"`` → ``"165 lbs"`` (5 lb steps), ``"80 kg"`` → ``"72.5 kg"`` (2.5 kg steps),
    ``"70% 1RM"`` → ``"63% 1RM"``, ``"RPE 8"`` → ``"RPE 7"`` (one easier; ``RIR 2`` → ``RIR 3``),
    ``"bodyweight"`` → ``"bodyweight"``."""
    if m := _RPE.search(load):
        value = float(m.group(2))
        new = value + 1 if m.group(1).upper() == "RIR" else max(1.0, value - 1)
        return load[: m.start(2)] + _number(new) + load[m.end(2) :]
    if m := _PERCENT.search(load):
        new = max(1, round(float(m.group(1)) * LOAD_FACTOR))
        return load[: m.start(1)] + str(new) + load[m.end(1) :]
    if m := _WEIGHT.search(load):
        step = 2.5 if m.group(2).lower().startswith("kg") else 5
        value = float(m.group(1))
        new = min(_round_to(value * LOAD_FACTOR, step), value)
        if new >= value and value > step:
            new = value - step
        return load[: m.start(1)] + _number(new) + load[m.end(1) :]
    if m := _NUMBER.search(load):
        value = float(m.group(0))
        new = round(value * LOAD_FACTOR, 1)
        return load[: m.start()] + _number(new) + load[m.end() :]
    return load


def shorter_minutes(minutes: int) -> int:
    """About a quarter shorter, at least one minute less when it can be, never below one."""
    return max(1, min(minutes - 1, round(minutes * CARDIO_FACTOR)))


def lighter_calls(*, program_id: int, today: datetime.date, days: object) -> list[ToolCall]:
    """``modify_exercise`` and ``modify_session`` calls that make today and the next ``days - 1``
    days lighter (see the module docstring)."""
    days = check_days(days)
    last = today + datetime.timedelta(days=days - 1)
    sessions = (
        Session.objects.filter(
            week__program_id=program_id,
            scheduled_date__gte=today,
            scheduled_date__lte=last,
            completed=False,
            skipped=False,
        )
        .select_related("week", "cardio")
        .prefetch_related(Prefetch("exercises", queryset=Exercise.objects.order_by("position")))
        .order_by("scheduled_date", "week__position", "position")
    )
    calls: list[ToolCall] = []
    for session in sessions:
        where = {"weekNumber": session.week.position, "sessionNumber": session.position}
        for exercise in session.exercises.all():
            if exercise.skipped:
                continue
            updates = {}
            if exercise.working_sets > 1:
                updates["workingSets"] = fewer_sets(exercise.working_sets)
            load = lower_load(exercise.target_load)
            if load != exercise.target_load:
                updates["targetLoad"] = load
            if updates:
                calls.append(
                    ToolCall(
                        id=f"lighter-{len(calls) + 1}",
                        name="modify_exercise",
                        arguments={
                            **where,
                            "exerciseNumber": exercise.position,
                            "updates": updates,
                        },
                    )
                )
        cardio = getattr(session, "cardio", None)
        if cardio is not None and cardio.duration > 1:
            block = {
                "type": cardio.type,
                "duration": shorter_minutes(cardio.duration),
                "modality": cardio.modality,
                "instructions": cardio.instructions[:TEXT_LIMIT],
                "notes": cardio.notes[:TEXT_LIMIT],
            }
            calls.append(
                ToolCall(
                    id=f"lighter-{len(calls) + 1}",
                    name="modify_session",
                    arguments={**where, "updates": {"cardio": block}},
                )
            )
    if not calls:
        raise PlanAdjustError(
            f"Nothing to make lighter from {today.isoformat()} to {last.isoformat()}: no open "
            "session with sets, a load or cardio to reduce.",
            "days",
        )
    return calls
