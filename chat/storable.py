"""What the database can store: PostgreSQL keeps no NUL character, neither in text nor in jsonb,
and the model (or an athlete) may send one."""

from __future__ import annotations

from typing import Any


def strip_nul(value: Any) -> Any:
    """``value`` without NUL characters, which PostgreSQL can store neither in text nor in jsonb."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [strip_nul(v) for v in value]
    if isinstance(value, dict):
        return {strip_nul(k): strip_nul(v) for k, v in value.items()}
    return value
