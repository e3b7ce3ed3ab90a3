"""The program as the engine's context subject (``coach.tools.base.Subject``), declared as
``SUBJECT`` in this package so that ``coach.engine`` names no family: a batch locks the program
(``services.program_lock``), previews read its version (``services.program_version``), and what a
batch changed is recorded as one revision (``history.program_change``), which is one part of the
batch's journal change set. The engine calls these data-layer functions directly."""

from coach.tools.base import Subject

from ..history import program_change
from ..services import program_lock, program_version

SUBJECT = Subject(lock=program_lock, version=program_version, recording=program_change)
