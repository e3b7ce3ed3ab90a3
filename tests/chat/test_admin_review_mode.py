"""Coach review mode in the admin: the athlete's coach switches it, only for athletes they coach;
staff read it; another coach and the athlete reach nothing."""

import pytest
from django.urls import reverse

from chat.models import CoachReview
from tests.chat.admin_helpers import logged_in
from tests.factories import UserFactory, build_program

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:chat_coachreview_changelist"
ADD = "admin:chat_coachreview_add"


def change_url(review) -> str:
    return reverse("admin:chat_coachreview_change", args=[review.pk])


def listed(client) -> set[int]:
    response = client.get(reverse(CHANGELIST))
    assert response.status_code == 200
    return {r.pk for r in response.context["cl"].result_list}


@pytest.fixture
def review(coached_conversation, athlete_user):
    return CoachReview.objects.create(athlete=athlete_user, enabled=False)


@pytest.fixture
def other_review(other_conversation):
    return CoachReview.objects.create(athlete=other_conversation.athlete, enabled=True)


def test_the_coach_switches_review_mode_on_for_their_athlete(client, coach_user, review):
    response = logged_in(client, coach_user).post(change_url(review), {"enabled": "on"})
    assert response.status_code == 302
    review.refresh_from_db()
    assert review.enabled is True


def test_the_coach_adds_review_mode_choosing_only_among_their_athletes(
    client, coach_user, coached_conversation, other_conversation
):
    logged_in(client, coach_user)
    form = client.get(reverse(ADD)).context["adminform"].form
    assert list(form.fields["athlete"].queryset) == [coached_conversation.athlete]
    response = client.post(
        reverse(ADD), {"athlete": other_conversation.athlete_id, "enabled": "on"}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not CoachReview.objects.exists()
    response = client.post(
        reverse(ADD), {"athlete": coached_conversation.athlete_id, "enabled": "on"}
    )
    assert response.status_code == 302
    assert CoachReview.objects.get().athlete == coached_conversation.athlete


def test_the_coach_lists_only_their_athletes(client, coach_user, review, other_review):
    assert listed(logged_in(client, coach_user)) == {review.pk}


def test_another_coach_can_neither_see_nor_switch_it(
    client, other_coach_user, other_conversation, review
):
    logged_in(client, other_coach_user)
    assert review.pk not in listed(client)
    response = client.post(change_url(review), {"enabled": "on"})
    assert response.status_code == 302  # "doesn't exist": back to the index
    review.refresh_from_db()
    assert review.enabled is False


def test_staff_read_every_athletes_review_mode_and_change_none(
    client, staff_user, review, other_review
):
    logged_in(client, staff_user)
    assert listed(client) == {review.pk, other_review.pk}
    assert client.get(change_url(review)).status_code == 200
    assert client.post(change_url(review), {"enabled": "on"}).status_code == 403
    assert client.get(reverse(ADD)).status_code == 403
    review.refresh_from_db()
    assert review.enabled is False


def test_the_athlete_is_sent_to_the_login(client, athlete_user, review):
    logged_in(client, athlete_user)
    for url in (reverse(CHANGELIST), change_url(review), reverse(ADD)):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


def test_nobody_deletes_a_review_mode_row(client, superuser_user, review):
    logged_in(client, superuser_user)
    url = reverse("admin:chat_coachreview_delete", args=[review.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert CoachReview.objects.filter(pk=review.pk).exists()


def test_the_switch_actions_touch_only_the_coachs_athletes(
    client, coach_user, review, other_review
):
    # A coach who also trains under another coach sees their own row but may not switch it.
    own = CoachReview.objects.create(athlete=coach_user, enabled=True)
    build_program(weeks=1, sessions=1, exercises=1, athlete=coach_user, coach=UserFactory())
    logged_in(client, coach_user)
    assert listed(client) == {review.pk, own.pk}
    response = client.post(
        reverse(CHANGELIST),
        {"action": "switch_off", "_selected_action": [review.pk, own.pk, other_review.pk]},
        follow=True,
    )
    assert "Coach review switched off for 0 athlete(s)." in response.content.decode()
    review.refresh_from_db(), own.refresh_from_db(), other_review.refresh_from_db()
    assert (review.enabled, own.enabled, other_review.enabled) == (False, True, True)
    response = client.post(
        reverse(CHANGELIST),
        {"action": "switch_on", "_selected_action": [review.pk, own.pk]},
        follow=True,
    )
    html = response.content.decode()
    assert "Coach review switched on for 1 athlete(s). 1 not switched: you don" in html
    review.refresh_from_db(), own.refresh_from_db()
    assert (review.enabled, own.enabled) == (True, True)
