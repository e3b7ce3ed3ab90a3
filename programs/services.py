"""Every structural change to a program goes through these functions: the tool engine, the admin,
the import command and the demo seed all call them, so positions stay contiguous and ``version``
increases on every change: each function that changes a program bumps that program's version
itself (one ``UPDATE ... SET version = version + 1``), so no caller can forget it. A batch of calls
therefore raises the version by one or more; only "it went up" carries meaning.

Positions are unique among siblings (a database constraint that is not deferrable on SQLite), so a
shift is done in two bulk updates through a large offset: move the affected rows out of the way,
then bring them back shifted by one. That is a constant number of queries whatever the program size.

Callers run inside ``transaction.atomic()``; none of these functions commit on their own.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db import models, transaction
from django.db.models import F
from django.utils import timezone

from .models import CardioBlock, Exercise, Program, Session, Week

POSITION_OFFSET = 1_000_000


# --- positions ----------------------------------------------------------------------------------


def _shift(siblings: models.QuerySet, *, low: int, high: int | None, delta: int) -> None:
    """Add ``delta`` to the position of every sibling with ``low <= position <= high``."""
    selected = siblings.filter(position__gte=low)
    if high is not None:
        selected = selected.filter(position__lte=high)
    if not selected.update(position=F("position") + POSITION_OFFSET):
        return
    siblings.filter(position__gte=POSITION_OFFSET).update(
        position=F("position") - POSITION_OFFSET + delta
    )


def _siblings(obj: Week | Session | Exercise) -> models.QuerySet:
    if isinstance(obj, Week):
        return Week.objects.filter(program_id=obj.program_id)
    if isinstance(obj, Session):
        return Session.objects.filter(week_id=obj.week_id)
    return Exercise.objects.filter(session_id=obj.session_id)


def _insert(obj: Week | Session | Exercise, *, position: int) -> None:
    siblings = _siblings(obj)
    _shift(siblings, low=position, high=None, delta=+1)
    obj.position = position
    obj.save(force_insert=True)
    _bump(obj)


def _remove(obj: Week | Session | Exercise) -> None:
    siblings = _siblings(obj)
    position = obj.position
    obj.delete()
    _shift(siblings, low=position + 1, high=None, delta=-1)
    _bump(obj)


def _move(obj: Week | Session | Exercise, *, new_position: int) -> None:
    old = obj.position
    if new_position == old:
        return
    siblings = _siblings(obj)
    siblings.filter(pk=obj.pk).update(position=3 * POSITION_OFFSET)
    if new_position < old:
        _shift(siblings.exclude(pk=obj.pk), low=new_position, high=old - 1, delta=+1)
    else:
        _shift(siblings.exclude(pk=obj.pk), low=old + 1, high=new_position, delta=-1)
    siblings.filter(pk=obj.pk).update(position=new_position)
    obj.position = new_position
    _bump(obj)


def _reorder(
    siblings: models.QuerySet, ordered_pks: Iterable[int], *, parent: models.Model
) -> None:
    """Give the siblings positions 1..n in the order of ``ordered_pks`` (used by the admin)."""
    ordered = list(ordered_pks)
    siblings.update(position=F("position") + POSITION_OFFSET)
    for index, pk in enumerate(ordered, start=1):
        siblings.filter(pk=pk).update(position=index)
    _bump(parent)


# --- version ------------------------------------------------------------------------------------


def _bump(obj: models.Model) -> None:
    """Raise the version of the program ``obj`` (a program, week, session, cardio block or
    exercise) belongs to, in one UPDATE whatever the depth (a join, not a load)."""
    if isinstance(obj, Program):
        programs = Program.objects.filter(pk=obj.pk)
    elif isinstance(obj, Week):
        programs = Program.objects.filter(pk=obj.program_id)
    elif isinstance(obj, Session):
        programs = Program.objects.filter(weeks__id=obj.week_id)
    else:  # an exercise or a cardio block
        programs = Program.objects.filter(weeks__sessions__id=obj.session_id)
    programs.update(version=F("version") + 1, updated_at=timezone.now())


def program_bump_version(*, program: Program) -> int:
    """Record that the program changed; returns the new version (also set on ``program``)."""
    Program.objects.filter(pk=program.pk).update(
        version=F("version") + 1, updated_at=timezone.now()
    )
    program.version = Program.objects.values_list("version", flat=True).get(pk=program.pk)
    return program.version


def program_version(*, program_id: int) -> int:
    """The program's version now (read without a lock: previews)."""
    return Program.objects.values_list("version", flat=True).get(pk=program_id)


def program_lock(*, program_id: int) -> Program:
    """Lock the program row for the rest of the transaction (a no-op lock on SQLite, whose
    writers are serialised by the database itself)."""
    return Program.objects.select_for_update(of=("self",)).get(pk=program_id)


# --- weeks --------------------------------------------------------------------------------------


def week_insert(*, program: Program, position: int, **fields: Any) -> Week:
    week = Week(program=program, **fields)
    _insert(week, position=position)
    return week


def weeks_shift_dates(*, program: Program, from_position: int, days: int) -> list[Week]:
    """Move the dates of the weeks at ``from_position`` and after (and their sessions' scheduled
    dates) by ``days``, keeping the gaps between them. Four queries whatever the size; returns the
    moved weeks with their new dates."""
    if not days:
        return []
    delta = datetime.timedelta(days=days)
    weeks = list(
        Week.objects.filter(program_id=program.pk, position__gte=from_position).order_by("position")
    )
    for week in weeks:
        week.start_date += delta
        week.end_date += delta
    Week.objects.bulk_update(weeks, ["start_date", "end_date"])
    sessions = list(
        Session.objects.filter(week__in=weeks, scheduled_date__isnull=False).only("scheduled_date")
    )
    for session in sessions:
        session.scheduled_date += delta
    Session.objects.bulk_update(sessions, ["scheduled_date"])
    if weeks:
        _bump(program)
    return weeks


def week_remove(*, week: Week) -> None:
    _remove(week)


def week_move(*, week: Week, new_position: int) -> None:
    _move(week, new_position=new_position)


def weeks_reorder(*, program: Program, ordered_pks: Iterable[int]) -> None:
    _reorder(Week.objects.filter(program=program), ordered_pks, parent=program)


# --- sessions -----------------------------------------------------------------------------------


def session_insert(*, week: Week, position: int, **fields: Any) -> Session:
    session = Session(week=week, **fields)
    _insert(session, position=position)
    return session


def session_remove(*, session: Session) -> None:
    _remove(session)


def session_move(*, session: Session, new_position: int) -> None:
    _move(session, new_position=new_position)


def sessions_reorder(*, week: Week, ordered_pks: Iterable[int]) -> None:
    _reorder(Session.objects.filter(week=week), ordered_pks, parent=week)


def cardio_set(*, session: Session, fields: dict[str, Any] | None) -> CardioBlock | None:
    """Replace the session's cardio block with ``fields``, or remove it when ``fields`` is None."""
    CardioBlock.objects.filter(session=session).delete()
    _bump(session)
    if fields is None:
        return None
    return CardioBlock.objects.create(session=session, **fields)


# --- exercises ----------------------------------------------------------------------------------


def exercise_insert(*, session: Session, position: int, **fields: Any) -> Exercise:
    exercise = Exercise(session=session, **fields)
    _insert(exercise, position=position)
    return exercise


def exercise_remove(*, exercise: Exercise) -> None:
    _remove(exercise)


def exercise_move(*, exercise: Exercise, new_position: int) -> None:
    _move(exercise, new_position=new_position)


def exercises_reorder(*, session: Session, ordered_pks: Iterable[int]) -> None:
    _reorder(Exercise.objects.filter(session=session), ordered_pks, parent=session)


# --- whole objects ------------------------------------------------------------------------------


def object_update(*, obj: models.Model, fields: dict[str, Any]) -> None:
    """Set plain fields on a program, week, session, exercise or cardio block and save only those.

    The values are validated by the caller (the tool engine's pydantic models, the admin's forms)."""
    for name, value in fields.items():
        setattr(obj, name, value)
    obj.save(update_fields=list(fields))
    _bump(obj)


@transaction.atomic
def program_create(*, athlete, name: str, start_date, coach=None) -> Program:
    return Program.objects.create(athlete=athlete, coach=coach, name=name, start_date=start_date)


# --- whole trees (added for the tool engine and the import command) ------------------------------


def _create_children(*, sessions: list[tuple[Session, dict[str, Any]]]) -> None:
    """Bulk-create the exercises and cardio blocks of freshly created sessions."""
    Exercise.objects.bulk_create(
        Exercise(session=session, position=index, **fields)
        for session, spec in sessions
        for index, fields in enumerate(spec.get("exercises") or [], start=1)
    )
    CardioBlock.objects.bulk_create(
        CardioBlock(session=session, **spec["cardio"])
        for session, spec in sessions
        if spec.get("cardio") is not None
    )


def session_tree_insert(*, week: Week, position: int, spec: dict[str, Any]) -> Session:
    """Insert a session with its exercises and cardio block at ``position`` in a constant number
    of queries. ``spec`` is ``{"fields": {...}, "exercises": [{...}, ...], "cardio": {...} | None}``
    with model field names, already validated by the caller."""
    session = session_insert(week=week, position=position, **spec["fields"])
    _create_children(sessions=[(session, spec)])
    return session  # session_insert bumped the version


def weeks_tree_insert(
    *, program: Program, position: int, specs: list[dict[str, Any]]
) -> list[Week]:
    """Insert consecutive weeks (with sessions, exercises and cardio) starting at ``position``.

    Each spec is ``{"fields": {...week fields}, "sessions": [session spec, ...]}``. The weeks after
    the insertion point move down by ``len(specs)``. A constant number of queries whatever the
    size of the program or of the new weeks."""
    if not specs:
        return []
    _shift(Week.objects.filter(program_id=program.pk), low=position, high=None, delta=len(specs))
    weeks = Week.objects.bulk_create(
        Week(program=program, position=position + index, **spec["fields"])
        for index, spec in enumerate(specs)
    )
    pairs: list[tuple[Week, dict[str, Any]]] = [
        (week, session_spec)
        for week, spec in zip(weeks, specs, strict=True)
        for session_spec in spec.get("sessions") or []
    ]
    positions: dict[int, int] = {}
    new_sessions = []
    for week, session_spec in pairs:
        positions[id(week)] = positions.get(id(week), 0) + 1
        new_sessions.append(
            Session(week=week, position=positions[id(week)], **session_spec["fields"])
        )
    sessions = Session.objects.bulk_create(new_sessions)
    _create_children(sessions=[(s, spec) for s, (_, spec) in zip(sessions, pairs, strict=True)])
    _bump(program)
    return weeks
