"""Shared by the offline coach test modules: asking the offline provider as the chat would."""

from __future__ import annotations

from coach.llm.base import Turn
from coach.llm.offline import OfflineProvider
from coach.registry import tool_definitions


def ask(text: str, history: list[Turn] | None = None):
    turns = [*(history or []), Turn(role="user", content=text)]
    return OfflineProvider().complete(system="", turns=turns, tools=tool_definitions())
