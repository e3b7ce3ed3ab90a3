"""The conversation layer's rules on top of the one access policy (``access.policy``).

Every chat object names its owner (``get_owner_object()`` → the conversation's program), so the
policy decides who may read it (the athlete, their coach, staff), and this module adds only what
belongs to conversations:

* An athlete reaches a conversation only while its program still belongs to them (after a coach
  gives the program to another athlete, the old conversation is someone else's: a 404): the
  policy's ``OWN`` on the conversation, and the conversation is theirs.
* An athlete's **current program** is their newest one. Conversations about it take messages and
  decisions; conversations about an earlier program (the coach gave the athlete a new one) stay
  readable but are **read-only**: no message, no Apply, Cancel, edit or Undo, and a batch still
  open in one expires with a note saying why (``chat.proposals``).
* Only the coach of the conversation's program posts into it as the athlete's coach (not staff
  readers, not a superuser who isn't that coach: the athlete reads it as "your coach"), and only
  into a conversation that isn't read-only.
* The coach of the conversation's program decides its reviews (a superuser may too): the policy's
  ``REVIEW``.

The chat names no family: the program is whatever ``Conversation.program`` points at.
Views, the admin and the lifecycle all call these functions.
"""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery

from access import policy

from .models import Conversation

# The model a conversation is about (a program), named by the conversation, not by the chat.
Subject = Conversation._meta.get_field("program").related_model


def current_program_id(athlete_id: int | None) -> int | None:
    """The athlete's current program: their newest (the one the chat opens on)."""
    if athlete_id is None:
        return None
    return (
        Subject.objects.filter(athlete_id=athlete_id)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)
        .first()
    )


def current_program_subquery() -> Subquery:
    """``current_program_id`` of a conversation's athlete, as a subquery on ``Conversation``."""
    newest = Subject.objects.filter(athlete_id=OuterRef("athlete_id")).order_by(
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
    if not policy.is_active(user):
        return Conversation.objects.none()
    return policy.visible(
        Conversation.objects.filter(athlete=user), user, lookup="program", action=policy.OWN
    )


def may_act_as_athlete(user: Any, conversation: Conversation) -> bool:
    return conversation.athlete_id == getattr(user, "pk", None) and policy.owns(user, conversation)


def may_post_as_coach(user: Any, conversation: Conversation) -> bool:
    """The athlete's own coach (the coach of the conversation's program, which still belongs to
    the athlete) may post into a conversation that isn't read-only."""
    return (
        policy.Tie.COACH in policy.ties(user, conversation)
        and conversation.program.athlete_id == conversation.athlete_id
        and not is_read_only(conversation)
    )


def visible_conversation_filter(user: Any, prefix: str = "") -> Q | None:
    """A filter on ``{prefix}program`` for the staff-side (admin) lists: the conversations about
    the programs ``user`` may read (the policy's ``READ``); ``None`` means everything."""
    rule = policy.scope(user, Subject)
    if rule is None:
        return None
    return Q(**{f"{prefix}program__in": Subject.objects.filter(rule)})


def may_review(user: Any, conversation: Conversation) -> bool:
    """The coach of the conversation's program decides its reviews (a superuser may too)."""
    return policy.may_review(user, conversation)
