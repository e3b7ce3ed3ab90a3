"""The offline coach: the embedded default provider, deterministic, with no model.

With no model configured, this provider turns what the athlete types into the very same tool
calls a model would propose. Nothing is applied by it: the calls go through the same preview and
**Apply Changes** as a model's (a stated log that needs no confirmation is written at once, with
Undo, when the guardrails pass, as a model's would be).

It knows no family and no tool; it reads what the family apps declare, so a new tool is understood
the moment it is declared:

* **Everyday sentences** (``understand``): each family's ``<app>/tools/language.py``
  (``LANGUAGE``, a ``language.Language``: hassil template sentences, slot lists filled from the
  athlete's data, and the builds that turn a match into calls or a question), and the sentences a
  tool declares on its spec (``ToolSpec.phrases``, compiled by ``phrases``). Ambiguity is a
  question with chips; what isn't understood gets the nearest examples as chips, never a guess.
* **Commands** (``commands``): each family's ``<app>/tools/offline.py`` (``COMMANDS``, a
  ``families.Commands``: the documented syntax such as ``rename exercise 1.2.3 to …``, its help
  lines, verbs, examples and the suggested replies it answers). Tried first; several join with
  ``;``, a new line, or `` and `` / `` then `` before the next command's verb.

After a batch is decided (Apply, Cancel, the coach's review, undo, expiry) the reply acknowledges
it from the structured decision the conversation layer attaches to the user turn
(``Turn.events``), never from prose; what is pending it reads as data (``coach.llm.base.Pending``)
and the athlete's context as data too (``coach.llm.base.World``). A read joined to changes in one
message is called first and its answer shown above the list of changes. The suggested replies the
app offers ("What does this change?", "Never mind", "Try again", the families' own) are
understood by ``replies``. Text replies end with suggested replies in seed 000's format: the text,
a ``---`` line, then one reply per line. ``docs/offline-commands.md`` is generated from the
declarations; ``OFFLINE_COMMANDS.md`` explains the commands for people.
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
