"""What the program family's everyday sentences point at (``programs.tools.language``): the
conversation's program read once a message, and the references people make to it resolved
against it — an exercise by name, position ("the second exercise", "exercise 2", "the last one")
or pronoun ("it", "that exercise"), a session by weekday, "today"/"tomorrow", its name or "this
workout", a week by number, "this week" or "next week".

The session in focus follows the conversation: the one named; else the one just changed (an
earlier clause of the message, or the conversation's last calls) or shown; else today's. A
reference that fits several things is a question (``Ask``), one that fits nothing is refused in
words naming what is there ("Monday's workout has 4 exercises")."""

from __future__ import annotations

import datetime
import re
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from coach.llm.offline.grammar import CommandError
from coach.llm.offline.language import Ask, Slots, World, day_of
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
    "rows": "barbell row",
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
                Span(*row) for row in weeks.values_list("position", "start_date", "end_date", "phase")
            ),
        )

    return world.cached("programs.plan", current)


# --- the lists the templates use ------------------------------------------------------------------


def _forms(name: str) -> set[str]:
    base = name.lower().strip()
    forms = {base, base.replace("-", " "), base.replace("-", ""), re.sub(r"[\s-]", "", base)}
    for form in list(forms):
        forms.add(form[:-1] if form.endswith("s") else form + "s")
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


# --- weeks and sessions --------------------------------------------------------------------------


def named_week(slots: Slots) -> int | None:
    """The week a sentence names outright: "week 4", "this week", "next week"."""
    world = slots.world
    current = plan(world).current_week(world.today)
    if "week" in slots:
        week = int(slots.get("week"))
        check_week(world, week)
        return week
    if slots.get("next_week"):
        week = current + 1
        check_week(world, week)
        return week
    if slots.get("this_week"):
        return current
    return None


def check_week(world: World, week: int) -> None:
    count = len(plan(world).weeks)
    if not 1 <= week <= count:
        raise CommandError(f"Your program has {count} week{'s' if count != 1 else ''}; there is no week {week}.")


def said_day(slots: Slots) -> str | None:
    """The weekday a sentence names ("on Monday", "tomorrow"), as the program writes it."""
    date = day_of(slots, slots.world)
    return None if date is None else date.strftime("%A")


def _groups(world: World) -> list[list[dict[str, Any]]]:
    """The calls of this message's earlier clauses, then of each turn, newest first."""
    groups = [[dict(c.arguments) for c in world.said]]
    for turn in reversed(world.turns):
        groups.append([dict(c.arguments or {}) for c in turn.tool_calls or []])
    return groups


def _focus(world: World) -> tuple[int, int] | None:
    """The session just changed or shown."""
    for group in _groups(world):
        for args in reversed(group):
            week, session = args.get("weekNumber"), args.get("sessionNumber")
            if isinstance(week, int) and isinstance(session, int):
                return week, session
    return None


def _said_focus(world: World, name: str) -> list[Planned]:
    """``name`` in the session an earlier clause of this message changed."""
    for args in reversed([dict(c.arguments) for c in world.said]):
        week, session = args.get("weekNumber"), args.get("sessionNumber")
        if isinstance(week, int) and isinstance(session, int):
            return [e for e in plan(world).in_session(week, session) if e.name == name]
    return []


def focus_exercises(world: World) -> list[Planned]:
    """The exercises "it" and "that exercise" mean: the ones just changed."""
    keyed = {(e.week, e.session, e.position): e for e in plan(world).exercises}
    for group in _groups(world):
        found = [
            keyed[key]
            for args in group
            if (key := (args.get("weekNumber"), args.get("sessionNumber"), args.get("exerciseNumber")))
            in keyed
        ]
        if found:
            return found
    return []


def session_meant(slots: Slots, *, required: bool = True) -> Slot | None:
    """The one session a sentence means: its weekday, "today", its name or "this workout" in the
    week named (the current one by default); else the session in focus."""
    world = slots.world
    p = plan(world)
    week = named_week(slots)
    day = said_day(slots)
    if day is not None and week is None:
        date = day_of(slots, world)
        week = p.week_of(date) if date is not None else None
        if week is None:
            raise CommandError(f"Your program has no week on {date:%A %-d %B}.")
    week = week or p.current_week(world.today)
    if day is not None:
        found = [s for s in p.sessions if s.week == week and s.day.lower() == day.lower()]
        if not found:
            planned_days = ", ".join(s.day for s in p.sessions if s.week == week and s.day)
            raise CommandError(
                f"There's no workout on {day} in week {week}"
                + (f" (it has {planned_days})." if planned_days else ".")
            )
        return found[0]
    if "session_name" in slots:
        found = [s for s in p.sessions if s.week == week and s.name == slots.get("session_name")]
        if found:
            return found[0]
        raise CommandError(f'Week {week} has no session called "{slots.get("session_name")}".')
    focus = _focus(world)
    if focus is not None and (not any(k in slots for k in ("week", "this_week", "next_week")) or focus[0] == week):
        return p.slot(*focus)
    today = [s for s in p.sessions if s.week == week and s.day == world.today.strftime("%A")]
    if today and slots.get("this_session"):
        return today[0]
    if required:
        raise CommandError("Which workout do you mean? Name its day, e.g. “on Monday”.")
    return None


def describe_session(slot: Slot) -> str:
    return f"{slot.day}'s workout" if slot.day else f"week {slot.week} session {slot.session}"


# --- exercises -----------------------------------------------------------------------------------


def _retold(slots: Slots, name_slot: str, name: str) -> str:
    """The athlete's sentence with the ambiguous words replaced by one candidate's name."""
    text, said = slots.text, slots.words.get(name_slot, "")
    if text and said:
        return re.sub(re.escape(said), name, text, count=1, flags=re.I)
    return name


def _by_position(slots: Slots, slot_name: str) -> list[Planned]:
    """ "the second exercise", "exercise 2", "the last one" of the session meant."""
    session = session_meant(slots)
    assert session is not None
    rows = plan(slots.world).in_session(session.week, session.session)
    number = int(slots.get(slot_name))
    if number == -1:
        number = len(rows)
    if not 1 <= number <= len(rows):
        count = len(rows)
        raise CommandError(
            f"{describe_session(session)} in week {session.week} has {count} "
            f"exercise{'s' if count != 1 else ''}; there is no exercise {number}."
        )
    return [rows[number - 1]]


def exercises_meant(slots: Slots, *, every_week: bool, which: str = "") -> list[Planned] | Ask:
    """The exercise occurrences a sentence means (``which`` "" for the first reference,
    "other" for the second). Named with no week or day: the current week on when
    ``every_week`` (a change of what it is), else the current week only."""
    world = slots.world
    p = plan(world)
    name_slot, position_slot = ("other", "other_position") if which else ("exercise", "position")
    ordinal_slot = "other_ordinal" if which else "ordinal"
    if position_slot in slots:
        return _by_position(slots, position_slot)
    if ordinal_slot in slots:
        return _by_position(slots, ordinal_slot)
    if name_slot not in slots:
        if slots.get("pronoun") or not which:
            found = focus_exercises(world)
            if found:
                return found
        return Ask("Which exercise do you mean? Name it, e.g. “squats on Monday”.")
    names = slots.get(name_slot) or ()
    said = slots.words.get(name_slot, "")
    if len(names) > 1 and (said_day(slots) or "session_name" in slots):
        # "the rows on Wednesday": the day names the one it has.
        session = session_meant(slots)
        assert session is not None
        here = {e.name for e in p.in_session(session.week, session.session)}
        names = tuple(n for n in names if n in here) or names
    if len(names) > 1:
        return Ask(
            f'Which one do you mean by "{said}"? ' + ", ".join(names[:-1]) + f" or {names[-1]}?",
            tuple(_retold(slots, name_slot, n) for n in names),
        )
    name = names[0]
    week = named_week(slots)
    day = said_day(slots)
    if day is not None and week is None:
        date = day_of(slots, world)
        week = p.week_of(date) if date is not None else None
    if "session_name" in slots or slots.get("this_session"):
        session = session_meant(slots)
        assert session is not None
        found = [e for e in p.in_session(session.week, session.session) if e.name == name]
    elif week is None and day is None and (focus := _said_focus(world, name)):
        found = focus  # "swap Monday's squats for lunges and add a set to the planks"
    else:
        current = p.current_week(world.today)
        weeks = {week} if week else ({w.week for w in p.weeks if w.week >= current} if every_week else {current})
        found = [e for e in p.exercises if e.name == name and e.week in weeks]
        if day is not None:
            on_day = [e for e in found if p.slot(e.week, e.session).day.lower() == day.lower()]
            # "today"/"tomorrow" said of an exercise planned on another day of that week means
            # the week's; a weekday named outright must be the exercise's own day.
            if on_day or "day" in slots:
                found = on_day
    if not found:
        where = f" on {day}" if day else (f" in week {week}" if week else "")
        raise CommandError(f"{name} isn't planned{where}.")
    return found


def exercise_label(e: Planned) -> str:
    return f"week {e.week}: {e.name}"
