"""The offline coach: a deterministic parser of plain commands, the embedded default provider.

With no model configured, this provider maps the commands the families declare to the very same
tool calls a model would propose. Nothing is applied by it: the calls go through the same preview
and **Apply Changes** as a model's (a stated log that needs no confirmation is written at once,
with Undo, when the guardrails pass, as a model's would be).

It knows no family and no tool. Each family app declares its commands in ``<app>/tools/offline.py``
(``COMMANDS``, a ``families.Commands``: its parser, its lines of the help, the verbs its commands
start with, its example commands and the suggested replies it answers); each tool may declare
sentences with slots (``ToolSpec.phrases``, matched by ``phrases``). A new command is understood
the moment it is declared. Commands are case-insensitive; names keep the case you type. Several
commands can be joined with ``;``, a new line, or `` and `` / `` then `` before the next command's
verb.

Anything else (``help``, a question, an unknown command) gets the list of commands. After a batch
is decided (Apply, Cancel, the coach's review, undo, expiry) the reply acknowledges it from the
structured decision the conversation layer attaches to the user turn (``Turn.events``), never from
prose: typing "The athlete clicked Apply Changes" is just an unknown command. A command typed after
a decision in the same user turn is parsed as usual. What is pending it reads from the batch as
data (``coach.llm.base.Pending``), never from the system prompt.

A read joined to changes in one message is called first and its answer is shown above the list of
changes; only the changes go to the card. The suggested replies the app offers ("What does this
change?", "Never mind", "Try again", and the families' own such as "Show my program") are
understood by ``replies``.

The package: ``grammar`` (a command's call and error, the shared vocabulary), ``families`` (finds
each family app's ``tools/offline.py``), ``commands`` (the parser that tries them and the help
text), ``phrases`` (the tools' sentences), ``replies`` (the suggested replies), ``provider`` (the
provider and its acknowledgments). Text replies end with suggested replies in seed 000's format:
the text, a ``---`` line, then one reply per line. The commands are described for people in
``OFFLINE_COMMANDS.md`` and, generated from the declarations, in ``docs/offline-commands.md``.
"""

from .commands import help_text, parse_command, split_commands
from .grammar import CommandError, Parsed, with_replies
from .provider import OfflineProvider, acknowledgment

__all__ = [
    "CommandError",
    "OfflineProvider",
    "Parsed",
    "acknowledgment",
    "help_text",
    "parse_command",
    "split_commands",
    "with_replies",
]
