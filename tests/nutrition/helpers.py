"""Shared by the nutrition tests: a household with two recipes and a list, and running tools."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

from coach.engine import ToolContext, apply_calls, execute_read, preview_calls
from coach.toolcalls import ToolCall
from nutrition import households, services
from nutrition.access import household_for
from nutrition.aggregation import quantity_text
from nutrition.models import GroceryItem, HouseholdInvitation

_ids = itertools.count(1)


def call(tool: str, /, **arguments: Any) -> ToolCall:
    return ToolCall(id=f"call_{next(_ids)}", name=tool, arguments=arguments)


def ctx(athlete, program=None) -> ToolContext:
    return ToolContext(athlete=athlete, program=program, user=athlete)


def apply(athlete, *calls, program=None):
    return apply_calls(ctx=ctx(athlete, program), calls=list(calls))


def preview(athlete, *calls):
    return preview_calls(ctx=ctx(athlete), calls=list(calls))


def read(athlete, tool, /, **arguments):
    return execute_read(ctx=ctx(athlete), call=call(tool, **arguments))


def codes(result) -> list[list[tuple[str, str | None]]]:
    return [[(e.code, e.field) for e in r.errors] for r in result.results]


def kitchen(athlete):
    """Rice bowl (1 cup rice, 1 lb chicken, 1 whole onion) and stir fry (0.5 cup rice,
    500 g chicken, 1 whole onion chopped), and an empty list "Groceries"."""
    home = household_for(athlete, create=True)
    bowl = services.recipe_create(
        household=home,
        title="Rice bowl",
        ingredients=[
            {"ingredient": "rice", "quantity": 1, "unit": "cup"},
            {"ingredient": "chicken", "quantity": 1, "unit": "lb"},
            {"ingredient": "onion", "quantity": 1, "unit": "whole"},
        ],
        tags=["dinner", "high-carb"],
        rating=4,
    )
    stir_fry = services.recipe_create(
        household=home,
        title="Stir fry",
        ingredients=[
            {"ingredient": "rice", "quantity": Decimal("0.5"), "unit": "cup"},
            {"ingredient": "chicken", "quantity": 500, "unit": "g"},
            {"ingredient": "onion", "quantity": 1, "unit": "whole", "prep_state": "chopped"},
        ],
        tags=["dinner"],
    )
    groceries = services.list_create(household=home, name="Groceries")
    return home, bowl, stir_fry, groceries


def items(grocery_list) -> list[tuple[str, str, str, str]]:
    return [
        (i.name, quantity_text(i.quantity), i.unit, i.prep_state)
        for i in GroceryItem.objects.filter(grocery_list=grocery_list).order_by("pk")
    ]


def first_member(household):
    """The person whose household it first was (its earliest member)."""
    return household.members.select_related("user").first().user


def join(person, household):
    """``person`` joins ``household`` the only way there is: invited by a member, they accept."""
    households.invite(by=first_member(household), username=person.get_username())
    invitation = HouseholdInvitation.objects.get(
        household=household, invited=person, status="pending"
    )
    households.accept(user=person, invitation_id=invitation.pk)
