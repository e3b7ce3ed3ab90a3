"""The toy family's offline commands: "toy ping" and "toy rename to NAME", found by the offline
coach as it finds every family's; "toy" starts a command after "and"; "toy ping" is offered under
the help; the suggested reply "Show me the toy" is the toy's to answer."""

from __future__ import annotations

import re

from coach.llm.offline.families import Commands
from coach.llm.offline.grammar import Parsed, ReplyAnswer, with_replies


def parse(command: str) -> Parsed | None:
    text = command.strip()
    if re.fullmatch(r"toy\s+ping", text, re.IGNORECASE):
        return Parsed("toy_ping", {}, "toy ping")
    if m := re.fullmatch(r"toy\s+rename\s+to\s+(\w+)", text, re.IGNORECASE):
        return Parsed("toy_rename", {"name": m.group(1)}, f"rename the toy to {m.group(1)}")
    return None


def answer(text: str, turns) -> ReplyAnswer | None:
    if re.fullmatch(r"show me the toy", text, re.IGNORECASE):
        return ReplyAnswer(text=with_replies("The toy is fine.", ["toy ping"]))
    return None


COMMANDS = Commands(
    parse=parse,
    help=[("Ping the toy", "toy ping"), ("Rename the toy", "toy rename to Sam")],
    heading="Toy:",
    verbs=("toy",),
    examples=("toy ping",),
    answer=answer,
)
