"""The journal's parts and its one undo: a family's own record joins the change set being
captured (or gets one of its own), undo hands it to the undoer its family registered, newest
first and all or nothing, and every committed change set or undo sends ``changed``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import transaction

from journal import services as journal
from journal.models import ChangeSet
from journal.signals import changed
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def undone():
    """A toy family: a Group recorded as a part; its undoer notes the call or refuses."""
    calls = []

    def undoer(group, *, actor, summary):
        if group.name.startswith("refuse"):
            raise journal.JournalError(f"Can't undo: {group.name} changed since.")
        calls.append((group.name, actor, summary))
        group.name = f"undone {group.name}"
        group.save()

    journal.register_undoer(Group, undoer)
    yield calls
    journal._UNDOERS.pop(Group._meta.label_lower)


def test_a_part_joins_the_change_set_being_captured():
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete, summary="batch") as handle:
        first, second = Group.objects.create(name="a"), Group.objects.create(name="b")
        assert journal.part(first, athlete=athlete) == handle.change_set_id
        journal.part(second, athlete=athlete)
    assert journal.parts(handle.change_set_id) == [first, second]
    assert journal.parts(handle.change_set_id, Group) == [first, second]
    assert ChangeSet.objects.count() == 1


def test_a_part_outside_a_capture_is_a_change_set_of_its_own():
    athlete = UserFactory()
    group = Group.objects.create(name="admin edit")
    change_set_id = journal.part(group, athlete=athlete.pk, summary="An admin edit")
    change_set = ChangeSet.objects.get(pk=change_set_id)
    assert (change_set.athlete, change_set.summary) == (athlete, "An admin edit")
    assert list(journal.holding(Group, [group.pk])) == [change_set]


def test_undo_hands_each_part_to_its_undoer_newest_first(undone):
    athlete, coach = UserFactory(), UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        for name in ("first", "second"):
            journal.part(Group.objects.create(name=name), athlete=athlete)
    journal.undo(handle.change_set_id, coach, summary="Undo of batch 7")
    assert undone == [("second", coach, "Undo of batch 7"), ("first", coach, "Undo of batch 7")]
    change_set = ChangeSet.objects.get(pk=handle.change_set_id)
    assert change_set.undone_at is not None
    with pytest.raises(journal.JournalError, match="already undone"):
        journal.undo(change_set, coach)


def test_what_an_undo_records_is_a_change_set_that_undoes_the_first(undone):
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        journal.part(Group.objects.create(name="first"), athlete=athlete)

    def undoer_that_records(group, *, actor, summary):
        journal.part(Group.objects.create(name=f"undo of {group.name}"), athlete=athlete)

    journal.register_undoer(Group, undoer_that_records)
    journal.undo(handle.change_set_id, athlete)
    original = ChangeSet.objects.get(pk=handle.change_set_id)
    assert [g.name for g in journal.parts(original.undone_by)] == ["undo of first"]


def test_a_refused_part_refuses_the_whole_undo_with_its_message(undone):
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        journal.part(Group.objects.create(name="refuse me"), athlete=athlete)
        journal.part(Group.objects.create(name="fine"), athlete=athlete)
    with pytest.raises(journal.JournalError, match=r"Can't undo: refuse me changed since\."):
        journal.undo(handle.change_set_id, athlete)
    assert Group.objects.filter(name="fine").exists()  # the first undone part was rolled back
    assert ChangeSet.objects.get(pk=handle.change_set_id).undone_at is None
    assert ChangeSet.objects.count() == 1


def test_a_part_without_an_undoer_cannot_be_undone():
    athlete = UserFactory()
    with transaction.atomic(), journal.capture(athlete=athlete) as handle:
        journal.part(Group.objects.create(name="orphan"), athlete=athlete)
    with pytest.raises(journal.JournalError, match="can't be undone"):
        journal.undo(handle.change_set_id, athlete)


def test_changed_is_sent_once_a_change_set_or_an_undo_is_committed(
    undone, django_capture_on_commit_callbacks
):
    heard = []

    def receiver(*, change_set, athlete, undone, **_):
        heard.append((change_set.pk, athlete, undone))

    changed.connect(receiver)
    try:
        athlete = UserFactory()
        with django_capture_on_commit_callbacks(execute=True):
            with transaction.atomic(), journal.capture(athlete=athlete) as handle:
                journal.part(Group.objects.create(name="a"), athlete=athlete)
            assert heard == []  # not before the commit
        with django_capture_on_commit_callbacks(execute=True):
            journal.undo(handle.change_set_id, athlete)
        with (
            django_capture_on_commit_callbacks(execute=True),
            transaction.atomic(),
            journal.capture(athlete=athlete),
        ):
            pass  # nothing recorded: no change set, nothing sent
    finally:
        changed.disconnect(receiver)
    assert heard == [(handle.change_set_id, athlete, False), (handle.change_set_id, athlete, True)]
