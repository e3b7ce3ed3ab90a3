"""Nobody reaches another coach's athletes through the inbox (issue 21): every new URL and the bulk
action, tried as the coach, another coach, a staff reader, the athlete and anonymous, with crafted
ids. Someone else's object is a 404; a staff reader reads and decides nothing (403); every POST
needs the CSRF token."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from chat.models import Message, PendingToolBatch
from inbox import reviews

pytestmark = pytest.mark.django_db

Status = PendingToolBatch.BatchStatus
CRAFTED = ["0", "99999999", "9223372036854775807"]


def test_another_coach_sees_none_of_the_reviews(client, other_coach, waiting):
    client.force_login(other_coach)
    html = client.get(reverse("inbox:reviews")).content.decode()
    assert f'id="review-{waiting.pk}"' not in html and "Nothing is waiting" in html
    assert reviews.waiting(other_coach) == []


def test_another_coachs_decision_is_a_404_and_changes_nothing(client, other_coach, waiting):
    client.force_login(other_coach)
    for action in ("approve", "decline", "edit_approve"):
        response = client.post(
            reverse("inbox:decide", args=[waiting.pk]), {"action": action, "note": "x"}
        )
        assert response.status_code == 404
    waiting.refresh_from_db()
    assert waiting.status == Status.AWAITING_REVIEW


def test_crafted_ids_are_404s(client, coach, waiting):
    client.force_login(coach)
    for raw in CRAFTED:
        assert client.post(f"/admin/inbox/reviews/{raw}/", {"action": "approve"}).status_code == 404
        assert client.get(f"/admin/inbox/athletes/{raw}/").status_code == 404
    # past a 64-bit key no route matches
    assert client.get("/admin/inbox/athletes/99999999999999999999/").status_code == 404


def test_another_coachs_bulk_touches_nothing(client, other_coach, waiting):
    client.force_login(other_coach)
    client.post(reverse("inbox:bulk"), {"batch": [waiting.pk], "action": "approve"})
    waiting.refresh_from_db()
    assert waiting.status == Status.AWAITING_REVIEW


def test_staff_read_the_reviews_and_decide_nothing(client, staff, waiting):
    client.force_login(staff)
    html = client.get(reverse("inbox:reviews")).content.decode()
    assert f'id="review-{waiting.pk}"' in html and "Read only" in html
    assert 'name="action"' not in html
    decide = client.post(reverse("inbox:decide", args=[waiting.pk]), {"action": "approve"})
    assert decide.status_code == 403
    bulk = client.post(reverse("inbox:bulk"), {"batch": [waiting.pk], "action": "approve"})
    assert bulk.status_code == 403
    waiting.refresh_from_db()
    assert waiting.status == Status.AWAITING_REVIEW


def test_staff_read_a_thread_and_write_nothing(client, staff, coach, conversation):
    client.force_login(staff)
    url = reverse("inbox:compose", args=[conversation.athlete_id])
    html = client.get(url).content.decode()
    assert "Read only" in html and 'id="compose"' not in html
    assert client.post(url, {"text": "hi"}).status_code == 403
    assert not Message.objects.filter(role=Message.Role.COACH).exists()


def test_another_coach_cannot_open_or_write_to_the_athlete(client, other_coach, conversation):
    client.force_login(other_coach)
    url = reverse("inbox:compose", args=[conversation.athlete_id])
    assert client.get(url).status_code == 404
    assert client.post(url, {"text": "hi"}).status_code == 404
    assert not Message.objects.filter(role=Message.Role.COACH).exists()


def test_another_coachs_replies_are_not_listed(client, coach, other_coach, conversation):
    client.force_login(coach)
    client.post(reverse("inbox:compose", args=[conversation.athlete_id]), {"text": "hi"})
    Message.objects.create(conversation=conversation, role=Message.Role.USER, content="secret")
    client.force_login(other_coach)
    html = client.get(reverse("inbox:messages")).content.decode()
    assert "secret" not in html and "alex" not in html


@pytest.mark.parametrize(
    "name,args",
    [
        ("inbox:reviews", []),
        ("inbox:messages", []),
        ("inbox:compose", ["ATHLETE"]),
    ],
)
def test_athletes_and_anonymous_never_reach_the_admin_pages(
    client, athlete, conversation, name, args
):
    url = reverse(name, args=[conversation.athlete_id if a == "ATHLETE" else a for a in args])
    assert client.get(url).status_code == 302  # to the admin's login
    client.force_login(athlete)
    response = client.get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_athletes_post_to_the_admin_pages_does_nothing(client, athlete, waiting):
    client.force_login(athlete)
    client.post(reverse("inbox:decide", args=[waiting.pk]), {"action": "approve"})
    client.post(reverse("inbox:bulk"), {"batch": [waiting.pk], "action": "approve"})
    waiting.refresh_from_db()
    assert waiting.status == Status.AWAITING_REVIEW


def test_every_post_needs_the_csrf_token(coach, waiting, conversation):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(coach)
    posts = [
        (reverse("inbox:decide", args=[waiting.pk]), {"action": "approve"}),
        (reverse("inbox:bulk"), {"batch": [waiting.pk], "action": "approve"}),
        (reverse("inbox:compose", args=[conversation.athlete_id]), {"text": "hi"}),
        (reverse("inbox:settings"), {"coach_updates": "on"}),
    ]
    for url, data in posts:
        assert strict.post(url, data).status_code == 403
    waiting.refresh_from_db()
    assert waiting.status == Status.AWAITING_REVIEW
    assert not Message.objects.filter(role=Message.Role.COACH).exists()


def test_the_badge_and_settings_need_a_sign_in(client):
    assert client.get(reverse("inbox:badge")).status_code == 302
    assert client.get(reverse("inbox:settings")).status_code == 302
