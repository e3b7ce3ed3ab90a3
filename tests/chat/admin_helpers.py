"""The people and data the chat admin tests share: staff, the athlete's coach, another coach, the
athlete, a superuser; a conversation per coach; audit records made directly or by the real agent
loop."""

from __future__ import annotations

from django.db import transaction

from chat.agent import run_turn
from chat.models import Conversation, PendingToolBatch, ToolCallRecord
from chat.services import message_send
from programs.admin import ensure_coach_group, ensure_staff_group
from tests.chat.scripted_provider import ScriptedProvider
from tests.factories import CoachFactory, UserFactory

REMOVE_SESSION = ("call_rm", "remove_session", {"weekNumber": 2, "sessionNumber": 3})
RENAME = (
    "call_1",
    "modify_exercise",
    {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 1, "updates": {"name": "Goblet Squat"}},
)


def make_coach(username: str):
    coach = CoachFactory(username=username)
    coach.groups.add(ensure_coach_group())
    return coach


def make_staff(username: str = "staff-sam"):
    user = UserFactory(username=username, is_staff=True)
    user.groups.add(ensure_staff_group())
    return user


def record(conversation: Conversation, **fields) -> ToolCallRecord:
    values = {
        "conversation": conversation,
        "athlete_id": conversation.athlete_id,
        "program_id": conversation.program_id,
        "tool": "modify_exercise",
        "call_id": "call_1",
        "kind": ToolCallRecord.Kind.WRITE,
        "arguments": {"weekNumber": 1, "updates": {"name": "Goblet Squat"}},
        "status": ToolCallRecord.Status.PROPOSED,
        "transitions": [{"status": "proposed", "at": "2026-11-20T10:00:00+00:00", "by": None}],
        "provider": "openai",
        "model": "gpt-test",
        "prompt_tokens": 120,
        "completion_tokens": 30,
        "model_latency_ms": 850,
    }
    values.update(fields)
    return ToolCallRecord.objects.create(**values)


def propose(conversation: Conversation, *calls, text: str = "Shall I?") -> PendingToolBatch:
    """The real agent loop, with a scripted model proposing ``calls``."""
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text="please change it")
    run_turn(placeholder=placeholder, provider=ScriptedProvider().calls(*calls, text=text))
    return PendingToolBatch.objects.get(
        conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES
    )


def logged_in(client, user):
    client.force_login(user)
    return client
