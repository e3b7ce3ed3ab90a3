"""The program's history is a view of the journal: every revision is one part of a change set
(a batch's, or one of its own for a change made outside a batch), the admin's Undo is the
journal's one undo of that change set, and the history page lists the change sets."""

from __future__ import annotations

import pytest
from django.urls import reverse

from chat import proposals
from chat.models import BatchDecision, Message, PendingToolBatch, ToolCallRecord
from journal import services as journal
from journal.models import ChangeSet
from programs import services
from programs.history import change_set_of, program_change
from programs.models import ProgramRevision
from tests.calls import RENAME
from tests.chat.helpers import first_exercise, propose
from tests.factories import ConversationFactory, build_program

pytestmark = pytest.mark.django_db


def test_a_change_outside_a_batch_is_a_change_set_of_its_own(program):
    with program_change(program=program, actor=None, via="admin", summary="Renamed"):
        services.object_update(obj=program, fields={"name": "Block B"})
    [change_set] = ChangeSet.objects.all()
    assert (change_set.athlete, change_set.summary) == (program.athlete, "Renamed")
    [revision] = journal.parts(change_set, ProgramRevision)
    assert revision.summary == "Renamed" and change_set_of(revision) == change_set


def test_the_journals_undo_undoes_a_revision_and_records_the_undo_revision(program):
    with program_change(program=program, actor=None, via="admin", summary="Renamed"):
        services.object_update(obj=program, fields={"name": "Block B"})
    [revision] = ProgramRevision.objects.all()
    journal.undo(change_set_of(revision), None)
    program.refresh_from_db()
    assert program.name != "Block B"
    undo = ProgramRevision.objects.get(undoes=revision)
    assert change_set_of(undo).undoes == change_set_of(revision)


def test_the_journal_refuses_with_the_histories_message(program):
    exercise = first_exercise(program)
    for reps in ("6", "4"):
        with program_change(program=program, actor=None, via="admin", summary=reps):
            services.object_update(obj=exercise, fields={"reps": reps})
    first = ProgramRevision.objects.get(number=1)
    with pytest.raises(journal.JournalError, match=r"Can't undo: change #2 \(admin, system, "):
        journal.undo(change_set_of(first), None)


def test_the_chats_undo_and_the_admins_are_the_same_undo(
    coach_client, coach, django_capture_on_commit_callbacks
):
    program = build_program(weeks=1, sessions=1, exercises=2)
    program.coach = coach
    program.save()
    conversation = ConversationFactory(program=program)
    batch = propose(conversation, RENAME)
    proposals.apply(batch_id=batch.pk, user=program.athlete, revision=batch.revision)
    change_set = proposals.applied_change_set(batch)
    [revision] = journal.parts(change_set, ProgramRevision)
    history = reverse("admin:programs_program_history", args=[program.pk])
    page = coach_client.get(history).content.decode()
    assert f'id="revision-{revision.number}"' in page and "1 change from the chat: " in page
    undo = reverse("admin:programs_program_revision_action", args=[program.pk, revision.pk, "undo"])
    with django_capture_on_commit_callbacks(execute=True):
        assert coach_client.post(undo).status_code == 302
    change_set.refresh_from_db()
    assert change_set.undone_at is not None  # the batch's change set, undone by the admin
    assert first_exercise(program).name == "Back Squat"
    # The chat follows: the batch is undone, by the coach, and the conversation is told.
    batch.refresh_from_db()
    assert batch.status == PendingToolBatch.BatchStatus.UNDONE
    decision = BatchDecision.objects.filter(batch=batch).latest("pk")
    assert (decision.kind, decision.actor, decision.change_set_id) == (
        BatchDecision.Kind.UNDONE,
        coach,
        change_set.pk,
    )
    assert ToolCallRecord.objects.filter(batch=batch, status=ToolCallRecord.Status.UNDONE).exists()
    assert Message.objects.filter(conversation=conversation, decision=decision).exists()
    assert proposals.undo(batch_id=batch.pk, user=program.athlete).outcome == "already_decided"
