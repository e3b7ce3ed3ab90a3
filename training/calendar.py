"""The athlete's calendar: month and week views of their sessions with each day's activities.

Reads only, scoped to one athlete: the dated sessions of every program they own (as the iCal feed
shows them) and their activities, in a constant number of queries whatever the range. Each
session gets a state and a compliance colour from ``training.compliance``:

* ``planned``: today or later and not completed (no colour);
* ``completed``: coloured by its logged duration against its planned one;
* ``skipped``: skipped on purpose, with its reason (no colour, never missed);
* ``missed``: before today, neither completed nor skipped (red);
* ``rest``: no exercises and no cardio (no colour, never missed).

A session of the athlete's current program (the one the chat is about) that isn't completed is
``movable``: the page gives it a **Move** form, which proposes the move in the chat (nothing moves
before Apply). Sessions of older programs are shown but not moved from here.
"""

from __future__ import annotations

import calendar as stdlib_calendar
import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q

from config.params import date_bounds
from programs.models import Exercise, Session
from programs.workout_log import athlete_program

from . import compliance
from .models import Activity, UnavailableDay

VIEWS = ("month", "week")
STATE_LABELS = {
    "planned": "Planned",
    "completed": "Completed",
    "skipped": "Skipped",
    "missed": "Missed",
    "rest": "Rest",
}


class CalendarError(ValueError):
    """A date or view the calendar can't show; the message names the bounds."""


@dataclass(frozen=True)
class CalendarSession:
    id: int
    name: str
    program: str
    week: int
    position: int
    date: datetime.date
    state: str
    colour: str | None
    planned_minutes: int | None
    actual_minutes: int | None
    movable: bool = False

    @property
    def state_label(self) -> str:
        return STATE_LABELS[self.state]

    @property
    def percent(self) -> int | None:
        if self.state != "completed" or not self.planned_minutes or self.actual_minutes is None:
            return None
        return compliance.compliance_percent(
            planned_minutes=self.planned_minutes, actual_minutes=self.actual_minutes
        )


@dataclass(frozen=True)
class CalendarActivity:
    id: int
    name: str
    sport: str
    minutes: int
    session_id: int | None


@dataclass
class CalendarDay:
    date: datetime.date
    in_range: bool
    is_today: bool
    sessions: list[CalendarSession] = field(default_factory=list)
    activities: list[CalendarActivity] = field(default_factory=list)
    unavailable: UnavailableDay | None = None  # the athlete can't train on this day

    @property
    def busy(self) -> bool:
        return bool(self.sessions or self.activities)


@dataclass
class CalendarView:
    view: str
    title: str
    anchor: datetime.date
    today: datetime.date
    weeks: list[list[CalendarDay]]
    previous: datetime.date
    next: datetime.date

    @property
    def days(self) -> list[CalendarDay]:
        return [day for week in self.weeks for day in week if day.in_range]


def parse_anchor(raw: str | None, *, today: datetime.date) -> datetime.date:
    """``YYYY-MM-DD`` (or ``YYYY-MM``, the first of that month) within the calendar's bounds;
    empty means today."""
    if not raw:
        return today
    text = raw.strip()
    try:
        value = (
            datetime.date.fromisoformat(f"{text}-01")
            if len(text) == 7
            else datetime.date.fromisoformat(text)
        )
    except ValueError:
        raise CalendarError(f"date must be YYYY-MM-DD or YYYY-MM (got {text[:20]!r}).") from None
    earliest, latest = date_bounds()  # the one range of dates in URLs (config.params)
    if not earliest <= value <= latest:
        raise CalendarError(
            f"The calendar shows {earliest.isoformat()} to {latest.isoformat()} "
            f"(got {value.isoformat()})."
        )
    return value


def _monday(day: datetime.date) -> datetime.date:
    return day - datetime.timedelta(days=day.weekday())


def _session_row(
    session: Session, *, today: datetime.date, seconds: list[int], current: int | None
) -> CalendarSession:
    cardio = getattr(session, "cardio", None)
    sets = [
        (e.warmup_sets + e.working_sets, e.rest_seconds)
        for e in session.exercises.all()
        if not e.skipped
    ]
    planned = compliance.planned_minutes(
        cardio_minutes=cardio.duration if cardio else None, sets=sets
    )
    actual = compliance.logged_minutes(
        session_minutes=session.duration,
        cardio_actual_minutes=cardio.actual_duration if cardio else None,
        activity_seconds=seconds,
    )
    rest = planned is None
    if rest:
        state = "rest"
    elif session.completed:
        state = "completed"
    elif session.skipped:
        state = "skipped"
    else:
        state = "missed" if session.scheduled_date < today else "planned"
    return CalendarSession(
        id=session.pk,
        name=session.name,
        program=session.week.program.name,
        week=session.week.position,
        position=session.position,
        date=session.scheduled_date,
        state=state,
        colour=compliance.compliance_colour(
            date=session.scheduled_date,
            today=today,
            completed=session.completed,
            planned_minutes=planned,
            actual_minutes=actual,
            rest=rest or state == "skipped",
        ),
        planned_minutes=planned,
        actual_minutes=actual,
        movable=not session.completed and session.week.program_id == current,
    )


def calendar_days(
    *, athlete, start: datetime.date, end: datetime.date, today: datetime.date
) -> dict[datetime.date, CalendarDay]:
    """Every day from ``start`` to ``end`` with its sessions (in program order) and activities."""
    days = {
        start + datetime.timedelta(days=n): CalendarDay(
            date=start + datetime.timedelta(days=n),
            in_range=True,
            is_today=start + datetime.timedelta(days=n) == today,
        )
        for n in range((end - start).days + 1)
    }
    sessions = list(
        Session.objects.filter(
            week__program__athlete=athlete,
            week__program__as_template__isnull=True,  # a coach's template is nobody's plan
            scheduled_date__gte=start,
            scheduled_date__lte=end,
        )
        .select_related("week__program", "cardio")
        .prefetch_related(Prefetch("exercises", queryset=Exercise.objects.order_by("position")))
        .order_by("scheduled_date", "week__program_id", "week__position", "position")
    )
    activities = list(
        Activity.objects.filter(
            Q(local_date__gte=start, local_date__lte=end)
            | Q(session_id__in=[s.pk for s in sessions]),
            athlete=athlete,
        )
    )
    for mark in UnavailableDay.objects.filter(athlete=athlete, date__gte=start, date__lte=end):
        days[mark.date].unavailable = mark
    linked: dict[int, list[int]] = defaultdict(list)
    for activity in activities:
        if activity.session_id is not None:
            linked[activity.session_id].append(activity.duration_s)
    current = athlete_program(athlete=athlete)
    current_id = current.pk if current is not None else None
    for session in sessions:
        row = _session_row(
            session, today=today, seconds=linked.get(session.pk, []), current=current_id
        )
        days[session.scheduled_date].sessions.append(row)
    for activity in sorted(activities, key=lambda a: (a.start, a.pk)):
        if activity.local_date in days:
            days[activity.local_date].activities.append(
                CalendarActivity(
                    id=activity.pk,
                    name=activity.name or activity.get_sport_display(),
                    sport=activity.get_sport_display(),
                    minutes=round(activity.duration_s / 60),
                    session_id=activity.session_id,
                )
            )
    return days


def dated_sessions(*, program_id: int, dates) -> dict[int, tuple[datetime.date, str]]:
    """The sessions of one program on ``dates`` (a list or a queryset of dates), each as its date
    and where it is in words ("Week 1, Session 2: Tempo run"), by id: one query."""
    rows = (
        Session.objects.filter(week__program_id=program_id, scheduled_date__in=dates)
        .order_by("scheduled_date", "week__position", "position")
        .values_list("pk", "scheduled_date", "week__position", "position", "name")
    )
    return {
        pk: (day, f"Week {week}, Session {position}: {name}")
        for pk, day, week, position, name in rows
    }


def calendar_view(
    *, athlete, view: str, anchor: datetime.date, today: datetime.date
) -> CalendarView:
    """The month containing ``anchor`` (whole weeks, Monday first; days of the neighbouring months
    are shown but not counted) or the week containing it."""
    if view not in VIEWS:
        raise CalendarError(f"view must be one of {', '.join(VIEWS)} (got {view[:20]!r}).")
    if view == "week":
        start = _monday(anchor)
        end = start + datetime.timedelta(days=6)
        grid_start, grid_end = start, end
        title = f"Week of {start.day} {start:%B %Y}"
        previous, following = start - datetime.timedelta(days=7), start + datetime.timedelta(days=7)
    else:
        start = anchor.replace(day=1)
        end = start.replace(day=stdlib_calendar.monthrange(start.year, start.month)[1])
        grid_start = _monday(start)
        grid_end = _monday(end) + datetime.timedelta(days=6)
        title = start.strftime("%B %Y")
        previous = (start - datetime.timedelta(days=1)).replace(day=1)
        following = end + datetime.timedelta(days=1)
    days = calendar_days(athlete=athlete, start=grid_start, end=grid_end, today=today)
    for day in days.values():
        day.in_range = start <= day.date <= end
    ordered = list(days.values())
    weeks = [ordered[i : i + 7] for i in range(0, len(ordered), 7)]
    earliest, latest = date_bounds()
    return CalendarView(
        view=view,
        title=title,
        anchor=anchor,
        today=today,
        weeks=weeks,
        previous=max(previous, earliest),
        next=min(following, latest),
    )
