"""Who reaches a household and everything in it (the one rule for views, admin and tools).

* The owner (the athlete) and the members they invited read and change it.
* The owner's coach (the coach of any of the owner's programs) reads it; staff readers
  (``programs.access.is_staff_reader``) read every household; nobody else sees anything: someone
  else's recipe, meal, list or item is a 404 on a page and NOT_FOUND for a tool, never the data.
* An athlete gets their household on first use (``household_for(user, create=True)``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from programs.access import is_staff_reader
from programs.models import Program

from .models import Household, HouseholdMember


def _authenticated(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def household_for(user: Any, *, create: bool = False) -> Household | None:
    """The household ``user`` lives in: the one they were invited to, else their own (made on
    demand when ``create``)."""
    if not _authenticated(user):
        return None
    membership = HouseholdMember.objects.select_related("household").filter(user=user).first()
    if membership is not None:
        return membership.household
    household = Household.objects.filter(owner=user).first()
    if household is None and create:
        household, _ = Household.objects.get_or_create(
            owner=user, defaults={"name": f"{user.get_username()}'s household"}
        )
    return household


def may_change(user: Any, household: Household) -> bool:
    if not _authenticated(user):
        return False
    return household.owner_id == user.pk or household.members.filter(user=user).exists()


def readable_households(user: Any) -> QuerySet[Household]:
    if not _authenticated(user):
        return Household.objects.none()
    if is_staff_reader(user):
        return Household.objects.all()
    coached = Program.objects.filter(coach=user).values("athlete_id")
    return Household.objects.filter(
        Q(owner=user) | Q(members__user=user) | Q(owner_id__in=coached)
    ).distinct()


def may_read(user: Any, household: Household) -> bool:
    return readable_households(user).filter(pk=household.pk).exists()


def scope(user: Any, *, lookup: str = "household") -> Q:
    """A filter on ``{lookup}`` for the rows of the households ``user`` may read."""
    return Q(**{f"{lookup}__in": readable_households(user).values("pk")})
