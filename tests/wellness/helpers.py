"""Helpers the wellness tests share: one athlete turn through the real agent loop."""

from __future__ import annotations

from chat.agent import run_turn
from chat.services import message_send
from tests.chat.scripted_provider import ScriptedProvider


def turn(conversation, text, *calls, reply="Got it."):
    """The athlete says ``text``; the scripted model answers with ``calls`` (id, name, args)."""
    _, placeholder = message_send(conversation=conversation, text=text)
    provider = (
        ScriptedProvider().calls(*calls, text=reply) if calls else ScriptedProvider().text(reply)
    )
    run_turn(placeholder=placeholder, provider=provider)
    placeholder.refresh_from_db()
    return placeholder


CREATINE = (
    "c1",
    "log_medication",
    {"medication_name": "creatine", "kind": "supplement", "part_of_day": "morning"},
)
