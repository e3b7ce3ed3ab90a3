"""Reading the JSON files the program commands take (shared by import_program and coach_tools)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

MAX_DEPTH = 12  # a program file nests 6 levels (weeks, sessions, exercises, cardio...)


def read_json(path: str) -> Any:
    """Load JSON from ``path`` (``-`` is stdin). A missing file, text that isn't UTF-8, bad JSON
    or JSON nested deeper than any program file is a CommandError that says so."""
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            raw = stdin.read() if stdin is not None else sys.stdin.read().encode("utf-8")
        else:
            raw = Path(path).read_bytes()
    except OSError as exc:
        raise CommandError(f"Can't read {path}: {exc.strerror or exc}.") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CommandError(
            f"{path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at position {exc.start}); "
            "save it as UTF-8 and try again."
        ) from exc
    depth = _max_depth(text)
    if depth > MAX_DEPTH:
        raise CommandError(
            f"{path} is nested {depth} levels deep; a program file needs at most {MAX_DEPTH}."
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from exc


def _max_depth(text: str) -> int:
    """How deeply ``[`` and ``{`` nest outside strings (without parsing, so no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
