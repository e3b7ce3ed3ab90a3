"""Reminder delivery: Celery beat runs ``deliver_due`` every ``WELLNESS_REMINDER_INTERVAL`` seconds
(``chat.tasks.deliver_reminders``). Each reminder whose local time has come (in the athlete's
time zone, ``wellness.services.due_reminders``) is claimed once for that local day (a unique row,
so two ticks or two beats can't both deliver it) and posted, as a coach message in the same
transaction, in the conversation the chat page opens: the latest about the athlete's current
program (``chat.services.conversation_for_athlete``, which starts one if there is none yet), never
an earlier program's, which is read-only. It then appears in the chat like any coach message.
A reminder of an athlete with no program is claimed and not posted (there is no chat to post in).
"""

from __future__ import annotations

import datetime
import logging

from django.db import transaction
from django.utils import timezone

from coach.render import quote
from wellness import services as wellness

from .models import Conversation, Message
from .services import conversation_for_athlete

logger = logging.getLogger(__name__)


def reminder_text(title: str, at: datetime.time) -> str:
    return f"⏰ Reminder: {title} ({at:%H:%M})"


def deliver_due(now: datetime.datetime | None = None) -> int:
    """Post every reminder due at ``now``; returns how many were posted."""
    now = now or timezone.now()
    posted = 0
    for due in wellness.due_reminders(now):
        with transaction.atomic():
            if not wellness.claim_delivery(reminder=due.reminder, local_date=due.local_date):
                continue
            conversation = conversation_for_athlete(athlete=due.reminder.athlete)
            if conversation is None:
                logger.info(
                    "Reminder %s: the athlete has no program to chat about", due.reminder.pk
                )
                continue
            Message.objects.create(
                conversation=conversation,
                role=Message.Role.ASSISTANT,
                status=Message.Status.COMPLETE,
                content=reminder_text(due.reminder.title, due.local_time),
                llm_content=(
                    f"(Spotter delivered the athlete's reminder {quote(due.reminder.title)} at "
                    f"{due.local_time:%H:%M}, their time.)"
                ),
                finished_at=now,
            )
            Conversation.objects.filter(pk=conversation.pk).update(updated_at=now)
            posted += 1
    return posted
