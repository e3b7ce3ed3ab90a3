"""The coach's decisions in the admin: the review queue, Approve and Decline with a note, and
Undo of an applied batch; each tried as the coach, staff, another coach and the athlete."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from chat import proposals
from chat.models import BatchDecision, CoachReview, PendingToolBatch
from programs.models import Exercise, Session
from tests.chat.admin_helpers import REMOVE_SESSION, RENAME, logged_in, propose

pytestmark = pytest.mark.django_db

RENAME_AGAIN = (
    "call_9",
    "modify_exercise",
    {"weekNumber": 1, "sessionNumber": 1, "exerciseNumber": 1, "updates": {"name": "Box Squat"}},
)


def change_url(batch) -> str:
    return reverse("admin:chat_pendingtoolbatch_change", args=[batch.pk])


def review_url(batch) -> str:
    return reverse("admin:chat_pendingtoolbatch_review", args=[batch.pk])


def undo_url(batch) -> str:
    return reverse("admin:chat_pendingtoolbatch_undo", args=[batch.pk])


def notices(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def sessions_in_week_2(conversation) -> int:
    return Session.objects.filter(week__program=conversation.program, week__position=2).count()


@pytest.fixture
def awaiting(coached_conversation, athlete_user):
    """A batch removing a session (high sensitivity) that the athlete sent to the coach."""
    CoachReview.objects.create(athlete=athlete_user, enabled=True)
    batch = propose(coached_conversation, REMOVE_SESSION)
    decision = proposals.apply(batch_id=batch.pk, user=athlete_user, revision=batch.revision)
    assert decision.outcome == "review_requested"
    return batch


@pytest.fixture
def applied(coached_conversation, athlete_user):
    batch = propose(coached_conversation, RENAME)
    assert proposals.apply(
        batch_id=batch.pk, user=athlete_user, revision=batch.revision
    ).outcome == ("applied")
    return batch


def first_exercise_name(conversation) -> str:
    return Exercise.objects.get(
        session__week__program=conversation.program,
        session__week__position=1,
        session__position=1,
        position=1,
    ).name


# --- the review queue ----------------------------------------------------------------------------


def test_the_review_queue_lists_the_batches_waiting_for_the_coach(
    client, coach_user, applied, awaiting
):
    response = logged_in(client, coach_user).get(
        reverse("admin:chat_pendingtoolbatch_changelist"), {"review": "pending"}
    )
    assert {b.pk for b in response.context["cl"].result_list} == {awaiting.pk}


def test_another_coachs_queue_is_empty(client, other_coach_user, awaiting):
    response = logged_in(client, other_coach_user).get(
        reverse("admin:chat_pendingtoolbatch_changelist"), {"review": "pending"}
    )
    assert list(response.context["cl"].result_list) == []


def test_staff_see_the_queue(client, staff_user, awaiting):
    response = logged_in(client, staff_user).get(
        reverse("admin:chat_pendingtoolbatch_changelist"), {"review": "pending"}
    )
    assert {b.pk for b in response.context["cl"].result_list} == {awaiting.pk}


# --- approve and decline -------------------------------------------------------------------------


def test_the_coach_sees_approve_and_decline_with_a_note(client, coach_user, awaiting):
    html = logged_in(client, coach_user).get(change_url(awaiting)).content.decode()
    assert f'action="{review_url(awaiting)}"' in html
    assert 'value="approve"' in html and 'value="decline"' in html
    assert 'name="note"' in html
    assert "csrfmiddlewaretoken" in html


def test_the_coach_approves_and_the_change_is_applied(
    client, coach_user, awaiting, coached_conversation
):
    before = sessions_in_week_2(coached_conversation)
    response = logged_in(client, coach_user).post(
        review_url(awaiting), {"action": "approve", "note": "Fine, rest up."}
    )
    assert response.status_code == 302 and response["Location"] == change_url(awaiting)
    assert "Approved: the changes were applied and the athlete is told." in notices(response)
    awaiting.refresh_from_db()
    assert awaiting.status == PendingToolBatch.BatchStatus.APPLIED
    assert sessions_in_week_2(coached_conversation) == before - 1
    decision = BatchDecision.objects.get(batch=awaiting, kind="approved")
    assert (decision.actor, decision.note) == (coach_user, "Fine, rest up.")


def test_the_coach_declines_with_a_note_and_nothing_changes(
    client, coach_user, awaiting, coached_conversation
):
    before = sessions_in_week_2(coached_conversation)
    response = logged_in(client, coach_user).post(
        review_url(awaiting), {"action": "decline", "note": "Keep all three sessions."}
    )
    assert "Declined: nothing was changed and the athlete is told." in notices(response)
    awaiting.refresh_from_db()
    assert awaiting.status == PendingToolBatch.BatchStatus.DECLINED
    assert sessions_in_week_2(coached_conversation) == before
    assert BatchDecision.objects.get(batch=awaiting, kind="declined").note == (
        "Keep all three sessions."
    )


def test_a_second_decision_is_reported_as_already_decided(client, coach_user, awaiting):
    logged_in(client, coach_user)
    client.post(review_url(awaiting), {"action": "decline"})
    response = client.post(review_url(awaiting), {"action": "approve"})
    assert "This batch was already decided; nothing was done." in notices(response)
    awaiting.refresh_from_db()
    assert awaiting.status == PendingToolBatch.BatchStatus.DECLINED


def test_a_note_too_long_or_no_action_decides_nothing(client, coach_user, awaiting):
    logged_in(client, coach_user)
    response = client.post(review_url(awaiting), {"action": "approve", "note": "x" * 2001})
    assert "The note can be at most 2000 characters (it has 2001); nothing was decided." in notices(
        response
    )
    response = client.post(review_url(awaiting), {"action": "delete"})
    assert "Choose Approve or Decline." in notices(response)
    awaiting.refresh_from_db()
    assert awaiting.status == PendingToolBatch.BatchStatus.AWAITING_REVIEW


def test_deciding_needs_a_post(client, coach_user, awaiting):
    logged_in(client, coach_user)
    assert client.get(review_url(awaiting)).status_code == 405
    assert client.get(undo_url(awaiting)).status_code == 405


def test_staff_see_the_batch_but_cannot_decide(client, staff_user, awaiting):
    logged_in(client, staff_user)
    html = client.get(change_url(awaiting)).content.decode()
    assert 'value="approve"' not in html
    assert client.post(review_url(awaiting), {"action": "approve"}).status_code == 403
    awaiting.refresh_from_db()
    assert awaiting.status == PendingToolBatch.BatchStatus.AWAITING_REVIEW


def test_another_coach_gets_404_when_deciding(client, other_coach_user, awaiting):
    logged_in(client, other_coach_user)
    assert client.post(review_url(awaiting), {"action": "approve"}).status_code == 404
    assert client.post(undo_url(awaiting)).status_code == 404
    awaiting.refresh_from_db()
    assert awaiting.status == PendingToolBatch.BatchStatus.AWAITING_REVIEW


def test_the_athlete_cannot_decide_in_the_admin(client, athlete_user, awaiting):
    response = logged_in(client, athlete_user).post(review_url(awaiting), {"action": "approve"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    awaiting.refresh_from_db()
    assert awaiting.status == PendingToolBatch.BatchStatus.AWAITING_REVIEW


def test_a_superuser_may_decide(client, superuser_user, awaiting):
    logged_in(client, superuser_user).post(review_url(awaiting), {"action": "decline"})
    awaiting.refresh_from_db()
    assert awaiting.status == PendingToolBatch.BatchStatus.DECLINED


# --- undo ----------------------------------------------------------------------------------------


def test_the_coach_sees_undo_only_on_an_applied_batch(client, coach_user, applied, awaiting):
    logged_in(client, coach_user)
    assert f'action="{undo_url(applied)}"' in client.get(change_url(applied)).content.decode()
    assert f'action="{undo_url(awaiting)}"' not in client.get(change_url(awaiting)).content.decode()


def test_the_coach_undoes_an_applied_batch(client, coach_user, applied, coached_conversation):
    assert first_exercise_name(coached_conversation) == "Goblet Squat"
    response = logged_in(client, coach_user).post(undo_url(applied))
    assert "Undone: the program is back to how it was before the batch." in notices(response)
    applied.refresh_from_db()
    assert applied.status == PendingToolBatch.BatchStatus.UNDONE
    assert first_exercise_name(coached_conversation) == "Back Squat"
    assert BatchDecision.objects.get(batch=applied, kind="undone").actor == coach_user


def test_undo_refused_when_a_later_change_overlaps_names_it(
    client, coach_user, athlete_user, applied, coached_conversation
):
    later = propose(coached_conversation, RENAME_AGAIN)
    assert proposals.apply(
        batch_id=later.pk, user=athlete_user, revision=later.revision
    ).outcome == ("applied")
    response = logged_in(client, coach_user).post(undo_url(applied))
    [notice] = notices(response)
    assert notice.startswith("Undo refused: ")
    assert len(notice) > len("Undo refused: ") + 10
    applied.refresh_from_db()
    assert applied.status == PendingToolBatch.BatchStatus.APPLIED
    assert first_exercise_name(coached_conversation) == "Box Squat"


def test_undo_of_a_batch_never_applied_is_refused(client, coach_user, awaiting):
    logged_in(client, coach_user).post(review_url(awaiting), {"action": "decline"})
    response = client.post(undo_url(awaiting))
    assert "Undo refused: These changes can't be undone: they were never applied." in notices(
        response
    )


def test_staff_cannot_undo(client, staff_user, applied, coached_conversation):
    logged_in(client, staff_user)
    assert 'action="' + undo_url(applied) not in client.get(change_url(applied)).content.decode()
    assert client.post(undo_url(applied)).status_code == 403
    assert first_exercise_name(coached_conversation) == "Goblet Squat"


def test_the_athlete_cannot_undo_in_the_admin(client, athlete_user, applied):
    response = logged_in(client, athlete_user).post(undo_url(applied))
    assert response["Location"].startswith(reverse("admin:login"))
    applied.refresh_from_db()
    assert applied.status == PendingToolBatch.BatchStatus.APPLIED


# --- the changes in words (issue 18 item 22) ----------------------------------------------------

MORE_SETS = (
    "call_sets",
    "modify_exercise",
    {
        "weekNumber": 1,
        "sessionNumber": 1,
        "exerciseNumber": 1,
        "updates": {"workingSets": 4, "reps": "5", "targetLoad": "100 kg"},
    },
)


def test_the_review_page_shows_the_changes_in_words_not_json(
    client, coach_user, athlete_user, coached_conversation
):
    CoachReview.objects.create(athlete=athlete_user, enabled=True)
    batch = propose(coached_conversation, MORE_SETS, REMOVE_SESSION)
    proposals.apply(batch_id=batch.pk, user=athlete_user, revision=batch.revision)
    html = logged_in(client, coach_user).get(change_url(batch)).content.decode()
    section = html[html.index('id="review-panel"') :]
    assert "Change an exercise" in section and "Remove a session" in section
    assert "Working sets: 3 → 4" in section
    assert "Reps: 8-10 → 5" in section and "Target load: 135 lbs → 100 kg" in section
    for jargon in ("workingSets", "targetLoad", "weekNumber", "&quot;5&quot;", "{", "spotter-json"):
        assert jargon not in section, jargon
