"""Notice delivery: Celery beat runs ``deliver_due`` every ``WELLNESS_REMINDER_INTERVAL`` seconds
(``chat.tasks.deliver_reminders``). The notices come from the families that declare ``NOTICES``
(``coach.plan``; for Spotter, the wellness reminders, ``wellness.tools.notices``). Each notice due now is
claimed once (the family's ``claim``: for a reminder, a unique row per local day, so two ticks or
two beats can't both deliver it) and posted, as a coach message in the same transaction, in the
conversation the chat page opens: the latest about the athlete's current program
(``chat.services.conversation_for_athlete``, which starts one if there is none yet), never an
earlier program's, which is read-only. It then appears in the chat like any coach message. A notice
of an athlete with no program is claimed and not posted (there is no chat to post in).
"""

from __future__ import annotations

import datetime
import logging

from django.db import transaction
from django.utils import timezone

from coach.plan import declared

from .models import Conversation, Message
from .services import conversation_for_athlete

logger = logging.getLogger(__name__)


def deliver_due(now: datetime.datetime | None = None) -> int:
    """Post every notice due at ``now``; returns how many were posted."""
    now = now or timezone.now()
    posted = 0
    for source in declared("NOTICES"):
        for item in source.due(now):
            with transaction.atomic():
                if not source.claim(item):
                    continue
                conversation = conversation_for_athlete(athlete=source.athlete(item))
                if conversation is None:
                    logger.info("%s: the athlete has no program to chat about", source.label(item))
                    continue
                Message.objects.create(
                    conversation=conversation,
                    role=Message.Role.ASSISTANT,
                    status=Message.Status.COMPLETE,
                    content=source.text(item),
                    llm_content=source.model_text(item),
                    finished_at=now,
                )
                Conversation.objects.filter(pk=conversation.pk).update(updated_at=now)
                posted += 1
    return posted
