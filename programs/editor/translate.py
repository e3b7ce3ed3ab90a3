"""The edited page as the program family's tool calls: the same calls the chat's model proposes
(``modify_week``, ``modify_session``, ``modify_exercise``, ``add_week``, ``add_session``,
``add_exercise``, ``reorder_exercises``, ``remove_exercise``, ``remove_session``,
``remove_week``), so a coach's save is checked, previewed and applied by the same engine.

Calls name rows by position, and positions move as calls run, so the translation keeps a model of
the program's order (``_Order``) and words each call against the order the calls before it left:

1. field changes of rows that stay (positions as they are);
2. exercises removed, or moved to another session (taken out here, added there: step 4);
3. new weeks and sessions, whole (a copy is a new row; a copied session keeps its warm-up and
   cardio), each inserted after the row the coach put before it;
4. each session's exercises in the coach's order: a new or moved-in one added at its place, one
   out of place moved with ``reorder_exercises``;
5. sessions, then weeks, removed.

Moving an exercise to another session is a removal and an addition (no tool moves one between
sessions), which would drop its logged sets, so an exercise with logged sets is not moved: the
coach is told to copy it instead. Weeks and sessions keep their order (their dates say it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from coach.toolcalls import ToolCall

from ..models import Exercise, Session, Week
from ..tools.args import EXERCISE_FIELDS, SESSION_FIELDS, WEEK_FIELDS
from .tree import Problem, Row, TreeError

_CAMEL = {
    "exercise": {v: k for k, v in EXERCISE_FIELDS.items()},
    "session": {v: k for k, v in SESSION_FIELDS.items()},
    "week": {v: k for k, v in WEEK_FIELDS.items()},
}


@dataclass
class Translation:
    calls: list[ToolCall] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)  # call id → the row it is about
    problems: list[Problem] = field(default_factory=list)

    def add(self, key: str, name: str, arguments: dict[str, Any]) -> None:
        call_id = f"edit-{len(self.calls) + 1}"
        self.calls.append(ToolCall(id=call_id, name=name, arguments=arguments))
        self.keys[call_id] = key


@dataclass
class _Order:
    """The program's order as the calls so far leave it: row keys by parent."""

    weeks: list[str]
    sessions: dict[str, list[str]]
    exercises: dict[str, list[str]]
    week_of: dict[str, str]

    def week_number(self, week: str) -> int:
        return self.weeks.index(week) + 1

    def session_number(self, session: str) -> tuple[int, int]:
        week = self.week_of[session]
        return self.week_number(week), self.sessions[week].index(session) + 1

    def exercise_number(self, session: str, exercise: str) -> tuple[int, int, int]:
        return (*self.session_number(session), self.exercises[session].index(exercise) + 1)


def _key(kind: str, pk: int) -> str:
    return f"{kind}-{pk}"


def _camel(kind: str, values: dict[str, Any]) -> dict[str, Any]:
    return {_CAMEL[kind][name]: value for name, value in values.items()}


def _exercise_input(row: Row) -> dict[str, Any]:
    return _camel("exercise", dict(row.values))


def _session_input(row: Row, copied: Session | None) -> dict[str, Any]:
    values = row.values
    data: dict[str, Any] = {
        "name": values["name"],
        "notes": values["notes"],
        "exercises": [_exercise_input(e) for e in row.children],
    }
    if values["day_of_week"]:
        data["dayOfWeek"] = values["day_of_week"]
    if values["scheduled_date"] is not None:
        data["scheduledDate"] = values["scheduled_date"].isoformat()
    if copied is not None:
        data["warmup"] = list(copied.warmup or [])
        cardio = getattr(copied, "cardio", None)
        if cardio is not None:
            data["cardio"] = {
                "type": cardio.type,
                "duration": cardio.duration,
                "modality": cardio.modality,
                "instructions": cardio.instructions,
                "notes": cardio.notes,
            }
    return data


def _jsonable(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


def _updates(kind: str, obj: Any, row: Row, problems: list[Problem]) -> dict[str, Any]:
    changed = {}
    for name, value in row.values.items():
        current = getattr(obj, name)
        if value == current:
            continue
        if name == "day_of_week" and not value:
            problems.append(Problem(row.key, name, "Day can't be cleared; pick a day."))
            continue
        changed[name] = _jsonable(value)
    return _camel(kind, changed)


class _Current:
    """The program as it is, indexed by primary key, and the checks that the posted ids are its."""

    def __init__(self, weeks: list[Week]) -> None:
        self.weeks = {w.pk: w for w in weeks}
        self.sessions = {s.pk: s for w in weeks for s in w.sessions.all()}
        self.exercises = {e.pk: e for s in self.sessions.values() for e in s.exercises.all()}
        self.order = _Order(
            weeks=[_key("week", w.pk) for w in weeks],
            sessions={
                _key("week", w.pk): [_key("session", s.pk) for s in w.sessions.all()] for w in weeks
            },
            exercises={
                _key("session", s.pk): [_key("exercise", e.pk) for e in s.exercises.all()]
                for s in self.sessions.values()
            },
            week_of={
                _key("session", s.pk): _key("week", s.week_id) for s in self.sessions.values()
            },
        )

    def check(self, weeks: list[Row]) -> None:
        """Every id is a row of this program, once; weeks and sessions keep their order and
        sessions their week (the page never sends otherwise)."""
        seen: set[tuple[str, int]] = set()

        def mine(kind: str, pk: int | None, table: dict, key: str) -> None:
            if pk is None:
                if not key.startswith("new-"):
                    raise TreeError(f"A new {kind} has a key the page never makes.")
                return
            if key != _key(kind, pk):
                raise TreeError(f"A {kind}'s key doesn't match its id.")
            if pk not in table or (kind, pk) in seen:
                raise TreeError(f"The page sent a {kind} that is not in this program.")
            seen.add((kind, pk))

        week_pks = []
        for week in weeks:
            mine("week", week.pk, self.weeks, week.key)
            week_pks += [week.pk] if week.pk else []
            session_pks = []
            for session in week.children:
                mine("session", session.pk, self.sessions, session.key)
                if session.pk is not None:
                    if week.pk is None or self.sessions[session.pk].week_id != week.pk:
                        raise TreeError("A session can't move to another week in the editor.")
                    session_pks.append(session.pk)
                for exercise in session.children:
                    mine("exercise", exercise.pk, self.exercises, exercise.key)
            if week.pk and session_pks != [
                s.pk for s in self.weeks[week.pk].sessions.all() if s.pk in session_pks
            ]:
                raise TreeError("Sessions keep their order in the editor (their days say it).")
        if week_pks != [pk for pk in self.weeks if pk in week_pks]:
            raise TreeError("Weeks keep their order in the editor (their dates say it).")


def translate(*, current: list[Week], weeks: list[Row], copies: dict[str, Session]) -> Translation:
    """The calls that turn ``current`` (from ``tree.program_tree``) into ``weeks``. ``copies``
    maps a new session's key to the session it copies (its warm-up and cardio come along)."""
    now = _Current(current)
    now.check(weeks)
    out = Translation()
    order = now.order
    placed: dict[int, str] = {}  # exercise pk → the key of the session it is wanted in
    for week in weeks:
        for session in week.children:
            for exercise in session.children:
                if exercise.pk is not None:
                    placed[exercise.pk] = _key("session", session.pk) if session.pk else session.key
    moved = {
        pk for pk, where in placed.items() if where != _key("session", now.exercises[pk].session_id)
    }
    for pk in sorted(moved):
        exercise = now.exercises[pk]
        if exercise.logged:
            out.problems.append(
                Problem(
                    _key("exercise", pk),
                    "name",
                    f"{exercise.name} has logged sets, so it can't move to another session "
                    "(they would be lost). Copy it there instead.",
                )
            )
    _modify(now, weeks, moved, out)
    if out.problems:
        return out
    # 2. exercises removed or moved away.
    kept_sessions = {s.pk for w in weeks for s in w.children if s.pk}
    for pk, exercise in now.exercises.items():
        leaving = pk not in placed or pk in moved
        if leaving and exercise.session_id in kept_sessions:
            session_key = _key("session", exercise.session_id)
            w, s, e = order.exercise_number(session_key, _key("exercise", pk))
            out.add(
                _key("exercise", pk),
                "remove_exercise",
                {"weekNumber": w, "sessionNumber": s, "exerciseNumber": e},
            )
            order.exercises[session_key].remove(_key("exercise", pk))
    _insert_new(weeks, copies, order, out)
    _place_exercises(weeks, order, out)
    _remove_rest(now, weeks, order, out)
    return out


def _modify(now: _Current, weeks: list[Row], moved: set[int], out: Translation) -> None:
    for week in weeks:
        if week.pk is not None:
            number = now.order.week_number(_key("week", week.pk))
            updates = _updates("week", now.weeks[week.pk], week, out.problems)
            if updates:
                out.add(week.key, "modify_week", {"weekNumber": number, "updates": updates})
        for session in week.children:
            if session.pk is None:
                continue
            w, s = now.order.session_number(_key("session", session.pk))
            updates = _updates("session", now.sessions[session.pk], session, out.problems)
            if updates:
                args = {"weekNumber": w, "sessionNumber": s, "updates": updates}
                out.add(session.key, "modify_session", args)
            for exercise in session.children:
                if exercise.pk is None or exercise.pk in moved:
                    continue
                obj: Exercise = now.exercises[exercise.pk]
                updates = _updates("exercise", obj, exercise, out.problems)
                if updates:
                    e = now.order.exercises[_key("session", session.pk)].index(
                        _key("exercise", exercise.pk)
                    )
                    args = {"weekNumber": w, "sessionNumber": s, "exerciseNumber": e + 1}
                    out.add(exercise.key, "modify_exercise", {**args, "updates": updates})


def _insert_new(
    weeks: list[Row], copies: dict[str, Session], order: _Order, out: Translation
) -> None:
    previous_week: str | None = None
    for week in weeks:
        week_key = _key("week", week.pk) if week.pk else week.key
        if week.pk is None:
            position = order.weeks.index(previous_week) + 2 if previous_week else 1
            values = week.values
            data = {
                "phase": values["phase"],
                "startDate": _jsonable(values["start_date"]),
                "endDate": _jsonable(values["end_date"]),
                "description": values["description"],
                "sessions": [_session_input(s, copies.get(s.key)) for s in week.children],
            }
            out.add(week.key, "add_week", {"position": position, "weeks": [data]})
            order.weeks.insert(position - 1, week_key)
            order.sessions[week_key] = [s.key for s in week.children]
            for session in week.children:
                order.week_of[session.key] = week_key
                order.exercises[session.key] = [e.key for e in session.children]
        else:
            previous_session: str | None = None
            for session in week.children:
                if session.pk is None:
                    siblings = order.sessions[week_key]
                    position = siblings.index(previous_session) + 2 if previous_session else 1
                    data = _session_input(session, copies.get(session.key))
                    args = {
                        "weekNumber": order.week_number(week_key),
                        "position": position,
                        "session": data,
                    }
                    out.add(session.key, "add_session", args)
                    siblings.insert(position - 1, session.key)
                    order.week_of[session.key] = week_key
                    order.exercises[session.key] = [e.key for e in session.children]
                    previous_session = session.key
                else:
                    previous_session = _key("session", session.pk)
        previous_week = week_key


def _place_exercises(weeks: list[Row], order: _Order, out: Translation) -> None:
    for week in weeks:
        for session in week.children:
            if session.pk is None:
                continue  # added whole, in order
            session_key = _key("session", session.pk)
            now = order.exercises[session_key]
            for index, exercise in enumerate(session.children):
                key = _key("exercise", exercise.pk) if exercise.pk else exercise.key
                w, s = order.session_number(session_key)
                if key in now:
                    at = now.index(key)
                    if at != index:
                        args = {"weekNumber": w, "sessionNumber": s, "exerciseNumber": at + 1}
                        out.add(
                            exercise.key, "reorder_exercises", {**args, "newPosition": index + 1}
                        )
                        now.insert(index, now.pop(at))
                else:
                    data = _exercise_input(exercise)
                    args = {"weekNumber": w, "sessionNumber": s, "position": index + 1}
                    out.add(exercise.key, "add_exercise", {**args, "exercise": data})
                    now.insert(index, key)


def _remove_rest(now: _Current, weeks: list[Row], order: _Order, out: Translation) -> None:
    wanted_weeks = {w.pk for w in weeks if w.pk}
    wanted_sessions = {s.pk for w in weeks for s in w.children if s.pk}
    for pk, session in now.sessions.items():
        if pk not in wanted_sessions and session.week_id in wanted_weeks:
            session_key = _key("session", pk)
            w, s = order.session_number(session_key)
            args = {"weekNumber": w, "sessionNumber": s}
            out.add(session_key, "remove_session", args)
            order.sessions[order.week_of[session_key]].remove(session_key)
    for pk in now.weeks:
        if pk not in wanted_weeks:
            week_key = _key("week", pk)
            out.add(week_key, "remove_week", {"weekNumber": order.week_number(week_key)})
            order.weeks.remove(week_key)
