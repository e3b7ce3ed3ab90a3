"""Joining and leaving a household: every step is the person's own act.

* ``invite``: a member invites someone by username. The answer is the same whether the name is
  in use or not (same text; the page answers with the same status), so the form tells nobody who
  has an account; the invitation is a row either way (``HouseholdInvitation``) and counts towards
  ``HOUSEHOLD_INVITATIONS_PER_DAY``. Inviting again while one is waiting changes nothing; inviting
  someone already in the household makes nothing.
* ``accept`` / ``decline``: only the invited person, only while the invitation is pending.
  Accepting moves them out of the household they are in (``leave``'s rules) into the new one.
* ``leave``: a member can always leave a household they share; its recipes, meal plans and grocery
  lists stay with the members who remain, and the one who left gets a household of their own on
  next use.

The last member: when the only member of a household joins another (accepting an invitation),
their household is dissolved and **everything in it goes with them**: its recipes, planned meals
and grocery lists (deleted ones too, so undo keeps working) are moved into the household they
join, a list whose name is taken there getting the old household's name after it. Nothing is
deleted but the empty household row and the invitations it had sent. "Leaving" a household you
are alone in would only give you an empty one, so it is refused in words and nothing changes: the
household and everything in it stay yours.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .access import household_for
from .models import (
    GroceryList,
    Household,
    HouseholdInvitation,
    HouseholdMember,
    InvitationStatus,
    PlannedMeal,
    Recipe,
)
from .services import NutritionError

PENDING = InvitationStatus.PENDING
USERNAME_MAX = 150
DAY = datetime.timedelta(days=1)


def invite_answer(username: str) -> str:
    """What the inviter is told, whoever the name belongs to (or nobody)."""
    return (
        f"Invitation sent to \u201c{username}\u201d, if that is someone's username. They will see "
        "it on their Household page and join only if they accept it."
    )


def _lock(*household_ids: int) -> list[Household]:
    """Lock the households' rows, always in the order of their ids (no deadlock between two
    people joining each other's households at once)."""
    return list(Household.objects.select_for_update().filter(pk__in=household_ids).order_by("pk"))


def invite(*, by: Any, username: str) -> str:
    """``by`` invites ``username`` to their household; returns the answer to show (the same for
    every name). Raises ``NutritionError`` for an empty or too long name, or past the daily limit,
    in which case nothing is recorded."""
    name = (username or "").strip()
    if not name:
        raise NutritionError(
            "VALIDATION_ERROR", "Type the username of the person to invite.", "username"
        )
    if len(name) > USERNAME_MAX:
        raise NutritionError(
            "VALIDATION_ERROR", f"A username has at most {USERNAME_MAX} characters.", "username"
        )
    home = household_for(by, create=True)
    with transaction.atomic():
        _lock(home.pk)
        invited = get_user_model().objects.filter(username=name).first()
        if invited is not None and home.members.filter(user=invited).exists():
            return invite_answer(name)
        waiting = home.invitations.filter(username=name, status=PENDING).first()
        if waiting is not None:
            if waiting.invited_id is None and invited is not None:  # the name found an owner since
                waiting.invited = invited
                waiting.save(update_fields=["invited"])
            return invite_answer(name)
        limit = settings.HOUSEHOLD_INVITATIONS_PER_DAY
        since = timezone.now() - DAY
        if limit and home.invitations.filter(created_at__gte=since).count() >= limit:
            raise NutritionError(
                "VALIDATION_ERROR",
                f"Your household has sent {limit} invitations in the last 24 hours, the most it "
                "may; invite again tomorrow.",
                "username",
            )
        HouseholdInvitation.objects.create(
            household=home, username=name, invited=invited, invited_by=by
        )
    return invite_answer(name)


def pending_for(user: Any) -> list[HouseholdInvitation]:
    """The invitations waiting for ``user``'s answer, newest first."""
    return list(
        HouseholdInvitation.objects.filter(invited=user, status=PENDING)
        .select_related("household", "invited_by")
        .prefetch_related("household__members__user")
    )


def _not_open() -> NutritionError:
    return NutritionError("NOT_FOUND", "This invitation is no longer open.", "invitation")


def _decide(invitation: HouseholdInvitation, status: str) -> None:
    invitation.status = status
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])


def decline(*, user: Any, invitation_id: int) -> None:
    with transaction.atomic():
        invitation = (
            HouseholdInvitation.objects.select_for_update()
            .filter(pk=invitation_id, invited=user, status=PENDING)
            .first()
        )
        if invitation is None:
            raise _not_open()
        _decide(invitation, InvitationStatus.DECLINED)


def accept(*, user: Any, invitation_id: int) -> Household:
    """``user`` joins the household that invited them; returns it. The household they were in
    is left (``leave``'s rules); when they were its last member, it is dissolved into the new one
    (see the module's docstring)."""
    found = HouseholdInvitation.objects.filter(
        pk=invitation_id, invited=user, status=PENDING
    ).first()
    if found is None:
        raise _not_open()
    with transaction.atomic():
        current = HouseholdMember.objects.filter(user=user).first()
        ids = {found.household_id} | ({current.household_id} if current else set())
        _lock(*ids)
        # Read again under the locks: the invitation (or its household) may be gone meanwhile.
        invitation = (
            HouseholdInvitation.objects.select_for_update(of=("self",))
            .select_related("household")
            .filter(pk=invitation_id, invited=user, status=PENDING)
            .first()
        )
        if invitation is None:
            raise _not_open()
        target = invitation.household
        membership = HouseholdMember.objects.filter(user=user).first()
        if (membership and membership.household_id) != (current and current.household_id):
            # Another of the user's own requests moved them meanwhile (a double click on two
            # invitations): their household now is not among the locked ones.
            raise NutritionError(
                "CONFLICT", "Your household changed meanwhile; look again and answer again."
            )
        if membership is not None and membership.household_id != target.pk:
            old = membership.household
            membership.delete()
            if not old.members.exists():
                _dissolve(old, into=target)
        if membership is None or membership.household_id != target.pk:
            HouseholdMember.objects.create(household=target, user=user)
        for same in HouseholdInvitation.objects.filter(
            household=target, invited=user, status=PENDING
        ):
            _decide(same, InvitationStatus.ACCEPTED)
    return target


def _free_name(name: str, taken: set[str], suffix: str) -> str:
    candidate = f"{name} ({suffix})"[:100]
    n = 2
    while candidate in taken:
        candidate = f"{name} ({suffix} {n})"[:100]
        n += 1
    return candidate


def _dissolve(old: Household, *, into: Household) -> None:
    """Move everything of ``old`` (which has no member left) into ``into`` and delete ``old``."""
    Recipe.all_objects.filter(household=old).update(household=into)
    PlannedMeal.all_objects.filter(household=old).update(household=into)
    taken = set(GroceryList.objects.filter(household=into).values_list("name", flat=True))
    for grocery_list in GroceryList.all_objects.filter(household=old):
        if grocery_list.deleted_at is None and grocery_list.name in taken:
            grocery_list.name = _free_name(grocery_list.name, taken, old.name)
        grocery_list.household = into
        grocery_list.save(update_fields=["name", "household"])
        if grocery_list.deleted_at is None:
            taken.add(grocery_list.name)
    old.delete()


def leave(*, user: Any) -> Household:
    """``user`` leaves the household they share with others; returns the household left. Refused
    (``NutritionError``, nothing changed) when they are in none or are its only member."""
    with transaction.atomic():
        membership = HouseholdMember.objects.filter(user=user).first()
        if membership is None:
            raise NutritionError("NOT_FOUND", "You are not in a household.")
        _lock(membership.household_id)
        household = membership.household
        if not household.members.exclude(user=user).exists():
            raise NutritionError(
                "VALIDATION_ERROR",
                "You are the only member of this household, so it and everything in it stay "
                "yours; nothing changed.",
            )
        HouseholdMember.objects.filter(pk=membership.pk).delete()
    return household
