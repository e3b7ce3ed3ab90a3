"""Who may reach a conversation and what hangs off it (messages, batches, tool-call records).

Every object names its owner (``get_owner_object()`` → the program); ``programs.access`` decides who
may reach a program, and this module adds the conversation layer's one rule: an athlete reaches a
conversation only while its program still belongs to them (after a coach gives the program to
another athlete, the old conversation can't post or apply anything). Views, the admin and the
lifecycle all call these functions.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from programs.access import is_staff_reader, programs_visible_to

from .models import Conversation


def athlete_conversations(user: Any) -> QuerySet[Conversation]:
    """The conversations ``user`` may read and write in as their athlete."""
    if not getattr(user, "is_authenticated", False):
        return Conversation.objects.none()
    return Conversation.objects.filter(athlete=user, program__athlete=user)


def may_act_as_athlete(user: Any, conversation: Conversation) -> bool:
    return (
        getattr(user, "is_authenticated", False)
        and conversation.athlete_id == user.pk
        and conversation.program.athlete_id == user.pk
    )


def visible_conversation_filter(user: Any, prefix: str = "") -> Q | None:
    """A filter on ``{prefix}program`` for the staff-side (admin) lists: everything for staff
    readers, the programs a coach coaches otherwise; ``None`` means everything."""
    if is_staff_reader(user):
        return None
    return Q(**{f"{prefix}program__in": programs_visible_to(user)})


def may_review(user: Any, conversation: Conversation) -> bool:
    """The coach of the conversation's program decides its reviews (a superuser may too)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser) or conversation.program.coach_id == user.pk
