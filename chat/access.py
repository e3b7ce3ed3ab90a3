"""Who may reach a conversation and what hangs off it (messages, batches, tool-call records).

Every object names its owner (``get_owner_object()`` → the program); ``programs.access`` decides who
may reach a program, and this module adds the conversation layer's rules:

* An athlete reaches a conversation only while its program still belongs to them (after a coach
  gives the program to another athlete, the old conversation is someone else's: a 404).
* An athlete's **current program** is their newest one. Conversations about it take messages and
  decisions; conversations about an earlier program (the coach gave the athlete a new one) stay
  readable but are **read-only**: no message, no Apply, Cancel, edit or Undo, and a batch still
  open in one expires with a note saying why (``chat.proposals``).
* Only the coach of the conversation's program posts into it as the athlete's coach (not staff
  readers, not a superuser who isn't that coach: the athlete reads it as "your coach"), and only
  into a conversation that isn't read-only.

Views, the admin and the lifecycle all call these functions.
"""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery

from programs.access import is_staff_reader, programs_visible_to
from programs.models import Program

from .models import Conversation


def current_program_id(athlete_id: int | None) -> int | None:
    """The athlete's current program: their newest (the one the chat opens on)."""
    if athlete_id is None:
        return None
    return (
        Program.objects.filter(athlete_id=athlete_id)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
        .first()
    )


def current_program_subquery() -> Subquery:
    """``current_program_id`` of a conversation's athlete, as a subquery on ``Conversation``."""
    newest = Program.objects.filter(athlete_id=OuterRef("athlete_id")).order_by(
        "-created_at", "-pk"
    )
    return Subquery(newest.values("pk")[:1])


def is_read_only(conversation: Conversation) -> bool:
    """True when the conversation is about a program that is no longer its athlete's current
    one (or no longer theirs at all). Remembered on the instance (one query per request)."""
    known = getattr(conversation, "_spotter_read_only", None)
    if known is None:
        known = conversation.program_id != current_program_id(conversation.athlete_id)
        conversation._spotter_read_only = known
    return known


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


def may_post_as_coach(user: Any, conversation: Conversation) -> bool:
    """The athlete's own coach (the coach of the conversation's program, which still belongs to
    the athlete) may post into a conversation that isn't read-only."""
    if not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return False
    program = conversation.program
    return (
        program.coach_id is not None
        and program.coach_id == user.pk
        and program.athlete_id == conversation.athlete_id
        and not is_read_only(conversation)
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
