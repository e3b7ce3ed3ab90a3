"""The toy family's offline commands: "toy ping" and "toy rename to NAME", found by the offline
coach as it finds every family's."""

from __future__ import annotations

import re

from coach.llm.offline.families import Commands
from coach.llm.offline.grammar import Parsed


def parse(command: str) -> Parsed | None:
    text = command.strip()
    if re.fullmatch(r"toy\s+ping", text, re.IGNORECASE):
        return Parsed("toy_ping", {}, "toy ping")
    if m := re.fullmatch(r"toy\s+rename\s+to\s+(\w+)", text, re.IGNORECASE):
        return Parsed("toy_rename", {"name": m.group(1)}, f"rename the toy to {m.group(1)}")
    return None


COMMANDS = Commands(
    parse=parse,
    help=[("Ping the toy", "toy ping"), ("Rename the toy", "toy rename to Sam")],
    heading="Toy:",
)
