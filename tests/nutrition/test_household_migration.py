"""The migration to consent-based households (issue 18 item 1): a membership the owner made
alone becomes a pending invitation the person may accept, every owner is a member of their own
household, and no recipe is lost."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("nutrition", "0002_known_ingredients")]
AFTER = [("nutrition", "0003_household_invitations")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_forced_memberships_become_pending_invitations_and_owners_members():
    old = migrate(BEFORE)
    try:
        User = old.get_model("auth", "User")
        Household = old.get_model("nutrition", "Household")
        Member = old.get_model("nutrition", "HouseholdMember")
        Recipe = old.get_model("nutrition", "Recipe")
        owner = User.objects.create(username="owner")
        victim = User.objects.create(username="victim")
        home = Household.objects.create(owner=owner, name="owner's household")
        victims_home = Household.objects.create(owner=victim, name="victim's household")
        Member.objects.create(household=home, user=victim)  # added without being asked
        Recipe.objects.create(household=victims_home, title="Soup", ingredients=[])
        new = migrate(AFTER)
        Member = new.get_model("nutrition", "HouseholdMember")
        Invitation = new.get_model("nutrition", "HouseholdInvitation")
        Recipe = new.get_model("nutrition", "Recipe")
        members = {(m.household_id, m.user_id) for m in Member.objects.all()}
        assert members == {(home.pk, owner.pk), (victims_home.pk, victim.pk)}
        invitation = Invitation.objects.get()
        assert (invitation.household_id, invitation.invited_id, invitation.status) == (
            home.pk,
            victim.pk,
            "pending",
        )
        assert invitation.username == "victim" and invitation.invited_by_id == owner.pk
        assert Recipe.objects.get().household_id == victims_home.pk
    finally:
        latest = migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        for model in ("HouseholdInvitation", "HouseholdMember", "Recipe", "Household"):
            latest.get_model("nutrition", model).objects.all().delete()
        latest.get_model("auth", "User").objects.filter(username__in=["owner", "victim"]).delete()
