"""Reading the JSON files the program commands take (shared by import_program and coach_tools)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError


def read_json(path: str) -> Any:
    """Load JSON from ``path`` (``-`` is stdin); a missing file or bad JSON is a CommandError."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"Can't read {path}: {exc.strerror or exc}.") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from exc
