"""Joining a household is the joiner's own act (issue 18 item 1): a member invites, the invited
person accepts or declines; a member can always leave; the last member joining elsewhere takes
everything along; a known and an unknown username get the same answer."""

import pytest

from journal import services as journal
from nutrition import households, services
from nutrition.access import household_for, readable_households
from nutrition.models import (
    GroceryList,
    Household,
    HouseholdInvitation,
    HouseholdMember,
    PlannedMeal,
    Recipe,
)
from tests.factories import CoachFactory, ProgramFactory, UserFactory
from tests.nutrition.helpers import apply, call, first_member, join, kitchen

pytestmark = pytest.mark.django_db

PAGE = "/food/household/"


def post(client, user, **data):
    client.force_login(user)
    return client.post(PAGE, data)


def said(client, user, **data) -> tuple[int, list[str]]:
    """Post as ``user``, follow the redirect: the first status and the messages the page shows."""
    client.force_login(user)
    response = client.post(PAGE, data, follow=True)
    first = response.redirect_chain[0][1] if response.redirect_chain else response.status_code
    return first, [str(m) for m in response.context["messages"]]


def invitation_for(person) -> HouseholdInvitation:
    return HouseholdInvitation.objects.get(invited=person, status="pending")


@pytest.fixture
def alice():
    """Alice's household: two recipes and the list "Groceries"."""
    alice = UserFactory(username="alice")
    kitchen(alice)
    return alice


def test_inviting_adds_nobody_until_the_invited_person_accepts(client, alice):
    victim = UserFactory(username="victim")
    response = post(client, alice, action="invite", username="victim")
    assert response.status_code == 302
    assert household_for(victim) is None
    assert not HouseholdMember.objects.filter(user=victim).exists()
    client.force_login(victim)
    recipe = Recipe.objects.filter(household=household_for(alice)).first()
    assert client.get(f"/food/recipes/{recipe.pk}/").status_code == 404  # not before accepting
    page = client.get(PAGE).content.decode()
    assert "<strong>alice</strong> invites you" in page and "alice&#x27;s household" in page
    invitation = invitation_for(victim)
    assert post(client, victim, action="accept", invitation=invitation.pk).status_code == 302
    assert household_for(victim) == household_for(alice)
    invitation.refresh_from_db()
    assert invitation.status == "accepted" and invitation.decided_at is not None
    client.force_login(alice)
    assert "victim" in client.get(PAGE).content.decode()


def test_a_known_and_an_unknown_username_get_the_same_answer(client, alice):
    UserFactory(username="known1")
    known = said(client, alice, action="invite", username="known1")
    unknown = said(client, alice, action="invite", username="ghost1")
    assert known[0] == unknown[0] == 302
    assert [m.replace("known1", "NAME") for m in known[1]] == [
        m.replace("ghost1", "NAME") for m in unknown[1]
    ]
    assert len(known[1]) == 1
    assert HouseholdInvitation.objects.filter(username__in=["known1", "ghost1"]).count() == 2


def test_the_invited_person_declines_and_nothing_changes(client, alice):
    bob = UserFactory(username="bob")
    bobs_home, *_ = kitchen(bob)
    households.invite(by=alice, username="bob")
    invitation = invitation_for(bob)
    assert post(client, bob, action="decline", invitation=invitation.pk).status_code == 302
    invitation.refresh_from_db()
    assert invitation.status == "declined"
    assert household_for(bob) == bobs_home and household_for(alice).members.count() == 1
    again = post(client, bob, action="accept", invitation=invitation.pk)
    assert again.status_code == 404 and household_for(bob) == bobs_home


def test_only_the_invited_person_answers_an_invitation(client, alice):
    bob, mallory = UserFactory(username="bob"), UserFactory()
    households.invite(by=alice, username="bob")
    invitation = invitation_for(bob)
    for intruder in (mallory, alice):
        for action in ("accept", "decline"):
            response = post(client, intruder, action=action, invitation=invitation.pk)
            assert response.status_code == 404
    invitation.refresh_from_db()
    assert invitation.status == "pending" and household_for(mallory) is None
    assert households.pending_for(mallory) == []


def test_re_inviting_is_idempotent_and_a_member_is_not_invited(alice):
    bob = UserFactory(username="bob")
    first = households.invite(by=alice, username="bob")
    assert households.invite(by=alice, username=" bob ") == first
    assert HouseholdInvitation.objects.filter(username="bob").count() == 1
    households.invite(by=alice, username="alice")
    assert not HouseholdInvitation.objects.filter(username="alice").exists()
    assert households.pending_for(bob)[0].invited_by == alice


def test_someone_in_another_household_moves_only_when_they_accept(client, alice):
    carol, dave = UserFactory(username="carol"), UserFactory(username="dave")
    shared, *_ = kitchen(dave)
    join(carol, shared)
    households.invite(by=alice, username="carol")
    assert household_for(carol) == shared
    post(client, carol, action="accept", invitation=invitation_for(carol).pk)
    assert household_for(carol) == household_for(alice)
    assert household_for(dave) == shared and Recipe.objects.filter(household=shared).count() == 2


def test_a_member_can_always_leave_and_the_data_stays_with_the_others(client, alice):
    bob = UserFactory(username="bob")
    home = household_for(alice)
    join(bob, home)
    status, shown = said(client, bob, action="leave")
    assert status == 302 and shown[0].startswith("You left alice's household")
    assert household_for(bob) is None
    assert list(home.members.values_list("user__username", flat=True)) == ["alice"]
    assert Recipe.objects.filter(household=home).count() == 2
    status, shown = said(client, alice, action="leave")
    assert status == 302 and "only member" in shown[0]
    assert household_for(alice) == home and Recipe.objects.filter(household=home).count() == 2


def test_the_last_member_joining_elsewhere_takes_everything_along(client, alice):
    bob = UserFactory(username="bob")
    bobs_home, bowl, _, groceries = kitchen(bob)
    made = apply(bob, call("grocery_create_list", name="Party"))
    apply(bob, call("planner_add_meal", recipe_id=bowl.pk, date="2026-11-24", meal_type="lunch"))
    gone = services.recipe_create(
        household=bobs_home,
        title="Gone",
        ingredients=[{"ingredient": "rice", "quantity": 1, "unit": "cup"}],
    )
    services.soft_delete(gone)
    households.invite(by=alice, username="bob")
    post(client, bob, action="accept", invitation=invitation_for(bob).pk)
    home = household_for(alice)
    assert household_for(bob) == home
    assert not Household.objects.filter(pk=bobs_home.pk).exists()
    assert Recipe.objects.filter(household=home).count() == 4  # two each
    assert Recipe.all_objects.get(pk=gone.pk).household == home
    assert PlannedMeal.objects.get().household == home
    names = sorted(GroceryList.objects.filter(household=home).values_list("name", flat=True))
    assert names == ["Groceries", "Groceries (bob's household)", "Party"]
    assert GroceryList.objects.get(pk=groceries.pk).name == "Groceries (bob's household)"
    journal.undo(made.change_set_id, bob)  # bob's earlier changes still undo after the move
    assert not GroceryList.objects.filter(name="Party").exists()


def test_the_daily_limit_counts_every_name_and_says_what_to_do(client, alice, settings):
    settings.HOUSEHOLD_INVITATIONS_PER_DAY = 2
    UserFactory(username="bob")
    post(client, alice, action="invite", username="ghost1")
    post(client, alice, action="invite", username="ghost2")
    refused = post(client, alice, action="invite", username="bob")
    assert refused.status_code == 422
    body = refused.content.decode()
    assert "2 invitations in the last 24 hours" in body and "invite again tomorrow" in body
    assert 'value="bob"' in body  # the typed name stays in the box
    assert not HouseholdInvitation.objects.filter(username="bob").exists()
    assert post(client, alice, action="invite", username="ghost1").status_code == 302  # a re-invite


def test_an_empty_name_is_refused_in_words_and_changes_nothing(client, alice):
    response = post(client, alice, action="invite", username="   ")
    assert response.status_code == 422
    assert "Type the username" in response.content.decode()
    assert not HouseholdInvitation.objects.exists()


def test_a_coach_reads_a_members_household_but_acts_only_for_themselves(client, alice):
    bob, coach = UserFactory(username="bob"), CoachFactory()
    ProgramFactory(athlete=bob, coach=coach)
    home = household_for(alice)
    assert home not in readable_households(coach)
    join(bob, home)
    assert home in readable_households(coach)
    client.force_login(coach)
    page = client.get(f"{PAGE}?household={home.pk}")
    assert page.status_code == 200 and "Invite by username" not in page.content.decode()
    client.post(f"{PAGE}?household={home.pk}", {"action": "invite", "username": "victim"})
    assert not home.invitations.filter(username="victim").exists()
    assert first_member(home) == alice
