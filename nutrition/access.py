"""What the nutrition family tells the access policy (``access.policy``, the one rule), and the
household every person gets.

* A household is its members' (``OWNERS``): they read and change it and everything in it (each
  recipe, meal, list and item names its household with ``get_owner_object()``). Nobody becomes a
  member by someone else's act: a member invites, the invited person accepts
  (``nutrition.households``).
* A member's coach (the coach of any of that member's programs) reads it and changes nothing:
  sharing a household with an athlete shares it with their coach, and the invitation says so.
  Staff read every household; nobody else sees anything: someone else's recipe, meal, list or
  item is a 404 on a page and NOT_FOUND for a tool, never the data.
* Everyone gets a household of their own on first use (``household_for(user, create=True)``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from access.policy import Owner, is_active, visible

from .models import Household, HouseholdMember

OWNERS = [
    Owner(
        model=Household,
        people=lambda household: set(household.members.values_list("user_id", flat=True)),
        people_lookup="members__user",
        coach_acts=False,
        many=True,
    )
]


def household_for(user: Any, *, create: bool = False) -> Household | None:
    """The household ``user`` is a member of; when they are in none and ``create``, a new one of
    their own (two requests at once make one: the membership is unique per person)."""
    if not is_active(user):
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


def readable_households(user: Any) -> QuerySet[Household]:
    return visible(Household.objects.all(), user)
