"""Helpers the chat tests share: propose calls through the real agent loop with a scripted model,
read the program back."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from chat.agent import run_turn
from chat.models import Message, PendingToolBatch
from chat.services import message_send
from programs.models import Exercise, Program
from tests.chat.scripted_provider import ScriptedProvider
from tests.factories import ConversationFactory


def first_exercise(program, position=1, *, week=1, session=1):
    return Exercise.objects.get(
        session__week__program=program,
        session__week__position=week,
        session__position=session,
        position=position,
    )


def version(program):
    return Program.objects.get(pk=program.pk).version


def propose(conversation, *calls, text="Shall I?"):
    """The athlete asks, the scripted model proposes ``calls``; returns the open batch."""
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text="please change it")
    run_turn(placeholder=placeholder, provider=ScriptedProvider().calls(*calls, text=text))
    return PendingToolBatch.objects.get(
        conversation=conversation, status__in=PendingToolBatch.OPEN_STATUSES
    )


def running_reply(conversation=None) -> Message:
    """A reply the worker is writing now, in ``conversation`` (a new one when None)."""
    return Message.objects.create(
        conversation=conversation or ConversationFactory(),
        role=Message.Role.ASSISTANT,
        status=Message.Status.RUNNING,
        started_at=timezone.now(),
    )
