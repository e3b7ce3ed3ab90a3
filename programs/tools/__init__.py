"""The program family's tools (edit weeks, sessions and exercises; read a week), declared for
``coach.registry``, which finds this module in INSTALLED_APPS: ``TOOLS`` in the order the model
sees them, ``PURPOSES`` the one-line description of each family not sent with every call;
``SUBJECT`` how the engine locks and records the program, the context's subject."""

from . import exercises, reads, sessions, weeks
from .subject import SUBJECT

TOOLS = (*exercises.SPECS, *sessions.SPECS, *weeks.SPECS, *reads.SPECS)
PURPOSES: dict[str, str] = {}  # the program family is sent with every call
__all__ = ["PURPOSES", "SUBJECT", "TOOLS"]
