"""The coach's calendar of one athlete (issue 22, part 2): what a drag on it becomes, previewed and
applied through the tool engine as the chat's card and the program editor are.

* **A session dragged to another day** is the schedule family's ``reschedule_workout``
  (``training.plan_adjust.move_calls``). When the day already holds a session of the program and
  the coach has not said what to do with it, nothing is previewed: the answer asks them to choose
  swap, replace or push (``Result.choose``), each as the tool's rules say.
* **A library workout dropped on a day** is the library family's scheduling call,
  ``add_workout_to_calendar`` on that date, for a workout the athlete may see (their own and their
  coaches' shared ones, ``library.services.workouts_for``), as the tool looks it up.

Both steps are bound to the program's version the page was loaded on (a change since, by the
athlete in the chat or by another coach, is refused in words: reload). The preview is
``coach.engine.preview_calls``: the same before → after details, warnings (the days the athlete
can't train, ``training.availability``) and projected form as the chat's card; the apply is
``coach.engine.apply_batch``: all or nothing, one change set of the journal holding one program
revision by the coach (via admin, source "calendar"), which ``undo`` puts back.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from coach import whatif as projection
from coach.engine import apply_batch, preview_calls
from coach.plan import plan
from coach.preview_card import batch_items, whatif_rows
from coach.toolcalls import ToolCall
from coach.tools.base import ToolContext
from config.params import date_bounds
from journal import services as journal
from journal.models import ChangeSet
from library.services import workouts_for

from .calendar import dated_sessions
from .plan_adjust import MOVE_STRATEGIES, move_calls

VIA = "admin"  # the program revision's "via" for a coach's change in the admin
SOURCE = "calendar"
KINDS = ("move", "library")
LIBRARY_TOOL = "add_workout_to_calendar"  # the library family's scheduling tool
LIBRARY_SHOWN = 30  # workouts listed beside the calendar, newest first
STRATEGY_WORDS = {
    "swap": "Swap: the session on that day moves to this one's day",
    "replace": "Replace: the session on that day is removed (undo brings it back)",
    "push": "Push: this session and every later one move by the same number of days",
}


class CalendarRequestError(ValueError):
    """The page sent something the calendar can't read; the message says what, for a person."""


class NotFound(LookupError):
    """A session or workout that is not the athlete's (or doesn't exist): a 404, never a 403."""


@dataclass
class Result:
    """What a preview or an apply of a drag gives the page."""

    ok: bool = False
    applied: bool = False
    stale: bool = False
    choose: list[tuple[str, str]] = field(default_factory=list)  # strategies, when the day is taken
    taken_by: list[str] = field(default_factory=list)  # the sessions already on that day
    request: dict[str, str] = field(default_factory=dict)  # what the page sent, to send again
    items: list[dict[str, Any]] = field(default_factory=list)
    summary: str = ""
    warnings: list[str] = field(default_factory=list)
    whatif: list[dict[str, Any]] = field(default_factory=list)
    key_dates: list[str] = field(default_factory=list)
    version: int = 0
    change_set_id: int | None = None
    message: str = ""


@dataclass(frozen=True)
class Drag:
    """A drag as the page sent it, checked: what moves (a session) or comes (a workout) to
    ``day``."""

    kind: str
    day: datetime.date
    session: Any = None
    workout: Any = None
    strategy: str = ""

    def as_fields(self) -> dict[str, str]:
        fields = {"kind": self.kind, "date": self.day.isoformat()}
        if self.session is not None:
            fields["session"] = str(self.session.pk)
        if self.workout is not None:
            fields["workout"] = str(self.workout.pk)
        if self.strategy:
            fields["strategy"] = self.strategy
        return fields


def _int(raw: Any, name: str) -> int:
    text = str(raw or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise CalendarRequestError(f"The page didn't say which {name} (got {text[:20]!r}).")
    return int(text)


def _day(raw: Any) -> datetime.date:
    text = str(raw or "").strip()
    try:
        day = datetime.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    earliest, latest = date_bounds()
    if day is None or not earliest <= day <= latest:
        raise CalendarRequestError(f"Choose the day as YYYY-MM-DD (got {text[:20]!r}).")
    return day


def version_of(data: Any) -> int:
    return _int(data.get("version"), "version of the program it shows")


def read_drag(*, athlete: Any, program: Any, data: Any) -> Drag:
    """The drag the page posted (``kind``, ``date``, ``session`` or ``workout``, ``strategy``):
    a session of the athlete's current program, a library workout the athlete may see; anything
    else is ``NotFound`` (a crafted id) or ``CalendarRequestError`` (bad input)."""
    kind = str(data.get("kind") or "")
    if kind not in KINDS:
        raise CalendarRequestError(f"kind must be one of {', '.join(KINDS)} (got {kind[:20]!r}).")
    day = _day(data.get("date"))
    strategy = str(data.get("strategy") or "")
    if strategy and strategy not in MOVE_STRATEGIES:
        raise CalendarRequestError(
            f"strategy must be one of {', '.join(MOVE_STRATEGIES)} (got {strategy[:20]!r})."
        )
    if kind == "move":
        session = plan().session(program, _int(data.get("session"), "session"))
        if session is None:
            raise NotFound("No such session in this athlete's program.")
        return Drag(kind, day, session=session, strategy=strategy)
    workout = workouts_for(athlete).filter(pk=_int(data.get("workout"), "workout")).first()
    if workout is None:
        raise NotFound("No such workout in this athlete's library.")
    return Drag(kind, day, workout=workout)


def calls_for(drag: Drag) -> list[ToolCall]:
    if drag.kind == "move":
        return move_calls(session=drag.session, new_date=drag.day, strategy=drag.strategy)
    return [
        ToolCall(
            id="library-1",
            name=LIBRARY_TOOL,
            arguments={"workout_id": drag.workout.pk, "date": drag.day.isoformat()},
        )
    ]


def _taken_by(program: Any, drag: Drag) -> list[str]:
    """The sessions of the program already on the day a session is dragged to (not itself)."""
    if drag.kind != "move":
        return []
    found = dated_sessions(program_id=program.pk, dates=[drag.day])
    return [where for pk, (_, where) in found.items() if pk != drag.session.pk]


def _stale(now: int) -> Result:
    return Result(
        stale=True,
        version=now,
        message=(
            "The program changed since you opened the calendar (the athlete or another coach "
            "changed it), so nothing was changed. Reload the calendar and drag again."
        ),
    )


def preview(*, athlete: Any, program: Any, user: Any, data: Any) -> Result:
    """The dry run of a drag: nothing is written."""
    version, now = version_of(data), plan().version(program)
    if version != now:
        return _stale(now)
    drag = read_drag(athlete=athlete, program=program, data=data)
    taken = _taken_by(program, drag)
    if taken and not drag.strategy:
        return Result(
            choose=[(s, STRATEGY_WORDS[s]) for s in MOVE_STRATEGIES],
            taken_by=taken,
            request=drag.as_fields(),
            version=now,
            message=f"{drag.day:%a %d %b} already has a session. What should happen to it?",
        )
    calls = calls_for(drag)
    ctx = ToolContext(athlete=athlete, program=program, user=user)
    batch = preview_calls(ctx=ctx, calls=calls)
    return Result(
        ok=batch.success,
        request=drag.as_fields(),
        items=batch_items(calls, batch),
        summary=batch.preview.get("summary", ""),
        warnings=batch.preview.get("warnings", []),
        whatif=whatif_rows(batch.preview.get("whatif", [])),
        key_dates=[f"{label} ({day.isoformat()})" for label, day in projection.key_dates(ctx)],
        version=now,
        message="" if batch.success else "This change can't be made; nothing will be saved.",
    )


def apply(*, athlete: Any, program: Any, user: Any, data: Any) -> Result:
    """Apply a drag, all or nothing, bound to the version the page shows."""
    version, now = version_of(data), plan().version(program)
    if version != now:
        return _stale(now)
    drag = read_drag(athlete=athlete, program=program, data=data)
    if _taken_by(program, drag) and not drag.strategy:
        raise CalendarRequestError("That day already has a session: choose swap, replace or push.")
    calls = calls_for(drag)
    batch = apply_batch(
        athlete=athlete,
        program=program,
        user=user,
        calls=[call.to_dict() for call in calls],
        version=version,
        via=VIA,
        source=SOURCE,
    )
    if batch.stale:
        return _stale(plan().version(program))
    if not batch.success:
        return Result(
            items=batch_items(calls, batch),
            version=batch.program_version,
            message="This change can't be made; nothing was saved.",
        )
    return Result(
        ok=True,
        applied=True,
        items=batch_items(calls, batch),
        summary=batch.preview.get("summary", ""),
        version=batch.program_version,
        change_set_id=batch.change_set_id,
        message=f"Saved {batch.counted} as one change.",
    )


def _from_this_calendar(change_set: ChangeSet, program: Any) -> bool:
    """Whether ``change_set`` holds the plan's record of an apply of this calendar on
    ``program`` (its revision, read as the journal returns it: ``program_id`` and ``source``)."""
    return any(
        getattr(part, "program_id", None) == program.pk and getattr(part, "source", "") == SOURCE
        for part in journal.parts(change_set)
    )


def undo(*, athlete: Any, program: Any, user: Any, data: Any) -> str:
    """Undo a change this calendar applied to the athlete's program (the page's last apply) as
    ``user``; the words of what happened. Any other change set (another athlete's, or a change
    made elsewhere: the program's History undoes those) is ``NotFound``; one that can't be undone
    any more (already undone, or a later change in the way) is ``journal.JournalError``."""
    change_set = ChangeSet.objects.filter(
        pk=_int(data.get("change_set"), "change"), athlete=athlete
    ).first()
    if change_set is None or not _from_this_calendar(change_set, program):
        raise NotFound("No such change of this calendar's.")
    journal.undo(
        change_set, actor=user, summary=f"Undo from the coach's calendar: {change_set.summary}"
    )
    return f"Undid: {change_set.summary}."


def library_workouts(athlete: Any) -> list[Any]:
    """The library workouts the athlete may see, newest first, to drag onto a day."""
    return list(workouts_for(athlete).order_by("-pk")[:LIBRARY_SHOWN])
