"""A batch's Undo through the chat puts back both its program revision and its journal change set
(here a workout saved to the library, the first journaled write), all or nothing."""

import pytest

from chat import proposals
from journal import services as journal
from journal.models import ChangeSet
from library.models import LibraryWorkout
from programs.export import export_program
from programs.models import ProgramRevision
from tests.calls import RENAME
from tests.chat.helpers import propose
from tests.factories import ConversationFactory

pytestmark = pytest.mark.django_db

SAVE = (
    "call_save",
    "save_workout_to_library",
    {
        "title": "Leg Burner",
        "sport": "strength",
        "duration": 45,
        "intensity": "hard",
        "description": "Squats.",
        "exercises": [{"name": "Back Squat", "sets": 5, "reps": "5", "load": "80% 1RM"}],
    },
)


@pytest.fixture
def conversation(program):
    return ConversationFactory(program=program)


def apply(batch):
    batch.refresh_from_db()
    return proposals.apply(
        batch_id=batch.pk, user=batch.conversation.athlete, revision=batch.revision
    )


def without_version(program):
    return {k: v for k, v in export_program(program).items() if k != "version"}


def test_apply_stores_the_change_set_and_undo_puts_back_both_parts(conversation, program):
    before = without_version(program)
    batch = propose(conversation, RENAME, SAVE)
    decision = apply(batch)
    assert decision.outcome == "applied"
    change_set = decision.record.change_set  # one change set: the workout and the revision
    assert change_set is not None and change_set.athlete == conversation.athlete
    assert [r.source for r in journal.parts(change_set, ProgramRevision)] == [f"batch:{batch.pk}"]
    workout = LibraryWorkout.objects.get(title="Leg Burner")

    undone = proposals.undo(batch_id=batch.pk, user=conversation.athlete)
    assert undone.outcome == "undone"
    assert without_version(program) == before
    assert not LibraryWorkout.objects.filter(pk=workout.pk).exists()  # soft-deleted
    assert LibraryWorkout.all_objects.get(pk=workout.pk).deleted_at is not None
    change_set.refresh_from_db()
    assert change_set.undone_at is not None
    assert undone.record.change_set_id == change_set.pk


def test_a_journal_conflict_refuses_the_whole_undo(conversation, program):
    batch = propose(conversation, RENAME, SAVE)
    apply(batch)
    renamed = without_version(program)
    LibraryWorkout.objects.filter(title="Leg Burner").update(deleted_at="2026-11-20T10:00Z")
    decision = proposals.undo(batch_id=batch.pk, user=conversation.athlete)
    assert decision.outcome == "undo_refused"
    assert 'Library workout "Leg Burner"' in decision.message
    assert without_version(program) == renamed  # the program part was rolled back too
    batch.refresh_from_db()
    assert batch.status == "applied"
    assert ChangeSet.objects.get().undone_at is None


def test_a_program_only_batch_is_one_change_set_holding_its_revision(conversation):
    batch = propose(conversation, RENAME)
    decision = apply(batch)
    change_set = ChangeSet.objects.get()
    assert decision.record.change_set == change_set
    assert [c.action for c in change_set.changes.all()] == ["part"]
    [revision] = journal.parts(change_set, ProgramRevision)
    assert (revision.via, revision.source) == ("chat", f"batch:{batch.pk}")
