import json

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from library.models import LibraryWorkout
from tests.factories import LibraryWorkoutFactory, UserFactory

TEMPLATE = {"exercises": [{"name": "Back Squat", "sets": 5, "reps": "5", "load": "80% 1RM"}]}


def _form(**overrides):
    data = {
        "title": "Squat Volume",
        "sport": "strength",
        "duration_minutes": "55",
        "intensity": "hard",
        "tags_text": "Legs, squat, legs",
        "description": "Five by five.",
        "template": json.dumps(TEMPLATE),
    }
    return data | overrides


@pytest.fixture
def coach_client(client, team):
    client.force_login(team["coach"])
    return client


def test_a_coach_adds_a_shared_workout_their_athletes_see(coach_client, team):
    response = coach_client.post(reverse("admin:library_libraryworkout_add"), _form())
    assert response.status_code == 302, response.content.decode()[:2000]
    workout = LibraryWorkout.objects.get(title="Squat Volume")
    assert (workout.owner, workout.scope, workout.tags) == (
        team["coach"],
        "shared",
        ["legs", "squat"],
    )
    assert workout.template["exercises"][0]["rest_seconds"] == 120


def test_a_bad_template_is_refused_with_the_field_and_bound(coach_client):
    bad = {"exercises": [{"name": "Row", "sets": 80, "reps": "5", "load": "x"}]}
    response = coach_client.post(
        reverse("admin:library_libraryworkout_add"), _form(template=json.dumps(bad))
    )
    assert response.status_code == 200
    assert "template.exercises.1.sets: Input should be less than or equal to 50" in (
        response.content.decode()
    )
    assert not LibraryWorkout.objects.exists()


def test_a_coach_edits_their_own_and_cannot_reach_another_coachs(coach_client, team):
    own = LibraryWorkoutFactory(owner=team["coach"], scope="shared", title="Old Title")
    other = LibraryWorkoutFactory(owner=team["other_coach"], scope="shared", title="Not Yours")
    url = reverse("admin:library_libraryworkout_change", args=[own.pk])
    response = coach_client.post(url, _form(title="New Title"))
    assert response.status_code == 302
    own.refresh_from_db()
    assert own.title == "New Title"
    listing = coach_client.get(reverse("admin:library_libraryworkout_changelist")).content.decode()
    assert "New Title" in listing and "Not Yours" not in listing
    other_url = reverse("admin:library_libraryworkout_change", args=[other.pk])
    assert coach_client.get(other_url).status_code == 302  # the admin's "doesn't exist" redirect
    coach_client.post(other_url, _form(title="Hijacked"))
    other.refresh_from_db()
    assert other.title == "Not Yours"


def test_deleting_in_the_admin_is_soft(coach_client, team):
    own = LibraryWorkoutFactory(owner=team["coach"], scope="shared")
    url = reverse("admin:library_libraryworkout_delete", args=[own.pk])
    assert coach_client.post(url, {"post": "yes"}).status_code == 302
    assert not LibraryWorkout.objects.filter(pk=own.pk).exists()
    assert LibraryWorkout.all_objects.get(pk=own.pk).deleted_at is not None


def test_staff_group_reads_every_workout_and_changes_none(client, team):
    staff = UserFactory(is_staff=True)
    staff.groups.add(Group.objects.create(name="Staff"))
    client.force_login(staff)
    workout = LibraryWorkoutFactory(owner=team["athlete"], title="Athlete's Own")
    listing = client.get(reverse("admin:library_libraryworkout_changelist")).content.decode()
    assert "Athlete&#x27;s Own" in listing
    url = reverse("admin:library_libraryworkout_change", args=[workout.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="title"' not in page.content.decode()
    assert client.post(url, _form(title="Changed")).status_code == 403
    assert client.get(reverse("admin:library_libraryworkout_add")).status_code == 403
    workout.refresh_from_db()
    assert workout.title == "Athlete's Own"


def test_athletes_have_no_admin(client, team):
    client.force_login(team["athlete"])
    response = client.get(reverse("admin:library_libraryworkout_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
