"""A conversation's timeline in the admin (messages, tool calls and decisions in time order), and
the read-only conversation, message and decision admins, as each role."""

import pytest
from django.urls import reverse

from chat import proposals
from chat.admin.timeline import conversation_timeline
from chat.models import BatchDecision, Message, ToolCallRecord
from chat.services import message_send
from tests.chat.admin_helpers import RENAME, logged_in, propose, record

pytestmark = pytest.mark.django_db


def timeline_url(conversation) -> str:
    return reverse("admin:chat_conversation_timeline", args=[conversation.pk])


@pytest.fixture
def applied(coached_conversation, athlete_user):
    batch = propose(coached_conversation, RENAME)
    decision = proposals.apply(batch_id=batch.pk, user=athlete_user, revision=batch.revision)
    assert decision.outcome == "applied"
    return batch


def test_the_timeline_merges_messages_calls_and_decisions_in_time_order(
    coached_conversation, applied
):
    entries = conversation_timeline(conversation=coached_conversation)
    assert [e.at for e in entries] == sorted(e.at for e in entries)
    kinds = [(e.kind, e.status if e.kind == "decision" else e.title) for e in entries]
    user = kinds.index(("message", "Athlete"))
    call = kinds.index(("tool_call", "Tool call: modify_exercise"))
    decision = kinds.index(("decision", "applied"))
    event = kinds.index(("message", "Event"))
    assert user < call < decision < event
    call_entry = entries[call]
    assert call_entry.status == "Applied"
    assert ("transitions", "proposed (system), applied (alex)") in call_entry.details
    assert entries[decision].who == "alex"


def test_the_timeline_page_renders_each_entry_readably(
    client, staff_user, coached_conversation, applied
):
    html = logged_in(client, staff_user).get(timeline_url(coached_conversation)).content.decode()
    for text in ("please change it", "Tool call: modify_exercise", "Decision: Applied", "alex"):
        assert text in html
    assert "You applied 1 change." in html
    record_row = ToolCallRecord.objects.get(conversation=coached_conversation)
    assert reverse("admin:chat_toolcallrecord_change", args=[record_row.pk]) in html
    decision = BatchDecision.objects.get(batch=applied, kind="applied")
    assert reverse("admin:chat_batchdecision_change", args=[decision.pk]) in html


def test_the_timeline_shows_edits_with_before_and_after(coached_conversation, athlete_user):
    batch = propose(coached_conversation, RENAME)
    result = proposals.edit_call(
        batch_id=batch.pk,
        user=athlete_user,
        revision=batch.revision,
        call_id="call_1",
        values={"updates.name": "Front Squat"},
    )
    assert result.outcome == "edited", result
    entries = conversation_timeline(conversation=coached_conversation)
    edited = next(e for e in entries if e.kind == "decision" and e.status == "edited")
    assert any(
        label == "edit" and "Goblet Squat" in value and "Front Squat" in value
        for label, value in edited.details
    )


def test_the_timeline_escapes_what_the_athlete_typed(client, staff_user, coached_conversation):
    message_send(conversation=coached_conversation, text="<img src=x onerror=alert(1)>")
    html = logged_in(client, staff_user).get(timeline_url(coached_conversation)).content.decode()
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_the_coach_opens_their_athletes_timeline(client, coach_user, coached_conversation):
    record(coached_conversation)
    assert logged_in(client, coach_user).get(timeline_url(coached_conversation)).status_code == 200


def test_another_coach_gets_404_for_a_timeline(client, other_coach_user, coached_conversation):
    response = logged_in(client, other_coach_user).get(timeline_url(coached_conversation))
    assert response.status_code == 404


def test_an_athlete_is_sent_to_the_login_from_a_timeline(
    client, athlete_user, coached_conversation
):
    response = logged_in(client, athlete_user).get(timeline_url(coached_conversation))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_a_timeline_of_a_conversation_that_does_not_exist_is_404(client, staff_user):
    assert (
        logged_in(client, staff_user).get("/admin/chat/conversation/999999/timeline/").status_code
        == 404
    )
    assert client.get("/admin/chat/conversation/abc/timeline/").status_code == 404


def test_the_timeline_is_linked_from_the_conversation_list_and_page(
    client, staff_user, coached_conversation
):
    logged_in(client, staff_user)
    url = timeline_url(coached_conversation)
    assert url in client.get(reverse("admin:chat_conversation_changelist")).content.decode()
    page = reverse("admin:chat_conversation_change", args=[coached_conversation.pk])
    assert url in client.get(page).content.decode()


# --- conversations, messages and decisions, read-only --------------------------------------------


def listed(client, name: str) -> set[int]:
    response = client.get(reverse(f"admin:chat_{name}_changelist"))
    assert response.status_code == 200
    return {obj.pk for obj in response.context["cl"].result_list}


CHAT_LISTS = ("conversation", "message", "pendingtoolbatch", "batchdecision")


def test_staff_see_every_conversation_message_batch_and_decision(
    client, staff_user, coached_conversation, other_conversation, applied
):
    logged_in(client, staff_user)
    assert listed(client, "conversation") == {coached_conversation.pk, other_conversation.pk}
    assert listed(client, "message") == set(
        Message.objects.filter(conversation=coached_conversation).values_list("pk", flat=True)
    )
    assert listed(client, "pendingtoolbatch") == {applied.pk}
    assert listed(client, "batchdecision") == set(
        BatchDecision.objects.filter(batch=applied).values_list("pk", flat=True)
    )


def test_another_coach_sees_none_of_them(client, other_coach_user, coached_conversation, applied):
    logged_in(client, other_coach_user)
    for name in ("message", "pendingtoolbatch", "batchdecision"):
        assert listed(client, name) == set()
    assert coached_conversation.pk not in listed(client, "conversation")
    decision = BatchDecision.objects.filter(batch=applied).first()
    response = client.get(reverse("admin:chat_batchdecision_change", args=[decision.pk]))
    assert response.status_code == 302  # "doesn't exist" back to the index


def test_the_coach_sees_their_athletes_decisions(client, coach_user, applied):
    logged_in(client, coach_user)
    decision = BatchDecision.objects.get(batch=applied, kind="applied")
    assert decision.pk in listed(client, "batchdecision")
    response = client.get(reverse("admin:chat_batchdecision_change", args=[decision.pk]))
    assert response.status_code == 200
    assert "Goblet Squat" in response.content.decode()


def test_an_athlete_reaches_none_of_the_chat_lists(client, athlete_user, applied):
    logged_in(client, athlete_user)
    for name in CHAT_LISTS:
        response = client.get(reverse(f"admin:chat_{name}_changelist"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


def test_nobody_adds_changes_or_deletes_messages_batches_or_decisions(
    client, superuser_user, applied
):
    logged_in(client, superuser_user)
    decision = BatchDecision.objects.filter(batch=applied).first()
    message = Message.objects.filter(conversation=applied.conversation).first()
    for name, obj in (
        ("message", message),
        ("pendingtoolbatch", applied),
        ("batchdecision", decision),
        ("conversation", applied.conversation),
    ):
        assert client.get(reverse(f"admin:chat_{name}_add")).status_code == 403
        assert client.get(reverse(f"admin:chat_{name}_delete", args=[obj.pk])).status_code == 403
        assert (
            client.post(reverse(f"admin:chat_{name}_change", args=[obj.pk]), {}).status_code == 403
        )
