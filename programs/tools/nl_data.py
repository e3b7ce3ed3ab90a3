"""The conversation's program as the program family's everyday sentences read it
(``programs.tools.language``): its exercises, sessions and weeks, read once a message and in full
only when the program changed, and the lists the templates use — the exercises by the names people
use and the sessions by their names."""

from __future__ import annotations

import datetime
import re
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from coach.llm.offline.language import World
from programs.models import Exercise, Program, Session, Week

# Short names people use → the words of the exercise's own name they stand for.
SYNONYMS = {
    "bench": "bench press",
    "rdl": "romanian deadlift",
    "rdls": "romanian deadlift",
    "ohp": "overhead press",
    "military press": "overhead press",
    "shoulder press": "overhead press",
    "pull ups": "pull-up",
    "pullups": "pull-up",
    "pull up": "pull-up",
    "chin ups": "pull-up",
    "chin-ups": "pull-up",
    "chinups": "pull-up",
    "squat": "back squat",
    "squats": "back squat",
    "deads": "deadlift",
    "farmers walk": "farmer carry",
    "farmer's walk": "farmer carry",
    "farmers carry": "farmer carry",
    "farmer's carry": "farmer carry",
    "press ups": "push-up",
    "pressups": "push-up",
}


@dataclass(frozen=True)
class Planned:
    week: int
    session: int
    position: int
    name: str
    sets: int
    reps: str
    load: str
    rest: int


@dataclass(frozen=True)
class Slot:
    """A session of the program: where it is and what it is called."""

    week: int
    session: int
    name: str
    day: str  # "Monday", or "" when the session has no weekday
    date: datetime.date | None


@dataclass(frozen=True)
class Span:
    week: int
    start: datetime.date
    end: datetime.date
    phase: str


@dataclass(frozen=True)
class Plan:
    exercises: tuple[Planned, ...]
    sessions: tuple[Slot, ...]
    weeks: tuple[Span, ...]
    memo: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def kept(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()`` once for this state of the program (the lists its names make)."""
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]

    def in_session(self, week: int, session: int) -> list[Planned]:
        return [p for p in self.exercises if p.week == week and p.session == session]

    def slot(self, week: int, session: int) -> Slot:
        return next(s for s in self.sessions if s.week == week and s.session == session)

    def week_of(self, date: datetime.date) -> int | None:
        return next((w.week for w in self.weeks if w.start <= date <= w.end), None)

    def current_week(self, today: datetime.date) -> int:
        """The week around today, else the next one, else the last."""
        around = self.week_of(today)
        if around is not None:
            return around
        later = [w.week for w in self.weeks if w.start > today]
        return min(later) if later else max((w.week for w in self.weeks), default=1)


_PLANS: OrderedDict[tuple[Any, ...], Plan] = OrderedDict()
_KEPT = 32  # programs kept between messages
_LOCK = threading.Lock()


def plan(world: World) -> Plan:
    """The conversation's program: read once a message (one query for its version), and read in
    full (three queries) only when it changed since the last message about it."""

    def current() -> Plan:
        program = getattr(world.ctx, "program", None)
        if program is None:
            return Plan((), (), ())
        row = Program.objects.filter(pk=program.pk).values_list("version", "created_at").first()
        key = (program.pk, *(row or ()))
        with _LOCK:
            if key in _PLANS:
                _PLANS.move_to_end(key)
                return _PLANS[key]
        found = load(program)
        with _LOCK:
            _PLANS[key] = found
            while len(_PLANS) > _KEPT:
                _PLANS.popitem(last=False)
        return found

    def load(program: Any) -> Plan:
        exercises = Exercise.objects.filter(session__week__program=program).order_by(
            "session__week__position", "session__position", "position"
        )
        sessions = Session.objects.filter(week__program=program).order_by(
            "week__position", "position"
        )
        weeks = Week.objects.filter(program=program).order_by("position")
        return Plan(
            tuple(
                Planned(*row)
                for row in exercises.values_list(
                    "session__week__position",
                    "session__position",
                    "position",
                    "name",
                    "working_sets",
                    "reps",
                    "target_load",
                    "rest_seconds",
                )
            ),
            tuple(
                Slot(*row)
                for row in sessions.values_list(
                    "week__position", "position", "name", "day_of_week", "scheduled_date"
                )
            ),
            tuple(
                Span(*row)
                for row in weeks.values_list("position", "start_date", "end_date", "phase")
            ),
        )

    return world.cached("programs.plan", current)


# --- the lists the templates use ------------------------------------------------------------------


def _forms(name: str) -> set[str]:
    base = name.lower().strip()
    forms = {base, base.replace("-", " "), base.replace("-", ""), re.sub(r"[\s-]", "", base)}
    for form in list(forms):
        forms.add(form[:-1] if form.endswith("s") else form + "s")
        if re.search(r"[^aeiou]y$", form):  # "farmer carry" → "farmer carries"
            forms.add(form[:-1] + "ies")
    return {f for f in forms if f}


def exercise_names(world: World) -> list[tuple[str, Any]]:
    """Words → the exercise names they may mean (a tuple: more than one is a question). A form of
    an exercise's whole name beats the last word of another's ("deadlifts": Deadlift, not
    Romanian Deadlift too)."""
    return plan(world).kept("exercise_names", lambda: _exercise_names(plan(world)))


def _exercise_names(p: Plan) -> list[tuple[str, Any]]:
    names = sorted({e.name for e in p.exercises})
    whole: dict[str, set[str]] = defaultdict(set)
    partial: dict[str, set[str]] = defaultdict(set)
    for name in names:
        for form in _forms(name):
            whole[form].add(name)
        words = name.lower().replace("-", " ").split()
        if len(words) > 1:
            for form in _forms(words[-1]):
                partial[form].add(name)
    lowered = {n.lower(): n for n in names}
    for short, full in SYNONYMS.items():
        if full in lowered:  # a short name people use beats a last word shared by several
            partial[short] = {lowered[full]}
    meaning = {**partial, **whole}
    return [(words, tuple(sorted(found))) for words, found in meaning.items()]


def session_names(world: World) -> list[tuple[str, Any]]:
    """A session's name as people say it ("upper body", "the upper body day") → its name."""
    pairs = []
    for name in sorted({s.name for s in plan(world).sessions if s.name}):
        base = name.lower().strip()
        pairs.append((base, name))
        for suffix in (" day", " session", " workout"):
            if base.endswith(suffix):
                pairs.append((base[: -len(suffix)], name))
    return pairs
