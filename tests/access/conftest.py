"""One world for the access tests: an athlete with a program coached by their coach, data of each
family, a household shared with a member, and everyone else the policy must tell apart."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser

from chat.models import Conversation
from nutrition.access import household_for
from nutrition.models import GroceryItem, GroceryList, HouseholdMember, Recipe
from programs.admin import ensure_coach_group, ensure_staff_group
from tests.factories import (
    ActivityFactory,
    CoachFactory,
    LibraryWorkoutFactory,
    UserFactory,
    build_program,
)
from wellness.models import MoodLog

PEOPLE = (
    "athlete",
    "coach",
    "other_coach",
    "member",
    "non_member",
    "staff",
    "superuser",
    "anonymous",
)


@pytest.fixture
def world(db):
    coach = CoachFactory(username="coach", is_staff=True)
    coach.groups.add(ensure_coach_group())
    other_coach = CoachFactory(username="other-coach", is_staff=True)
    other_coach.groups.add(ensure_coach_group())
    athlete = UserFactory(username="athlete")
    member = UserFactory(username="member")
    non_member = UserFactory(username="non-member")
    staff = UserFactory(username="staff", is_staff=True)
    staff.groups.add(ensure_staff_group())
    superuser = UserFactory(username="root", is_staff=True, is_superuser=True)
    program = build_program(weeks=1, sessions=1, exercises=1, athlete=athlete, coach=coach)
    build_program(weeks=1, sessions=1, exercises=1, coach=other_coach)  # someone else's athlete
    home = household_for(athlete, create=True)
    HouseholdMember.objects.create(household=home, user=member)
    grocery_list = GroceryList.objects.create(household=home, name="Week")
    objects = {
        "program": program,
        "exercise": program.weeks.get().sessions.get().exercises.get(),
        "conversation": Conversation.objects.create(program=program, athlete=athlete),
        "activity": ActivityFactory(athlete=athlete),
        "mood": MoodLog.objects.create(
            athlete=athlete, mood="good", logged_on=datetime.date(2026, 1, 5)
        ),
        "workout": LibraryWorkoutFactory(owner=athlete, scope="private"),
        "household": home,
        "recipe": Recipe.objects.create(household=home, title="Oats"),
        "item": GroceryItem.objects.create(
            grocery_list=grocery_list, name="oats", quantity=1, unit="g"
        ),
    }
    people = {
        "athlete": athlete,
        "coach": coach,
        "other_coach": other_coach,
        "member": member,
        "non_member": non_member,
        "staff": staff,
        "superuser": superuser,
        "anonymous": AnonymousUser(),
    }
    return {"people": people, "objects": objects}
