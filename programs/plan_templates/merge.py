"""A template edit as one athlete's wanted program: a three-way merge of the template version the
athlete is in step with (``base``), the template now (``now``) and the athlete's program now.

The result is the editor's desired tree (``editor.tree.Row``), which ``editor.translate`` turns
into the program family's tool calls, so the athlete's change is checked, previewed and applied
by the same engine as a coach's save. Template rows are found in the athlete's program through
the assignment's ``links``; dates move by the athlete's start date minus the template's.

For each row and field the template changed:

* the athlete's value is still the template's old one: it takes the new one;
* it already is the new one: nothing to do;
* it is something else (the athlete's program diverged there): a **conflict**, said in words,
  and their value stays unless the coach chose to overwrite that conflict (``overwrite``);
* the row is done (a completed session, an exercise with logged sets, a week holding either):
  **kept** as done, said in words, whatever the coach chooses.

Rows the template removed go when the athlete's copy is as the template had it (else a conflict);
rows it added are added after the row the template puts before them. Exercises the template
reordered within a session are not reordered for the athletes (said in words).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from ..editor.tree import EXERCISE_FIELDS, SESSION_FIELDS, WEEK_FIELDS, Row
from ..models import Session, TemplateAssignment, Week

FIELDS = {"week": WEEK_FIELDS, "session": SESSION_FIELDS, "exercise": EXERCISE_FIELDS}
PARENT = {"session": ("week", "week_id"), "exercise": ("session", "session_id")}
FIELDS_CHILD = {"week": "session", "session": "exercise"}
DATES = {"start_date", "end_date", "scheduled_date"}
Tree = dict[str, dict[str, dict[str, Any]]]


@dataclass
class Conflict:
    id: str  # stable across requests: what the coach's overwrite choice names
    where: str
    words: str
    overwritten: bool = False


@dataclass
class Proposal:
    assignment: TemplateAssignment
    weeks: list[Row]
    copies: dict[str, Session] = field(default_factory=dict)
    added: dict[str, tuple[str, str]] = field(default_factory=dict)  # row key → (kind, template pk)
    conflicts: list[Conflict] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # done, or not applied: in words
    changes: list[str] = field(default_factory=list)  # what the merge takes, in words

    @property
    def athlete_name(self) -> str:
        return name_of(self.assignment.program.athlete)


def name_of(user: Any) -> str:
    return user.get_full_name() or user.username


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime.date) else value


def _typed(name: str, value: Any) -> Any:
    if name in DATES and isinstance(value, str):
        return datetime.date.fromisoformat(value)
    return value


def _shown(value: Any) -> str:
    return "(empty)" if value in ("", None) else str(value)


class _Merge:
    def __init__(
        self,
        assignment: TemplateAssignment,
        base: Tree,
        now: Tree,
        weeks: list[Week],
        template_sessions: dict[str, Session],
        overwrite: set[str],
        day0: datetime.date,
    ) -> None:
        self.base, self.now, self.overwrite = base, now, overwrite
        self.links = {kind: dict(assignment.links.get(kind, {})) for kind in FIELDS}
        self.days = (assignment.start_date - day0).days
        self.template_sessions = template_sessions
        self.rows: dict[tuple[str, int], Row] = {}
        self.where: dict[tuple[str, int], str] = {}
        self.done: set[tuple[str, int]] = set()
        self.parent: dict[int, Row] = {}  # id(row) → its parent row
        tree = [self._row("week", w, f"Week {w.position}") for w in weeks]
        self.proposal = Proposal(assignment=assignment, weeks=tree)
        self.name = self.proposal.athlete_name
        self.new: dict[tuple[str, str], Row] = {}

    # --- the athlete's program as rows ------------------------------------------------------------

    def _row(self, kind: str, obj: Any, where: str) -> Row:
        row = Row(
            key=f"{kind}-{obj.pk}", pk=obj.pk, values={f: getattr(obj, f) for f in FIELDS[kind]}
        )
        self.rows[(kind, obj.pk)] = row
        self.where[(kind, obj.pk)] = where
        if kind == "week":
            for s in obj.sessions.all():
                child = self._row("session", s, f"{where}, session {s.position} “{s.name}”")
                row.children.append(child)
                self.parent[id(child)] = row
                if ("session", s.pk) in self.done:
                    self.done.add(("week", obj.pk))
        elif kind == "session":
            if obj.completed:
                self.done.add(("session", obj.pk))
            for e in obj.exercises.all():
                child = self._row("exercise", e, f"{where}, {e.name}")
                row.children.append(child)
                self.parent[id(child)] = row
                if getattr(e, "logged", 0) or obj.completed:
                    self.done.update({("exercise", e.pk), ("session", obj.pk)})
        return row

    def _mine(self, kind: str, template_pk: str) -> Row | None:
        pk = self.links[kind].get(template_pk)
        return self.rows.get((kind, pk)) if pk is not None else None

    def _value(self, name: str, value: Any) -> Any:
        if name in DATES and value:
            day = datetime.date.fromisoformat(value) + datetime.timedelta(days=self.days)
            return day.isoformat()
        return value

    def _template_where(self, kind: str, row: dict[str, Any], tree: Tree) -> str:
        if kind == "week":
            return f"Week {row['position']}"
        parent_kind, attr = PARENT[kind]
        parent = tree[parent_kind].get(str(row[attr]))
        up = self._template_where(parent_kind, parent, tree) if parent else "?"
        return (
            f"{up}, session {row['position']} “{row['name']}”"
            if kind == "session"
            else f"{up}, {row['name']}"
        )

    # --- the three steps --------------------------------------------------------------------------

    def changed(self) -> None:
        for kind, fields in FIELDS.items():
            for tpk, new in self.now[kind].items():
                old = self.base[kind].get(tpk)
                names = [f for f in fields if old is not None and old.get(f) != new.get(f)]
                if not names:
                    continue
                row = self._mine(kind, tpk)
                words = ", ".join(fields[f].lower() for f in names)
                if row is None:
                    where = self._template_where(kind, new, self.now)
                    self.proposal.kept.append(
                        f"{where}: not in {self.name}'s program any more, so the template's "
                        f"change ({words}) is not applied."
                    )
                    continue
                where = self.where[(kind, row.pk)]
                if (kind, row.pk) in self.done:
                    self.proposal.kept.append(f"{where}: already done, kept as it is ({words}).")
                    continue
                for name in names:
                    self._field(kind, tpk, row, where, name, fields[name], old, new)

    def _field(self, kind, tpk, row, where, name, label, old, new) -> None:
        before, after = self._value(name, old.get(name)), self._value(name, new.get(name))
        mine = _plain(row.values[name])
        if mine == after:
            return
        if mine == before:
            row.values[name] = _typed(name, after)
            self.proposal.changes.append(f"{where}: {label} {_shown(before)} → {_shown(after)}")
            return
        conflict = Conflict(
            id=f"{kind}-{tpk}-{name}",
            where=where,
            words=(
                f"{label}: the template changes {_shown(before)} → {_shown(after)}, but "
                f"{self.name}'s program has {_shown(mine)} (changed for them)."
            ),
        )
        if conflict.id in self.overwrite:
            row.values[name] = _typed(name, after)
            conflict.overwritten = True
        self.proposal.conflicts.append(conflict)

    def removed(self) -> None:
        for kind in ("week", "session", "exercise"):
            for tpk, old in self.base[kind].items():
                if tpk in self.now[kind]:
                    continue
                if kind in PARENT:
                    parent_kind, attr = PARENT[kind]
                    if str(old[attr]) not in self.now[parent_kind]:
                        continue  # its parent goes, and it with it
                row = self._mine(kind, tpk)
                if row is None:
                    continue
                where = self.where[(kind, row.pk)]
                if (kind, row.pk) in self.done:
                    self.proposal.kept.append(
                        f"{where}: removed from the template, but it is done; kept."
                    )
                    continue
                theirs = self._diverged(kind, row, old)
                if theirs:
                    conflict = Conflict(
                        id=f"{kind}-{tpk}-removed",
                        where=where,
                        words=(
                            f"Removed from the template, but {self.name}'s program changed it "
                            f"({theirs})."
                        ),
                    )
                    self.proposal.conflicts.append(conflict)
                    if conflict.id not in self.overwrite:
                        continue
                    conflict.overwritten = True
                self._drop(row)
                self.proposal.changes.append(f"{where}: removed")

    def _diverged(self, kind: str, row: Row, old: dict[str, Any]) -> str:
        fields = FIELDS[kind]
        changed = [
            fields[f].lower() for f in fields if _plain(row.values[f]) != self._value(f, old.get(f))
        ]
        mine = set(self.links.get(FIELDS_CHILD.get(kind, ""), {}).values())
        if any(child.pk not in mine for child in row.children):
            changed.append("added to")
        return ", ".join(changed)

    def _drop(self, row: Row) -> None:
        siblings = self.parent[id(row)].children if id(row) in self.parent else self.proposal.weeks
        siblings.remove(row)

    def added(self) -> None:
        for kind in ("week", "session", "exercise"):
            fresh = [(tpk, r) for tpk, r in self.now[kind].items() if tpk not in self.base[kind]]
            for tpk, new in sorted(fresh, key=lambda item: item[1]["position"]):
                self._add(kind, tpk, new)

    def _find(self, kind: str, tpk: str) -> Row | None:
        return self.new.get((kind, tpk)) or self._mine(kind, tpk)

    def _add(self, kind: str, tpk: str, new: dict[str, Any]) -> None:
        where = self._template_where(kind, new, self.now)
        if kind == "week":
            parent, attr, children = None, "program_id", self.proposal.weeks
        else:
            parent_kind, attr = PARENT[kind]
            parent = self._find(parent_kind, str(new[attr]))
            if parent is None:
                self.proposal.kept.append(
                    f"{where}: added to the template where {self.name}'s program has nothing; "
                    "not added."
                )
                return
            if parent.pk is not None and (parent_kind, parent.pk) in self.done:
                self.proposal.kept.append(
                    f"{where}: added to the template, but that is done; not added."
                )
                return
            children = parent.children
        before = [
            t
            for t, r in self.now[kind].items()
            if r[attr] == new[attr] and r["position"] < new["position"]
        ]
        before.sort(key=lambda t: self.now[kind][t]["position"])
        at = 0
        for t in reversed(before):
            found = self._find(kind, t)
            if found is not None and found in children:
                at = children.index(found) + 1
                break
        values = {f: _typed(f, self._value(f, new.get(f))) for f in FIELDS[kind]}
        row = Row(key=f"new-{kind}-{tpk}", pk=None, values=values)
        children.insert(at, row)
        if parent is not None:
            self.parent[id(row)] = parent
        self.new[(kind, tpk)] = row
        self.proposal.added[row.key] = (kind, tpk)
        if kind == "session" and tpk in self.template_sessions:
            self.proposal.copies[row.key] = self.template_sessions[tpk]
        if parent is None or parent.pk is not None:
            self.proposal.changes.append(f"{where}: added")

    def reordered(self) -> None:
        both = self.base["exercise"].keys() & self.now["exercise"].keys()
        before, after = _orders(self.base, both), _orders(self.now, both)
        for tpk, order in after.items():
            if tpk in self.base["session"] and before.get(tpk, order) != order:
                row = self._mine("session", tpk)
                if row is not None:
                    self.proposal.kept.append(
                        f"{self.where[('session', row.pk)]}: the template's new order of "
                        "exercises is not applied (change it in their program if you want it)."
                    )


def _orders(tree: Tree, kept: set[str]) -> dict[str, list[str]]:
    """Each session's exercises in order (template pks), those in ``kept`` only."""
    orders: dict[str, list[tuple[int, str]]] = {}
    for tpk, row in tree["exercise"].items():
        if tpk in kept:
            orders.setdefault(str(row["session_id"]), []).append((row["position"], tpk))
    return {session: [t for _, t in sorted(rows)] for session, rows in orders.items()}


def propose(
    *,
    assignment: TemplateAssignment,
    base: Tree,
    now: Tree,
    weeks: list[Week],
    template_sessions: dict[str, Session],
    day0: datetime.date,
    overwrite: set[str] = frozenset(),
) -> Proposal:
    """The athlete's wanted program after the template's change from ``base`` to ``now``."""
    merge = _Merge(assignment, base, now, weeks, template_sessions, set(overwrite), day0)
    merge.changed()
    merge.removed()
    merge.added()
    merge.reordered()
    return merge.proposal
