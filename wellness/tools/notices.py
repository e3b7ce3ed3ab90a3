"""The athlete's reminders as notices the chat posts (``NOTICES`` in ``wellness.tools``, found by
``coach.plan``; the chat's ``chat.reminders`` delivers them, so this app never needs the chat,
and its data code, ``wellness.services``, never the engine).

Celery beat runs the delivery every ``WELLNESS_REMINDER_INTERVAL`` seconds. Each reminder whose
local time has come (in the athlete's time zone, ``services.due_reminders``) is claimed once for
that local day (``services.claim_delivery``: a unique row, so two ticks or two beats can't both
deliver it); the chat posts it as a coach message in the same transaction.
"""

from __future__ import annotations

import datetime
from typing import Any

from coach.render import quote

from .. import services
from ..services import Due


def reminder_text(title: str, at: datetime.time) -> str:
    return f"⏰ Reminder: {title} ({at:%H:%M})"


def due(now: datetime.datetime) -> list[Due]:
    return services.due_reminders(now)


def claim(item: Due) -> bool:
    """Record today's delivery; False when another tick already did."""
    return services.claim_delivery(reminder=item.reminder, local_date=item.local_date)


def athlete(item: Due) -> Any:
    return item.reminder.athlete


def label(item: Due) -> str:
    return f"Reminder {item.reminder.pk}"


def text(item: Due) -> str:
    """What the athlete reads in the chat."""
    return reminder_text(item.reminder.title, item.local_time)


def model_text(item: Due) -> str:
    """What the model reads of it (the title quoted: the athlete wrote it)."""
    return (
        f"(Spotter delivered the athlete's reminder {quote(item.reminder.title)} at "
        f"{item.local_time:%H:%M}, their time.)"
    )
