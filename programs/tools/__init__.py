"""The program family's tools (edit weeks, sessions and exercises; read a week), declared for
``coach.registry``, which finds this module in INSTALLED_APPS: ``TOOLS`` in the order the model
sees them, ``PURPOSES`` the one-line description of each family not sent with every call,
``ALWAYS_SENT``: the program's tools go with every model call (the conversation is about the
program); and ``PLAN``, what the chat and the engine need of the program a conversation is about
(``coach.plan``), how a batch locks, reads and records it included."""

from .. import demo, evals, plan
from . import args, exercises, reads, sessions, weeks

TOOLS = (*exercises.SPECS, *sessions.SPECS, *weeks.SPECS, *reads.SPECS)
PURPOSES: dict[str, str] = {}  # the program family is sent with every call
ALWAYS_SENT = ("program",)
FIELD_WORDS = args.FIELD_WORDS  # its arguments in words (coach.field_words)
PLAN = plan
DEMO = demo.demo  # seed_demo's part of this family (coach.plan)
EVAL = evals  # its part of the coach's evaluation scenarios (chat.evals, coach.plan)
