"""Every chat admin URL, tried as staff, the athlete's coach, another coach and the athlete.

Staff read everything and change nothing; the coach reads and decides for their athlete; another
coach gets nothing of it (an empty list, "doesn't exist" or 404); the athlete never gets past the
admin login."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from chat import proposals
from chat.models import BatchDecision, CoachReview, Message
from programs.demo import seed_demo
from tests.chat.admin_helpers import RENAME, logged_in, propose, record

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"


@pytest.fixture
def world(coached_conversation, athlete_user):
    """An applied batch, its decision and audit record, a message and a review-mode row."""
    batch = propose(coached_conversation, RENAME)
    proposals.apply(batch_id=batch.pk, user=athlete_user, revision=batch.revision)
    return {
        "conversation": coached_conversation,
        "batch": batch,
        "decision": BatchDecision.objects.get(batch=batch, kind="applied"),
        "record": batch.tool_call_records.get(),
        "message": Message.objects.filter(conversation=coached_conversation).first(),
        "review": CoachReview.objects.create(athlete=athlete_user, enabled=False),
    }


def read_urls(world) -> dict[str, str]:
    return {
        "toolcallrecord list": reverse("admin:chat_toolcallrecord_changelist"),
        "toolcallrecord page": reverse(
            "admin:chat_toolcallrecord_change", args=[world["record"].pk]
        ),
        "export": reverse("admin:chat_toolcallrecord_export"),
        "conversation list": reverse("admin:chat_conversation_changelist"),
        "conversation page": reverse(
            "admin:chat_conversation_change", args=[world["conversation"].pk]
        ),
        "timeline": reverse("admin:chat_conversation_timeline", args=[world["conversation"].pk]),
        "message list": reverse("admin:chat_message_changelist"),
        "message page": reverse("admin:chat_message_change", args=[world["message"].pk]),
        "batch list": reverse("admin:chat_pendingtoolbatch_changelist"),
        "batch page": reverse("admin:chat_pendingtoolbatch_change", args=[world["batch"].pk]),
        "decision list": reverse("admin:chat_batchdecision_changelist"),
        "decision page": reverse("admin:chat_batchdecision_change", args=[world["decision"].pk]),
        "review mode list": reverse("admin:chat_coachreview_changelist"),
        "review mode page": reverse("admin:chat_coachreview_change", args=[world["review"].pk]),
    }


def decide_urls(world) -> dict[str, str]:
    return {
        "review": reverse("admin:chat_pendingtoolbatch_review", args=[world["batch"].pk]),
        "undo": reverse("admin:chat_pendingtoolbatch_undo", args=[world["batch"].pk]),
    }


def count_rows(response) -> int | None:
    cl = (response.context or {}).get("cl") if response.status_code == 200 else None
    return None if cl is None else len(cl.result_list)


@pytest.mark.parametrize("role", ["staff_user", "coach_user"])
def test_staff_and_the_coach_open_every_read_url(client, request, role, world):
    logged_in(client, request.getfixturevalue(role))
    for name, url in read_urls(world).items():
        response = client.get(url)
        assert response.status_code == 200, name
        if name.endswith("list"):
            assert count_rows(response) >= 1, name


def test_another_coach_reaches_none_of_it(client, other_coach_user, other_conversation, world):
    logged_in(client, other_coach_user)
    for name, url in read_urls(world).items():
        response = client.get(url)
        if name.endswith("list"):
            own = 1 if name == "conversation list" else 0  # their own athlete's conversation
            assert count_rows(response) == own, name
        elif name == "timeline":
            assert response.status_code == 404
        elif name == "export":
            assert response.status_code == 200
            assert b"".join(response.streaming_content).count(b"\n") == 1  # the header only
        else:
            assert response.status_code == 302, name  # "doesn't exist"
            assert response["Location"] == reverse("admin:index"), name
    for name, url in decide_urls(world).items():
        assert client.post(url, {"action": "approve"}).status_code == 404, name


def test_the_athlete_is_sent_to_the_login_from_every_url(client, athlete_user, world):
    logged_in(client, athlete_user)
    for name, url in read_urls(world).items():
        response = client.get(url)
        assert response.status_code == 302, name
        assert response["Location"].startswith(LOGIN), name
    for name, url in decide_urls(world).items():
        response = client.post(url, {"action": "approve"})
        assert response["Location"].startswith(LOGIN), name


def test_staff_decide_nothing(client, staff_user, world):
    logged_in(client, staff_user)
    for name, url in decide_urls(world).items():
        assert client.post(url, {"action": "approve"}).status_code == 403, name
    world["batch"].refresh_from_db()
    assert world["batch"].status == "applied"


def test_the_demo_staff_user_reads_the_audit_log_from_the_index(client, coached_conversation):
    seed_demo()
    staff = get_user_model().objects.get(username="staff")
    row = record(coached_conversation)
    logged_in(client, staff)
    html = client.get(reverse("admin:index")).content.decode()
    assert ">Tool call audit log</a>" in html
    response = client.get(reverse("admin:chat_toolcallrecord_changelist"))
    assert [r.pk for r in response.context["cl"].result_list] == [row.pk]
