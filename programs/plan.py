"""The program as the plan a conversation is about: what the chat and the engine need of it,
declared for ``coach.plan`` (``PLAN`` in ``programs.tools``), so neither imports this family. The
engine locks, reads and records the program of a batch through ``lock``, ``version`` and
``recording`` (a batch's revision is one part of its journal change set).

Every function takes and gives the family's own objects (a ``Program``, a ``Session``); the chat
passes them along and reads only what a template or the prompt shows.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import QuerySet

from .demo_builders import build_program_bulk
from .export import export_program
from .history import ProgramChange, program_change
from .models import AthleteProgram, Program, Session, Week
from .selectors import program_week_view, version_key
from .services import program_version
from .summary import SUMMARY_DETAILS, cached_program_summary, week_lines

__all__ = [
    "SUMMARY_DETAILS",
    "bulk",
    "current",
    "export",
    "lock",
    "newest",
    "recording",
    "session",
    "summary",
    "version",
    "version_key",
    "week_panel",
    "week_text",
]

# Benchmarks (``bench_*``): a synthetic plan of weeks × sessions × exercises for an athlete.
bulk = build_program_bulk
# The plan as JSON (what ``export_program`` writes): the evals and benchmarks compare and count it.
export = export_program


def newest(athlete: Any) -> QuerySet[Program]:
    """The athlete's programs, newest first (the first is their current one)."""
    return AthleteProgram.objects.filter(athlete=athlete).order_by("-created_at", "-pk")


def current(athlete: Any) -> Program | None:
    """The athlete's current (newest) program, or None."""
    return newest(athlete).first()


def lock(plan: Program) -> Program | None:
    """Lock the program's row for the rest of the transaction (None when it is gone)."""
    return Program.objects.select_for_update().filter(pk=plan.pk).first()


def version(plan: Program) -> int:
    """The program's version now, read without a lock (the engine's previews)."""
    return program_version(program_id=plan.pk)


def recording(
    plan: Program, *, actor: Any, via: str, summary: str, source: str = ""
) -> ProgramChange:
    """``with recording(...) as change:`` locks the program's row and reads its version
    (``change.version``), then records what the block changes as one revision, one part of the
    journal's change set (``history.program_change``); on exit ``change.revision`` is that
    revision (None when nothing changed) and ``change.version`` the version it settled."""
    return program_change(program=plan, actor=actor, via=via, summary=summary, source=source)


def week_panel(
    plan: Program, *, today: datetime.date, week_number: int | None = None
) -> dict[str, Any]:
    """The context of the chat's week panel (``chat/_week.html``'s ``week``)."""
    return program_week_view(program=plan, today=today, week_number=week_number)


def summary(*, program: Program, today: datetime.date, detail: str = "full") -> str:
    """The prompt's compact summary of the program around today (``programs.summary``)."""
    return cached_program_summary(program=program, today=today, detail=detail)


def session(plan: Program, pk: int) -> Session | None:
    """The session ``pk`` of ``plan`` with its week, or None (someone else's is None too)."""
    return Session.objects.select_related("week").filter(pk=pk, week__program=plan).first()


def week_text(plan: Program, *, position: int, today: datetime.date) -> str:
    """Week ``position`` in full, as the ``get_week`` tool shows it to the model ("" without it)."""
    week = Week.objects.filter(program=plan, position=position).first()
    return "\n".join(week_lines([week], today=today)) if week else ""
