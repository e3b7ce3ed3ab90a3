"""The one access policy, as a table: each relation (the athlete, their coach, another coach, a
household member, a non-member, staff, a superuser, anonymous) × each action (read, act,
review, own) on a representative object of every family, and the queryset scope agrees with
the answer for one object."""

from __future__ import annotations

import pytest

from access import policy
from access.policy import ACT, OWN, READ, REVIEW
from tests.factories import CoachFactory, ProgramFactory, UserFactory

from .conftest import PEOPLE

pytestmark = pytest.mark.django_db

# The path from each object's model to its owner, for the queryset scope.
LOOKUPS = {
    "program": "",
    "exercise": "session__week__program",
    "conversation": "program",
    "activity": "athlete",
    "mood": "athlete",
    "workout": "owner",
    "household": "",
    "recipe": "household",
    "item": "grocery_list__household",
}

# Who may do what: R read, A act, V review, O own (the person whose data it is).
ATHLETE_DATA = {
    "athlete": "RAO",
    "coach": "RAV",
    "other_coach": "",
    "member": "",
    "non_member": "",
    "staff": "R",
    "superuser": "RAV",
    "anonymous": "",
}
COACH_READS = ATHLETE_DATA | {"coach": "RV"}  # a workout: its owner's coach only reads it
HOUSEHOLD = COACH_READS | {"member": "RAO"}  # a household is its members'; the coach reads it
EXPECTED = {
    "program": ATHLETE_DATA,
    "exercise": ATHLETE_DATA,
    "conversation": ATHLETE_DATA,
    "activity": ATHLETE_DATA,
    "mood": ATHLETE_DATA,
    "workout": COACH_READS,
    "household": HOUSEHOLD,
    "recipe": HOUSEHOLD,
    "item": HOUSEHOLD,
}
ACTIONS = {"R": READ, "A": ACT, "V": REVIEW, "O": OWN}
CASES = [(obj, who) for obj in EXPECTED for who in PEOPLE]


@pytest.mark.parametrize(("obj", "who"), CASES)
def test_the_policy_answers_each_relation_and_action(world, obj, who):
    user, target = world["people"][who], world["objects"][obj]
    answers = {letter for letter, action in ACTIONS.items() if policy.allows(user, target, action)}
    assert answers == set(EXPECTED[obj][who])


@pytest.mark.parametrize(("obj", "who"), CASES)
def test_the_queryset_scope_gives_the_same_rule(world, obj, who):
    user, target = world["people"][who], world["objects"][obj]
    rows = type(target)._default_manager.all()
    answers = {
        letter
        for letter, action in ACTIONS.items()
        if policy.visible(rows, user, lookup=LOOKUPS[obj], action=action).filter(pk=target.pk)
    }
    assert answers == set(EXPECTED[obj][who])


def test_the_shortcuts_are_the_table(world):
    athlete, coach = world["people"]["athlete"], world["people"]["coach"]
    program = world["objects"]["program"]
    assert policy.may_read(coach, program) and policy.may_act(coach, program)
    assert policy.may_review(coach, program) and not policy.may_review(athlete, program)
    assert policy.owns(athlete, program) and not policy.owns(coach, program)


def test_an_inactive_user_reaches_nothing(world):
    athlete = world["people"]["athlete"]
    athlete.is_active = False
    program = world["objects"]["program"]
    assert not any(policy.allows(athlete, program, action) for action in ACTIONS.values())
    assert policy.scope(athlete, type(program)) == policy.NOTHING


def test_a_coach_reaches_the_athlete_through_any_of_their_programs(world):
    """A coach who coaches one program of an athlete reads the athlete's other data; the coach of
    an earlier program too (the relation comes from ``programs``' declaration)."""
    other_coach, athlete = world["people"]["other_coach"], world["people"]["athlete"]
    activity = world["objects"]["activity"]
    assert not policy.may_read(other_coach, activity)
    ProgramFactory(name="Earlier", athlete=athlete, coach=other_coach)
    assert policy.may_read(other_coach, activity)
    assert set(policy.coaches_of(athlete).values_list("coach_id", flat=True)) == {
        world["people"]["coach"].pk,
        other_coach.pk,
    }


def test_an_unknown_action_is_refused(world):
    with pytest.raises(ValueError, match="Unknown action"):
        policy.allows(world["people"]["athlete"], world["objects"]["program"], "delete")


def test_an_owner_no_family_declared_is_named(world):
    group = world["people"]["staff"].groups.get()
    with pytest.raises(LookupError, match=r"auth\.Group"):
        policy.may_read(world["people"]["athlete"], group)


# --- declarations as data -----------------------------------------------------------------------


def test_a_program_s_people_and_coach_are_read_from_its_own_row(db):
    """The programs family declares fields of the program's row (no callables): the policy reads
    the athlete and the coach there, asking the family nothing when it checks one program."""
    kind = policy.owner_kind(ProgramFactory._meta.model)
    assert kind.people is None and kind.coaches is None
    athlete, coach = UserFactory(), CoachFactory()
    program = ProgramFactory(athlete=athlete, coach=coach)
    assert kind.people_of(program) == {athlete.pk}
    assert kind.coaches_of(program) == {coach.pk}
    assert policy.allows(athlete, program, OWN) and policy.allows(coach, program, REVIEW)


def test_an_owner_whose_people_cross_a_relation_must_say_who_they_are():
    with pytest.raises(ValueError, match="declare people"):
        policy.Owner(model="nutrition.Household", people_lookup="members__user", many=True)
    with pytest.raises(ValueError, match="coaches_lookup"):
        policy.Owner(model="programs.Program", people_lookup="athlete", coaches=lambda p: set())
