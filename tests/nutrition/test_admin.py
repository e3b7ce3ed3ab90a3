"""The nutrition admin: a coach reads only the households of athletes they coach (another's rows
answer 404), staff read all, nobody changes anything, athletes can't open it."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from access.policy import STAFF_GROUP
from nutrition import households
from tests.factories import CoachFactory, ProgramFactory, UserFactory
from tests.nutrition.helpers import first_member, kitchen

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_homes():
    mine, theirs = UserFactory(), UserFactory()
    coach = CoachFactory()
    ProgramFactory(athlete=mine, coach=coach)
    return coach, kitchen(mine), kitchen(theirs)


def change_url(obj):
    return reverse(f"admin:nutrition_{obj._meta.model_name}_change", args=[obj.pk])


def test_a_coach_reads_their_athletes_household_only(client, two_homes):
    coach, (home, bowl, _, groceries), (other, other_bowl, _, other_list) = two_homes
    client.force_login(coach)
    listing = client.get(reverse("admin:nutrition_recipe_changelist")).content.decode()
    assert listing.count(">Rice bowl<") == 1  # both households have one; the coach sees theirs
    for obj in (home, bowl, groceries):
        page = client.get(change_url(obj))
        assert page.status_code == 200
        assert b'name="_save"' not in page.content  # read-only
    for obj in (other, other_bowl, other_list):
        assert client.get(change_url(obj)).status_code in (302, 404)


def test_staff_read_everything_and_athletes_cannot_open_it(client, two_homes):
    _, (home, _, _, _), (other, _, _, _) = two_homes
    reader = CoachFactory()
    reader.groups.add(Group.objects.get_or_create(name=STAFF_GROUP)[0])
    client.force_login(reader)
    for obj in (home, other):
        assert client.get(change_url(obj)).status_code == 200
    client.force_login(first_member(home))
    assert client.get(reverse("admin:nutrition_recipe_changelist")).status_code == 302


def test_the_household_page_lists_members_and_only_staff_see_its_invitations(client, two_homes):
    coach, (home, _, _, _), _ = two_homes
    households.invite(by=first_member(home), username="someone-else")
    client.force_login(coach)
    page = client.get(change_url(home)).content.decode()
    assert first_member(home).get_username() in page and "someone-else" not in page
    reader = CoachFactory()
    reader.groups.add(Group.objects.get_or_create(name=STAFF_GROUP)[0])
    client.force_login(reader)
    assert "someone-else" in client.get(change_url(home)).content.decode()
