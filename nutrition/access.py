"""Who reaches a household and everything in it (the one rule for views, admin and tools).

* Its members read and change it. Nobody becomes a member by someone else's act: a member
  invites, the invited person accepts (``nutrition.households``).
* A member's coach (the coach of any of that member's programs) reads it: sharing a household
  with an athlete shares it with their coach, and the invitation says so. Staff readers
  (``programs.access.is_staff_reader``) read every household; nobody else sees anything: someone
  else's recipe, meal, list or item is a 404 on a page and NOT_FOUND for a tool, never the data.
* Everyone gets a household of their own on first use (``household_for(user, create=True)``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet

from programs.access import is_staff_reader
from programs.models import Program

from .models import Household, HouseholdMember


def _authenticated(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def household_for(user: Any, *, create: bool = False) -> Household | None:
    """The household ``user`` is a member of; when they are in none and ``create``, a new one of
    their own (two requests at once make one: the membership is unique per person)."""
    if not _authenticated(user):
        return None
    membership = HouseholdMember.objects.select_related("household").filter(user=user).first()
    if membership is not None:
        return membership.household
    if not create:
        return None
    try:
        with transaction.atomic():
            household = Household.objects.create(name=f"{user.get_username()}'s household")
            HouseholdMember.objects.create(household=household, user=user)
    except IntegrityError:  # made meanwhile by another request: that one is theirs
        return HouseholdMember.objects.select_related("household").get(user=user).household
    return household


def may_change(user: Any, household: Household) -> bool:
    if not _authenticated(user):
        return False
    return household.members.filter(user=user).exists()


def readable_households(user: Any) -> QuerySet[Household]:
    if not _authenticated(user):
        return Household.objects.none()
    if is_staff_reader(user):
        return Household.objects.all()
    coached = Program.objects.filter(coach=user).values("athlete_id")
    return Household.objects.filter(
        Q(members__user=user) | Q(members__user_id__in=coached)
    ).distinct()


def scope(user: Any, *, lookup: str = "household") -> Q:
    """A filter on ``{lookup}`` for the rows of the households ``user`` may read."""
    return Q(**{f"{lookup}__in": readable_households(user).values("pk")})
