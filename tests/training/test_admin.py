import pytest
from django.contrib.auth.models import Group

from tests.factories import ActivityFactory as make_activity
from tests.factories import CoachFactory, ProgramFactory, UserFactory
from training.models import Activity, AthleteProfile

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    coach = CoachFactory()
    mine = ProgramFactory(coach=coach).athlete
    other = ProgramFactory().athlete
    return coach, make_activity(athlete=mine), make_activity(athlete=other)


def test_a_coach_lists_only_their_athletes_activities(client, setup):
    coach, mine, _other = setup
    client.force_login(coach)
    page = client.get("/admin/training/activity/")
    assert page.status_code == 200
    assert list(page.context["cl"].queryset) == [mine]


def test_another_coachs_athlete_activity_answers_not_found(client, setup):
    coach, _, other = setup
    client.force_login(coach)
    response = client.get(f"/admin/training/activity/{other.pk}/change/")
    # Django's admin sends an object outside the queryset back to the index ("doesn't exist")
    assert response.status_code == 302 and response.url == "/admin/"
    assert other.name not in client.get("/admin/training/activity/").content.decode()


def test_a_coach_can_edit_their_athletes_profile(client, setup):
    coach, mine, _ = setup
    profile = AthleteProfile.objects.create(athlete=mine.athlete)
    client.force_login(coach)
    response = client.post(
        f"/admin/training/athleteprofile/{profile.pk}/change/",
        {
            "threshold_hr": "168",
            "weight_unit": "kg",
            "distance_unit": "km",
            "time_zone": "UTC",
            "ctl_days": "42",
            "atl_days": "7",
        },
    )
    assert response.status_code == 302
    profile.refresh_from_db()
    assert profile.threshold_hr == 168


def test_staff_read_everything_and_change_nothing(client, setup):
    _, mine, other = setup
    reader = UserFactory(is_staff=True)
    reader.groups.add(Group.objects.get_or_create(name="Staff")[0])
    client.force_login(reader)
    page = client.get("/admin/training/activity/")
    assert set(page.context["cl"].queryset) == {mine, other}
    response = client.post(f"/admin/training/activity/{other.pk}/change/", {"name": "hacked"})
    assert response.status_code == 403
    assert Activity.objects.get(pk=other.pk).name != "hacked"
