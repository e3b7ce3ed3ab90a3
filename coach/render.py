"""How the engine renders user data for a model: quoted, bounded user text, compact JSON and a
cardio block in words. Used by the families' read tools and by the conversation layer's prompt; it
knows nothing of conversations, nor of any family (the program's summary is the program family's,
``programs.summary``, which the prompt reaches through ``coach.plan``).

**User-written text is data.** Program, week, session and exercise names, loads and notes go to the
model as JSON string literals cut to a bound, with ``<`` and ``>`` escaped (``\u003c``), so a name
can neither pose as instructions nor close the ``<program_data>`` block it sits in.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .vocabulary import CARDIO_TYPES

MAX_QUOTED_CHARS = 200


def quote(text: Any, *, limit: int = MAX_QUOTED_CHARS) -> str:
    """``text`` as a JSON string literal, cut to ``limit`` characters (marked with an ellipsis),
    with ``<`` and ``>`` escaped so it can't open or close a tag of the prompt."""
    value = "" if text is None else str(text)
    if len(value) > limit:
        value = value[: limit - 1] + "…"
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")


def plain(text: Any, *, limit: int = MAX_QUOTED_CHARS) -> str:
    """``text`` for a person: as written, cut to ``limit`` (``quote``'s counterpart for replies a
    person reads; the page escapes it)."""
    value = "" if text is None else str(text)
    return value if len(value) <= limit else value[: limit - 1] + "…"


Quote = Callable[..., str]


def cardio_text(cardio: Any) -> str:
    """A cardio block as a person reads it: "Zone 2, 45 min, Running". Takes the tools' JSON form
    (``{"type": "zone2", "duration": 45, "modality": "Running", ...}``) or a ``CardioBlock``;
    None reads "no cardio"."""
    if cardio is None:
        return "no cardio"
    get = cardio.get if isinstance(cardio, dict) else lambda key: getattr(cardio, key, None)
    kind = get("type")
    label = CARDIO_TYPES.get(kind) if isinstance(kind, str) else None
    parts = [label or str(kind or "Cardio")]
    if get("duration") not in (None, ""):
        parts.append(f"{get('duration')} min")
    for key in ("modality", "instructions", "notes"):
        if get(key):
            parts.append(str(get(key)))
    return ", ".join(parts)


def bounded_json(data: Any, *, limit: int) -> str:
    """``data`` as compact JSON cut to ``limit`` characters, tags escaped as in ``quote``."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("<", "\\u003c").replace(">", "\\u003e")
