"""The proposal spine end to end: edit before Apply, remove an item, undo, the coach's review,
expiry, decisions stored as data, and the tool-call audit log they write."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from chat import proposals
from chat.agent import run_turn
from chat.models import BatchDecision, CoachReview, Message, PendingToolBatch, ToolCallRecord
from chat.prompt import build_turns
from chat.services import message_send
from journal import services as journal
from programs.export import export_program
from programs.history import program_change, revision_undo
from programs.models import ProgramRevision
from programs.services import object_update
from tests.calls import MORE_SETS, RENAME
from tests.chat.helpers import first_exercise, propose, version
from tests.chat.scripted_provider import ScriptedProvider
from tests.factories import CoachFactory, ConversationFactory, UserFactory

pytestmark = pytest.mark.django_db

REMOVE_WEEK_2 = ("call_rw", "remove_week", {"weekNumber": 2})


@pytest.fixture
def conversation(program):
    program.coach = CoachFactory()
    program.save(update_fields=["coach"])
    return ConversationFactory(program=program)


def athlete_of(conversation):
    return conversation.program.athlete


def apply(batch, user=None):
    batch.refresh_from_db()
    return proposals.apply(
        batch_id=batch.pk, user=user or batch.conversation.athlete, revision=batch.revision
    )


def without_version(program):
    data = export_program(program)
    data.pop("version", None)
    return data


# --- edit before Apply ---------------------------------------------------------------------------


def test_edit_then_apply_applies_the_edited_value_and_tells_the_model(conversation, program):
    batch = propose(conversation, RENAME)
    result = proposals.edit_call(
        batch_id=batch.pk,
        user=athlete_of(conversation),
        revision=batch.revision,
        call_id="call_1",
        values={"updates.name": "Front Squat"},
    )
    assert result.outcome == "edited"
    batch.refresh_from_db()
    assert batch.revision == 2
    assert batch.calls[0]["arguments"]["updates"]["name"] == "Front Squat"
    assert "Front Squat" in str(batch.preview["details"])
    decision = apply(batch)
    assert decision.outcome == "applied"
    assert first_exercise(program).name == "Front Squat"
    record = ToolCallRecord.objects.get(call_id="call_1")
    assert record.arguments["updates"]["name"] == "Goblet Squat"  # as the model proposed it
    assert record.applied_arguments["updates"]["name"] == "Front Squat"
    assert record.status == "applied" and record.decided_by == athlete_of(conversation)
    note = build_turns(conversation)[-1].content
    assert "the athlete changed call_1 updates.name" in note
    assert '"Goblet Squat"' in note and '"Front Squat"' in note


def test_an_invalid_edit_names_the_field_and_changes_nothing(conversation):
    batch = propose(conversation, MORE_SETS)
    result = proposals.edit_call(
        batch_id=batch.pk,
        user=athlete_of(conversation),
        revision=batch.revision,
        call_id="call_2",
        values={"updates.workingSets": "-3"},
    )
    assert result.outcome == "invalid"
    assert "at least 0" in result.errors["updates.workingSets"]
    batch.refresh_from_db()
    assert batch.revision == 1 and batch.calls[0]["arguments"]["updates"]["workingSets"] == 5
    assert not BatchDecision.objects.filter(kind="edited").exists()


def test_an_edit_that_breaks_the_state_layer_is_refused_with_the_real_bounds(conversation):
    batch = propose(conversation, RENAME)
    bad = proposals.edit_call(
        batch_id=batch.pk,
        user=athlete_of(conversation),
        revision=batch.revision,
        call_id="call_1",
        values={"updates.name": ""},
    )
    assert bad.outcome == "invalid" and "must not be empty" in bad.errors["updates.name"]


def test_an_edit_against_an_old_revision_is_not_applied_blind(conversation):
    batch = propose(conversation, RENAME)
    result = proposals.edit_call(
        batch_id=batch.pk,
        user=athlete_of(conversation),
        revision=batch.revision + 5,
        call_id="call_1",
        values={"updates.name": "Front Squat"},
    )
    assert result.outcome == "revision_mismatch"


def test_removing_an_item_re_previews_the_rest_and_the_last_one_cancels(conversation, program):
    batch = propose(conversation, RENAME, MORE_SETS)
    user = athlete_of(conversation)
    decision = proposals.remove_call(
        batch_id=batch.pk, user=user, revision=batch.revision, call_id="call_1"
    )
    assert decision.outcome == "edited"
    batch.refresh_from_db()
    assert [c["id"] for c in batch.calls] == ["call_2"]
    assert all(d["toolCallId"] == "call_2" for d in batch.preview["details"])
    assert ToolCallRecord.objects.get(call_id="call_1").status == "removed"
    last = proposals.remove_call(
        batch_id=batch.pk, user=user, revision=batch.revision, call_id="call_2"
    )
    assert last.outcome == "cancelled"
    assert first_exercise(program).name == "Back Squat"


def test_only_the_athlete_can_edit(conversation):
    batch = propose(conversation, RENAME)
    with pytest.raises(PermissionDenied):
        proposals.edit_call(
            batch_id=batch.pk,
            user=UserFactory(),
            revision=batch.revision,
            call_id="call_1",
            values={"updates.name": "X"},
        )


# --- undo ----------------------------------------------------------------------------------------


def test_undo_restores_the_program_exactly_and_is_told_to_the_model(conversation, program):
    before = without_version(program)
    batch = propose(conversation, RENAME, REMOVE_WEEK_2)
    assert apply(batch).outcome == "applied"
    assert without_version(program) != before
    version_after_apply = version(program)
    decision = proposals.undo(batch_id=batch.pk, user=athlete_of(conversation))
    assert decision.outcome == "undone"
    assert without_version(program) == before
    assert version(program) > version_after_apply
    batch.refresh_from_db()
    assert batch.status == "undone"
    assert set(ToolCallRecord.objects.values_list("status", flat=True)) == {"undone"}
    undo_set = decision.record.change_set.undone_by  # the change set the undo wrote
    assert [r.via for r in journal.parts(undo_set, ProgramRevision)] == ["undo"]
    assert decision.followup is not None  # the coach acknowledges it
    assert 'kind="undone"' in build_turns(conversation)[-1].content


def test_undo_is_refused_when_a_later_change_touched_the_same_exercise(conversation, program):
    batch = propose(conversation, RENAME)
    apply(batch)
    # A later change of the same exercise, recorded as a revision (as the admin does).
    with program_change(program=program, actor=program.coach, via="admin", summary="rename"):
        object_update(obj=first_exercise(program), fields={"name": "Zercher Squat"})
    decision = proposals.undo(batch_id=batch.pk, user=athlete_of(conversation))
    assert decision.outcome == "undo_refused"
    assert "admin" in decision.message
    assert first_exercise(program).name == "Zercher Squat"
    batch.refresh_from_db()
    assert batch.status == "applied"


def test_an_unrelated_later_change_does_not_block_undo(conversation, program):
    batch = propose(conversation, RENAME)
    apply(batch)
    with program_change(program=program, actor=program.coach, via="admin", summary="other"):
        object_update(obj=first_exercise(program, 1, week=2), fields={"reps": "3"})
    assert proposals.undo(batch_id=batch.pk, user=athlete_of(conversation)).outcome == "undone"
    assert first_exercise(program).name == "Back Squat"
    assert first_exercise(program, 1, week=2).reps == "3"


def test_a_batch_that_was_never_applied_cannot_be_undone(conversation):
    batch = propose(conversation, RENAME)
    decision = proposals.undo(batch_id=batch.pk, user=athlete_of(conversation))
    assert decision.outcome == "undo_refused" and "never applied" in decision.message


# --- coach review mode ---------------------------------------------------------------------------


def test_review_mode_sends_a_critical_change_to_the_coach_and_nothing_changes(
    conversation, program
):
    CoachReview.objects.create(athlete=program.athlete, enabled=True)
    batch = propose(conversation, REMOVE_WEEK_2)
    decision = apply(batch)
    assert decision.outcome == "review_requested"
    batch.refresh_from_db()
    assert batch.status == "awaiting_review" and batch.is_open
    assert program.weeks.count() == 2
    assert ToolCallRecord.objects.get().status == "awaiting_review"
    assert "waits for the athlete's coach" in build_turns(conversation)[-1].content
    approved = proposals.approve(batch_id=batch.pk, coach=program.coach, note="Good call")
    assert approved.outcome == "approved"
    assert program.weeks.count() == 1
    assert approved.event.content.startswith("Your coach approved the changes")
    assert "Good call" in approved.event.content


def test_the_coach_can_decline_and_both_are_told(conversation, program):
    CoachReview.objects.create(athlete=program.athlete, enabled=True)
    batch = propose(conversation, REMOVE_WEEK_2)
    apply(batch)
    declined = proposals.decline(batch_id=batch.pk, coach=program.coach, note="Not yet")
    assert declined.outcome == "declined"
    assert program.weeks.count() == 2
    assert "Not yet" in build_turns(conversation)[-1].content
    assert ToolCallRecord.objects.get().status == "declined"


def test_only_the_programs_coach_reviews(conversation, program):
    CoachReview.objects.create(athlete=program.athlete, enabled=True)
    batch = propose(conversation, REMOVE_WEEK_2)
    apply(batch)
    with pytest.raises(PermissionDenied):
        proposals.approve(batch_id=batch.pk, coach=CoachFactory())
    with pytest.raises(PermissionDenied):
        proposals.approve(batch_id=batch.pk, coach=program.athlete)


def test_low_changes_apply_at_once_even_in_review_mode(conversation, program):
    CoachReview.objects.create(athlete=program.athlete, enabled=True)
    batch = propose(conversation, RENAME)
    assert apply(batch).outcome == "applied"


def test_without_review_mode_a_critical_change_applies_on_the_athletes_click(conversation, program):
    batch = propose(conversation, REMOVE_WEEK_2)
    assert apply(batch).outcome == "applied"
    assert program.weeks.count() == 1


# --- expiry --------------------------------------------------------------------------------------


def test_a_batch_past_its_time_expires_and_is_not_called_declined(conversation, settings):
    batch = propose(conversation, RENAME)
    expected = batch.created_at + datetime.timedelta(days=settings.PROPOSAL_TTL_DAYS)
    assert abs((batch.expires_at - expected).total_seconds()) < 5
    PendingToolBatch.objects.filter(pk=batch.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )
    assert proposals.open_batch(conversation=conversation) is None
    batch.refresh_from_db()
    assert batch.status == "expired"
    event = Message.objects.get(role="event")
    assert "expired" in event.content and "declined" not in event.content
    assert 'kind="expired"' in build_turns(conversation)[-1].content
    assert ToolCallRecord.objects.get().status == "expired"


def test_the_sweep_expires_every_batch_past_its_time_once(program):
    due = propose(ConversationFactory(program=program), RENAME)
    fresh = propose(ConversationFactory(program=program), RENAME)
    PendingToolBatch.objects.filter(pk=due.pk).update(expires_at=timezone.now())
    assert proposals.expire_due() == 1
    assert proposals.expire_due() == 0
    fresh.refresh_from_db()
    assert fresh.status == "pending"


def test_apply_after_expiry_applies_nothing(conversation, program):
    batch = propose(conversation, RENAME)
    PendingToolBatch.objects.filter(pk=batch.pk).update(expires_at=timezone.now())
    apply(batch)
    assert first_exercise(program).name == "Back Squat"
    batch.refresh_from_db()
    assert batch.status == "expired"


# --- who may act ---------------------------------------------------------------------------------


def test_after_the_program_goes_to_another_athlete_the_old_conversation_can_apply_nothing(
    conversation, program
):
    batch = propose(conversation, RENAME)
    former = program.athlete
    program.athlete = UserFactory()
    program.save()
    with pytest.raises(PermissionDenied):
        apply(batch, user=former)
    assert first_exercise(program).name == "Back Squat"


def test_while_the_coach_reviews_new_proposals_are_refused_with_the_reason(conversation, program):
    CoachReview.objects.create(athlete=program.athlete, enabled=True)
    batch = propose(conversation, REMOVE_WEEK_2)
    apply(batch)
    with transaction.atomic():
        _, placeholder = message_send(conversation=conversation, text="also rename")
    run_turn(placeholder=placeholder, provider=ScriptedProvider().calls(RENAME, text="Sure."))
    placeholder.refresh_from_db()
    assert placeholder.status == "complete" and placeholder.error_code == "refused"
    assert "waiting for your coach's review" in placeholder.content
    assert PendingToolBatch.objects.get().status == "awaiting_review"
    assert ToolCallRecord.objects.get(call_id="call_1").status == "refused"


def test_a_coachs_undo_is_told_as_the_coachs(conversation, program):
    batch = propose(conversation, RENAME)
    apply(batch)
    decision = proposals.undo(batch_id=batch.pk, user=program.coach)
    assert decision.outcome == "undone"
    assert decision.event.content.startswith("Your coach undid 1 change")
    assert "The athlete's coach undid" in build_turns(conversation)[-1].content


def test_undoing_twice_is_refused_politely(conversation, program):
    batch = propose(conversation, RENAME)
    apply(batch)
    [revision] = journal.parts(proposals.applied_change_set(batch), ProgramRevision)
    revision_undo(revision=revision, actor=program.coach)  # undone elsewhere (the admin history)
    decision = proposals.undo(batch_id=batch.pk, user=program.athlete)
    assert decision.outcome == "undo_refused" and decision.message
