"""The program editor's saves: what the coach does on the page becomes the program family's tool
calls, previewed by the engine's dry run and applied all or nothing as one journal change set
with one revision by the coach, which the journal's undo takes back."""

from __future__ import annotations

import copy

import pytest
from django.contrib.admin.models import LogEntry

from journal import services as journal
from journal.models import ChangeSet
from programs.history import change_set_of
from programs.models import CardioBlock, Exercise, Program, ProgramRevision, Session, Week
from tests.factories import CardioBlockFactory, SetResultFactory
from tests.programs.admin_support import exercise_names
from tests.programs.editor_support import new_exercise, page_tree, send

pytestmark = pytest.mark.django_db


def session_at(program, week: int, session: int) -> Session:
    return Session.objects.get(week__program=program, week__position=week, position=session)


def names(program, week: int, session: int) -> list[str]:
    return exercise_names(session_at(program, week, session))


def apply(client, program, tree):
    answer = send(client, program, "apply", tree).json()
    assert answer["applied"], answer
    return answer


def test_untouched_page_previews_nothing_and_writes_nothing(coach_client, own_program):
    answer = send(coach_client, own_program, "preview", page_tree(own_program)).json()
    assert answer["ok"] is False and "Nothing has changed." in answer["html"]
    assert ProgramRevision.objects.count() == 0


def test_preview_shows_the_cards_before_and_after_and_writes_nothing(coach_client, own_program):
    tree = page_tree(own_program)
    tree["weeks"][0]["sessions"][0]["exercises"][0]["fields"]["reps"] = "12"
    before = Program.objects.get(pk=own_program.pk).version
    answer = send(coach_client, own_program, "preview", tree).json()
    assert answer["ok"] and not answer["applied"]
    assert "Week 1, Session 1, Exercise 1: Back Squat" in answer["html"]
    assert "<del>8-10</del>" in answer["html"] and "<ins>12</ins>" in answer["html"]
    assert Program.objects.get(pk=own_program.pk).version == before
    assert names(own_program, 1, 1)[0] == "Back Squat"
    assert Exercise.objects.filter(reps="12").count() == 0


def test_dragging_an_exercise_to_another_session_moves_it_there(coach, coach_client, own_program):
    tree = page_tree(own_program)
    moved = tree["weeks"][0]["sessions"][0]["exercises"].pop(1)  # Bench Press
    tree["weeks"][0]["sessions"][2]["exercises"].insert(0, moved)
    apply(coach_client, own_program, tree)
    assert names(own_program, 1, 1) == ["Back Squat", "Barbell Row", "Romanian Deadlift"]
    assert names(own_program, 1, 3)[0] == "Bench Press"
    [revision] = ProgramRevision.objects.all()
    assert (revision.actor, revision.via, revision.source) == (coach, "admin", "editor")
    assert LogEntry.objects.get().user == coach


def test_reordering_within_a_session_uses_the_move_and_keeps_primary_keys(
    coach_client, own_program
):
    tree = page_tree(own_program)
    rows = tree["weeks"][1]["sessions"][1]["exercises"]
    rows.reverse()
    pks = [row["id"] for row in rows]
    apply(coach_client, own_program, tree)
    session = session_at(own_program, 2, 2)
    assert list(session.exercises.order_by("position").values_list("pk", flat=True)) == pks


def test_add_copy_and_remove_at_every_level(coach_client, own_program):
    CardioBlockFactory(session=session_at(own_program, 1, 2), duration=40)
    tree = page_tree(own_program)
    week1 = tree["weeks"][0]
    week1["sessions"][0]["exercises"].append(new_exercise("new-1", "Pull-up"))
    week1["sessions"][1]["exercises"].pop()  # remove an exercise
    session_copy = copy.deepcopy(week1["sessions"][1])
    session_copy.update(key="new-2", id=None, copyOf=week1["sessions"][1]["id"])
    for n, row in enumerate(session_copy["exercises"], start=10):
        row.update(key=f"new-{n}", id=None)
    week1["sessions"].insert(2, session_copy)
    tree["weeks"][1]["sessions"].pop()  # remove a session
    week3 = copy.deepcopy(tree["weeks"][1])
    week3.update(key="new-30", id=None)
    week3["fields"].update(start_date="2026-11-16", end_date="2026-11-22", phase="Deload")
    for n, session in enumerate(week3["sessions"], start=31):
        session.update(key=f"new-{n}", id=None)
        for m, row in enumerate(session["exercises"]):
            row.update(key=f"new-{n}-{m}", id=None)
    tree["weeks"].append(week3)
    apply(coach_client, own_program, tree)

    assert names(own_program, 1, 1)[-1] == "Pull-up"
    assert len(names(own_program, 1, 2)) == 3
    assert names(own_program, 1, 3) == names(own_program, 1, 2)
    copied = session_at(own_program, 1, 3)
    assert CardioBlock.objects.get(session=copied).duration == 40  # the copy keeps its cardio
    assert Session.objects.filter(week__program=own_program, week__position=1).count() == 4
    assert Session.objects.filter(week__program=own_program, week__position=2).count() == 2
    week = Week.objects.get(program=own_program, position=3)
    assert (week.phase, week.sessions.count()) == ("Deload", 2)
    assert ChangeSet.objects.count() == 1


def test_removing_a_week(coach_client, own_program):
    tree = page_tree(own_program)
    tree["weeks"].pop(0)
    apply(coach_client, own_program, tree)
    assert list(Week.objects.filter(program=own_program).values_list("position", flat=True)) == [1]


def test_a_save_of_fifty_edits_is_one_transaction_one_change_set_and_one_undo(
    coach, coach_client, own_program
):
    tree = page_tree(own_program)
    new = 0
    for week in tree["weeks"]:
        for session in week["sessions"]:
            for index, row in enumerate(session["exercises"]):
                row["fields"]["reps"] = f"{5 + index}"
                row["fields"]["rest_seconds"] = str(60 + index)
            for _ in range(4):
                new += 1
                session["exercises"].append(new_exercise(f"new-{new}", f"Carry {new}"))
    tree["weeks"][0]["sessions"][0]["exercises"][:4] = tree["weeks"][0]["sessions"][0]["exercises"][
        3::-1
    ]
    before = {e.pk: (e.reps, e.rest_seconds) for e in Exercise.objects.all()}
    preview = send(coach_client, own_program, "preview", tree).json()
    assert preview["ok"] and preview["html"].count('<li class="item"') >= 50  # one per call
    apply(coach_client, own_program, tree)
    [change_set] = ChangeSet.objects.all()
    [revision] = journal.parts(change_set, ProgramRevision)
    assert revision.actor == coach
    assert len(revision.changes) == 48  # 24 exercises changed, 24 added: one revision
    assert Exercise.objects.filter(name__startswith="Carry").count() == 24

    journal.undo(change_set_of(revision), coach)
    assert {e.pk: (e.reps, e.rest_seconds) for e in Exercise.objects.all()} == before
    assert not Exercise.objects.filter(name__startswith="Carry").exists()


def test_one_bad_edit_among_fifty_writes_nothing_and_names_the_row(coach_client, own_program):
    tree = page_tree(own_program)
    for week in tree["weeks"]:
        for session in week["sessions"]:
            for row in session["exercises"]:
                row["fields"]["notes"] = "heavier"
    bad = tree["weeks"][1]["sessions"][2]["exercises"][3]
    bad["fields"]["working_sets"] = "99"  # the engine allows at most 50
    before = Program.objects.get(pk=own_program.pk).version
    answer = send(coach_client, own_program, "apply", tree).json()
    assert not answer["applied"]
    [problem] = answer["problems"]
    assert problem["key"] == bad["key"]
    assert "must be at most 50" in problem["message"] and "workingSets" not in problem["message"]
    assert Exercise.objects.filter(notes="heavier").count() == 0
    assert Program.objects.get(pk=own_program.pk).version == before
    assert ChangeSet.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("working_sets", "three", "Sets must be a whole number"),
        ("rest_seconds", "", "Rest (s) must be a whole number"),
    ],
)
def test_typing_mistakes_come_back_in_words_on_the_field(
    coach_client, own_program, field, value, words
):
    tree = page_tree(own_program)
    row = tree["weeks"][0]["sessions"][0]["exercises"][0]
    row["fields"][field] = value
    answer = send(coach_client, own_program, "preview", tree).json()
    assert answer["problems"] == [
        {"key": row["key"], "field": field, "message": answer["problems"][0]["message"]}
    ]
    assert answer["problems"][0]["message"].startswith(words)


def test_a_week_ending_before_it_starts_is_refused_in_words(coach_client, own_program):
    tree = page_tree(own_program)
    tree["weeks"][0]["fields"]["end_date"] = "2026-10-01"
    answer = send(coach_client, own_program, "preview", tree).json()
    [problem] = answer["problems"]
    assert problem["key"] == tree["weeks"][0]["key"]
    assert "IntegrityError" not in answer["html"] and "constraint" not in answer["html"]
    assert "before" in problem["message"]


def test_an_exercise_with_logged_sets_is_not_moved_to_another_session(coach_client, own_program):
    exercise = session_at(own_program, 1, 1).exercises.get(position=1)
    SetResultFactory(exercise=exercise)
    tree = page_tree(own_program)
    row = tree["weeks"][0]["sessions"][0]["exercises"].pop(0)
    tree["weeks"][0]["sessions"][1]["exercises"].append(row)
    answer = send(coach_client, own_program, "apply", tree).json()
    assert not answer["applied"]
    assert "has logged sets" in answer["problems"][0]["message"]
    assert exercise.sets.count() == 1 and Exercise.objects.get(pk=exercise.pk).position == 1


def test_the_journals_undo_puts_a_dragged_exercise_back(coach, coach_client, own_program):
    tree = page_tree(own_program)
    moved = tree["weeks"][0]["sessions"][0]["exercises"].pop(0)
    tree["weeks"][0]["sessions"][1]["exercises"].append(moved)
    apply(coach_client, own_program, tree)
    [revision] = ProgramRevision.objects.all()
    response = coach_client.post(
        f"/admin/programs/program/{own_program.pk}/history/{revision.pk}/undo/"
    )
    assert response.status_code == 302
    assert names(own_program, 1, 1) == [
        "Back Squat",
        "Bench Press",
        "Barbell Row",
        "Romanian Deadlift",
    ]
    assert len(names(own_program, 1, 2)) == 4
