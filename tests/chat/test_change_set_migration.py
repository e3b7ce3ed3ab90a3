"""The migration to one change set per batch (issue 19 item 3): a decision written when the
program's revision and the journal's change set were apart (both ids on the row) is folded into
one change set, and the batch still undoes, both parts, through the one journal undo."""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from chat import proposals
from chat.models import BatchDecision, PendingToolBatch
from journal import services as journal
from journal.models import ChangeSet
from library.models import LibraryWorkout
from programs.models import Exercise, ProgramRevision
from tests.factories import ConversationFactory, LibraryWorkoutFactory, build_program

BEFORE = [
    ("chat", "0007_guardrail_and_auto_applied"),
    ("programs", "0004_session_skipped"),
    ("journal", "0001_initial"),
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_an_old_decision_with_both_ids_is_one_change_set_and_still_undoes():
    old = migrate(BEFORE)
    try:
        program = build_program(weeks=1, sessions=1, exercises=1)  # programs' tables unchanged
        conversation = ConversationFactory(program=program)
        athlete = program.athlete
        exercise = Exercise.objects.get(session__week__program=program)
        Exercise.objects.filter(pk=exercise.pk).update(name="Goblet Squat")
        revision = ProgramRevision.objects.create(
            program=program,
            number=1,
            via="chat",
            summary="1 change from the chat: change an exercise",
            source="batch:1",
            changes=[
                {
                    "model": "exercise",
                    "pk": exercise.pk,
                    "op": "update",
                    "before": {"name": exercise.name},
                    "after": {"name": "Goblet Squat"},
                    "where": "Week 1, Session 1, Exercise 1",
                    "parent": exercise.session_id,
                }
            ],
            program_version=program.version + 1,
        )
        workout = LibraryWorkoutFactory(owner=athlete, title="Leg Burner")
        OldChangeSet = old.get_model("journal", "ChangeSet")
        OldChange = old.get_model("journal", "Change")
        change_set = OldChangeSet.objects.create(athlete_id=athlete.pk, summary="save_workout")
        OldChange.objects.create(
            change_set=change_set,
            content_type_id=ContentType.objects.get_for_model(LibraryWorkout).pk,
            object_id=workout.pk,
            action="created",
            after={"deleted_at": None, "label": "Leg Burner"},
        )
        batch = PendingToolBatch.objects.create(
            conversation=conversation,
            status="applied",
            calls=[{"id": "call_1", "name": "modify_exercise", "arguments": {}}],
            revision=1,
            program_version=program.version + 1,
        )
        old.get_model("chat", "BatchDecision").objects.create(
            batch_id=batch.pk,
            kind="applied",
            actor_id=athlete.pk,
            batch_revision=1,
            program_revision_id=revision.pk,
            change_set_id=change_set.pk,
        )

        migrate(latest())

        decision = BatchDecision.objects.get(batch=batch)
        assert decision.change_set_id == change_set.pk
        assert journal.parts(change_set.pk, ProgramRevision) == [revision]
        assert ChangeSet.objects.count() == 1  # the revision's own change set was folded in
        undone = proposals.undo(batch_id=batch.pk, user=athlete)
        assert undone.outcome == "undone", undone.message
        assert Exercise.objects.get(pk=exercise.pk).name == exercise.name
        assert LibraryWorkout.all_objects.get(pk=workout.pk).deleted_at is not None
        assert ProgramRevision.objects.get(undoes=revision).via == "undo"
    finally:
        migrate(latest())
