"""Shared by the provider test modules: the recorded provider payloads in tests/llm/payloads/."""

from __future__ import annotations

import json
from pathlib import Path

PAYLOADS = Path(__file__).resolve().parent / "payloads"


def payload(name: str) -> dict:
    return json.loads((PAYLOADS / name).read_text())
