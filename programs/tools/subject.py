"""The program as the engine's context subject (``coach.tools.base.Subject``): how a batch locks
it, reads its version, and records what a batch changed as one revision (``programs.history``),
which is one part of the batch's journal change set. Declared as ``SUBJECT`` in this package, so
``coach.engine`` names no family."""

from __future__ import annotations

from typing import Any

from coach.tools.base import Subject

from ..history import program_change
from ..models import Program
from ..services import program_lock


def _lock(pk: int) -> Program:
    return program_lock(program_id=pk)


def _version(pk: int) -> int:
    return Program.objects.values_list("version", flat=True).get(pk=pk)


def _recording(program: Program, *, actor: Any, via: str, summary: str, source: str = ""):
    return program_change(program=program, actor=actor, via=via, summary=summary, source=source)


SUBJECT = Subject(lock=_lock, version=_version, recording=_recording)
