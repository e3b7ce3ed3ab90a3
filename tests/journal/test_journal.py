"""The undo journal on its own: created/updated undo, conflicts refused, all or nothing, nesting.
Library workouts stand in for any model with a nullable ``deleted_at``."""

import asyncio
import threading

import pytest
from django.db import transaction

from journal import services as journal
from journal.models import Change, ChangeSet
from library.models import LibraryWorkout
from tests.factories import LibraryWorkoutFactory, UserFactory

pytestmark = pytest.mark.django_db


def _rename(workout, title):
    before = {"title": workout.title}
    workout.title = title
    workout.save(update_fields=["title"])
    journal.updated(workout, before)


def test_created_is_soft_deleted_by_undo():
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete, summary="add") as handle:
        workout = LibraryWorkoutFactory(owner=athlete)
        journal.created(workout)
    change_set = ChangeSet.objects.get(pk=handle.change_set_id)
    assert change_set.changes.get().action == "created"
    journal.undo(change_set, athlete)
    workout = LibraryWorkout.all_objects.get(pk=workout.pk)
    assert workout.deleted_at is not None
    change_set.refresh_from_db()
    assert change_set.undone_at is not None


def test_updated_restores_before_and_keeps_decimal_and_dates():
    athlete = UserFactory()
    workout = LibraryWorkoutFactory(owner=athlete, title="Old", duration_minutes=45)
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        before = {"title": workout.title, "duration_minutes": 45, "tags": list(workout.tags)}
        workout.title, workout.duration_minutes, workout.tags = "New", 50, ["x"]
        workout.save()
        journal.updated(workout, before)
    change = Change.objects.get(change_set_id=handle.change_set_id)
    assert change.before == {"title": "Old", "duration_minutes": 45, "tags": ["strength"]}
    assert change.after == {"title": "New", "duration_minutes": 50, "tags": ["x"]}
    journal.undo(handle.change_set_id, athlete)
    workout.refresh_from_db()
    assert (workout.title, workout.duration_minutes, workout.tags) == ("Old", 45, ["strength"])


def test_undo_refused_when_a_later_change_touched_the_object():
    athlete = UserFactory()
    workout = LibraryWorkoutFactory(owner=athlete, title="Old")
    with transaction.atomic(), journal.capture(athlete=athlete) as first:
        _rename(workout, "Mine")
    workout.title = "Someone else's"
    workout.save()
    with pytest.raises(journal.JournalConflict) as refused:
        journal.undo(first.change_set_id, athlete)
    assert "Someone else's" in refused.value.message
    workout.refresh_from_db()
    assert workout.title == "Someone else's"
    assert ChangeSet.objects.get(pk=first.change_set_id).undone_at is None


def test_undo_is_all_or_nothing():
    athlete = UserFactory()
    kept = LibraryWorkoutFactory(owner=athlete, title="A")
    blocked = LibraryWorkoutFactory(owner=athlete, title="B")
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        _rename(blocked, "B2")  # undone last (newest first): its conflict comes after A's undo
        _rename(kept, "A2")
    LibraryWorkout.objects.filter(pk=blocked.pk).update(title="B3")
    with pytest.raises(journal.JournalConflict):
        journal.undo(handle.change_set_id, athlete)
    kept.refresh_from_db()
    assert kept.title == "A2"  # the first undone change was rolled back with the refusal


def test_undo_twice_is_refused_and_deleted_objects_conflict():
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        workout = LibraryWorkoutFactory(owner=athlete)
        journal.created(workout)
    journal.undo(handle.change_set_id, athlete)
    with pytest.raises(journal.JournalError, match="already undone"):
        journal.undo(handle.change_set_id, athlete)
    with transaction.atomic(), journal.capture(athlete=athlete) as again:
        other = LibraryWorkoutFactory(owner=athlete)
        journal.created(other)
    LibraryWorkout.objects.filter(pk=other.pk).delete()
    with pytest.raises(journal.JournalConflict, match="Library workout"):
        journal.undo(again.change_set_id, athlete)


def test_nothing_recorded_means_no_change_set_and_outside_capture_is_a_no_op():
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        pass
    assert handle.change_set_id is None
    journal.created(LibraryWorkoutFactory(owner=athlete))  # outside any capture
    assert not ChangeSet.objects.exists() and not Change.objects.exists()


def test_nested_captures_join_the_outer_one():
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete, summary="outer") as outer:
        journal.created(LibraryWorkoutFactory(owner=athlete))
        with journal.capture(athlete=athlete, summary="inner") as inner:
            journal.created(LibraryWorkoutFactory(owner=athlete))
        assert inner is outer
    assert ChangeSet.objects.count() == 1
    assert ChangeSet.objects.get().changes.count() == 2


def test_a_rolled_back_savepoint_takes_its_changes_with_it():
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        journal.created(LibraryWorkoutFactory(owner=athlete))
        try:
            with transaction.atomic():
                journal.created(LibraryWorkoutFactory(owner=athlete))
                raise RuntimeError("this call failed")
        except RuntimeError:
            pass
    assert ChangeSet.objects.get(pk=handle.change_set_id).changes.count() == 1


def test_the_capture_is_a_context_variable_other_threads_dont_see():
    athlete = UserFactory()
    seen = {}

    def other_thread():
        seen["thread"] = journal._current.get()

    async def other_task():
        seen["task"] = journal._current.get()

    with transaction.atomic(), journal.capture(athlete=athlete):
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
        asyncio.run(other_task())  # a task copies its creator's context (contextvars)
    assert seen["thread"] is None
    assert seen["task"] is not None
