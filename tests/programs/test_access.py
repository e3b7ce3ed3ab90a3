"""One rule for who may reach a program (``access.policy``, from the relations ``programs.access``
declares): athlete own, coach their athletes', staff read all."""

import pytest
from django.contrib.auth.models import AnonymousUser

from access.policy import ACT, may_act, may_read, visible
from programs.admin import ensure_staff_group
from programs.models import Exercise, Program
from tests.factories import CoachFactory, ProgramFactory, UserFactory, build_program

pytestmark = pytest.mark.django_db


def programs_visible_to(user):
    return visible(Program.objects.all(), user)


def programs_editable_by(user):
    return visible(Program.objects.all(), user, action=ACT)


@pytest.fixture
def world():
    coach, other_coach = CoachFactory(username="c1"), CoachFactory(username="c2")
    athlete, other_athlete = UserFactory(username="a1"), UserFactory(username="a2")
    staff = UserFactory(username="s1", is_staff=True)
    staff.groups.add(ensure_staff_group())
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    mine = ProgramFactory(athlete=athlete, coach=coach)
    theirs = ProgramFactory(athlete=other_athlete, coach=other_coach)
    return locals()


@pytest.mark.parametrize(
    ("user", "visible", "editable"),
    [
        ("athlete", {"mine"}, {"mine"}),
        ("other_athlete", {"theirs"}, {"theirs"}),
        ("coach", {"mine"}, {"mine"}),
        ("other_coach", {"theirs"}, {"theirs"}),
        ("staff", {"mine", "theirs"}, set()),
        ("root", {"mine", "theirs"}, {"mine", "theirs"}),
    ],
)
def test_each_role_reaches_exactly_its_programs(world, user, visible, editable):
    who = world[user]
    programs = {"mine": world["mine"], "theirs": world["theirs"]}
    assert {n for n, p in programs.items() if may_read(who, p)} == visible
    assert {n for n, p in programs.items() if may_act(who, p)} == editable
    assert set(programs_visible_to(who)) == {programs[n] for n in visible}
    assert set(programs_editable_by(who)) == {programs[n] for n in editable}


def test_anonymous_reaches_nothing(world):
    anonymous = AnonymousUser()
    assert not may_read(anonymous, world["mine"])
    assert not may_act(anonymous, world["mine"])
    assert not programs_visible_to(anonymous).exists()


def test_a_reassigned_program_leaves_its_former_athlete(world):
    program = world["mine"]
    program.athlete = world["other_athlete"]
    program.save()
    assert not may_read(world["athlete"], program)
    assert program not in programs_visible_to(world["athlete"])


def test_scope_queryset_follows_the_path_to_the_program(world):
    coach = world["coach"]
    own = build_program(weeks=1, sessions=1, exercises=2, coach=coach)
    build_program(weeks=1, sessions=1, exercises=2, coach=world["other_coach"])
    scoped = visible(Exercise.objects.all(), coach, lookup="session__week__program")
    assert set(scoped) == set(Exercise.objects.filter(session__week__program=own))
