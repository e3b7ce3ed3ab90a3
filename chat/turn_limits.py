"""What bounds one turn of the agent (``chat.agent``), so that one athlete, or one model, can't
stall or flood the app for the others (issue 18 items 6, 8 and 9):

* **Time.** ``turn_deadline``: ``AGENT_TURN_TIMEOUT`` is the turn's one total time across all its
  model calls, their retries and the waits between them (``coach.llm.base.Deadline``, enforced by
  ``coach.llm.http``). Before each request it asks whether the reply still waits for this run
  (``still_current``), so nothing calls the model once the athlete was told the reply failed, or
  once another run replaced this one.
* **Tool calls.** ``over_call_limit``: more than ``AGENT_MAX_TOOL_CALLS`` over all the model calls
  of one turn (seed 003's limits) and the response that went past it is refused whole.
* **Ids.** ``own_call_ids``: the calls of a response are named by ids of the app's own
  (``coach.toolcalls.own_ids``); the provider's id is data, kept only to send it back.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection

from coach.llm.base import Deadline, LLMResponse
from coach.toolcalls import ToolCall, own_ids

from .models import Message

logger = logging.getLogger(__name__)


def turn_deadline(message_id: int, attempt: int) -> Deadline:
    """The turn's one total time (``AGENT_TURN_TIMEOUT``), which asks before each request whether
    the reply still waits for run ``attempt``."""
    return Deadline(
        float(settings.AGENT_TURN_TIMEOUT),
        still_wanted=lambda: still_current(message_id, attempt),
    )


def still_current(message_id: int, attempt: int) -> bool:
    """The reply still waits for run ``attempt`` (it wasn't failed, finished or given a new run).
    Gives the connection back afterwards: the caller is about to wait for the model."""
    current = Message.objects.filter(
        pk=message_id, status=Message.Status.RUNNING, attempt=attempt
    ).exists()
    if not connection.in_atomic_block:
        connection.close()
    return current


def over_call_limit(*, message_id: int, count: int) -> bool:
    """The turn's ``count`` tool calls so far are more than ``AGENT_MAX_TOOL_CALLS`` (logged)."""
    limit = int(settings.AGENT_MAX_TOOL_CALLS)
    if count <= limit:
        return False
    logger.warning(
        "Reply %s: the model asked for %s tool calls for one message (at most %s); refused",
        message_id,
        count,
        limit,
    )
    return True


def own_call_ids(response: LLMResponse) -> list[ToolCall]:
    """The response's calls named by ids of the app's own (``coach.toolcalls.own_ids``): a
    provider's id may hold "/" or hundreds of characters; it is kept for the protocol only. The
    response's calls and per-call extras are updated to the new ids."""
    calls = own_ids(
        list(response.tool_calls), max_provider_chars=int(settings.CHAT_TOOL_CALL_ID_MAX_CHARS)
    )
    renamed = {old.id: new.id for old, new in zip(response.tool_calls, calls, strict=True)}
    response.tool_calls = calls
    response.tool_call_extras = {
        renamed.get(key, key): value for key, value in (response.tool_call_extras or {}).items()
    }
    return calls
