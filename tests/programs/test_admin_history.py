"""The program's History in the admin: every admin save is a revision; coaches undo and restore,
staff only read, another coach gets 404; ProgramRevision is listed read-only."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from programs import services
from programs.admin import ensure_staff_group
from programs.models import Exercise, Program, ProgramRevision, SetResult, Week
from tests.factories import SetResultFactory, UserFactory, build_program
from tests.programs.admin_html import form_data
from tests.programs.history_helpers import export_without_version, recorded

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_program(coach):
    """Overrides conftest's: 2 × 2 × 3, and every exercise has a logged set."""
    program = build_program(weeks=2, sessions=2, exercises=3, coach=coach, name="Ann's block")
    for exercise in Exercise.objects.filter(session__week__program=program):
        SetResultFactory(exercise=exercise)
    return program


@pytest.fixture
def other_program(other_coach):
    """Overrides conftest's: a 1 × 1 × 1 program with the factory's default name."""
    return build_program(weeks=1, sessions=1, exercises=1, coach=other_coach)


@pytest.fixture
def staff_client(client):
    staff = UserFactory(username="auditor", is_staff=True)
    staff.groups.add(ensure_staff_group())
    client.force_login(staff)
    return client


def history_url(program):
    return reverse("admin:programs_program_history", args=[program.pk])


def action_url(program, revision, action):
    return reverse("admin:programs_program_revision_action", args=[program.pk, revision.pk, action])


def edit_exercise_in_admin(client, exercise, **values):
    url = reverse("admin:programs_exercise_change", args=[exercise.pk])
    data = form_data(client.get(url).content.decode(), form_id="exercise_form")
    data.update(values)
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:500]


def exercise_at(program, week, session, position):
    return Exercise.objects.get(
        session__week__program=program,
        session__week__position=week,
        session__position=session,
        position=position,
    )


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- recording ----------------------------------------------------------------------------------


def test_an_admin_edit_is_recorded_as_a_revision_by_the_coach(coach_client, coach, own_program):
    exercise = exercise_at(own_program, 2, 1, 3)
    edit_exercise_in_admin(coach_client, exercise, reps="5", target_load="225 lbs")
    revision = ProgramRevision.objects.get(program=own_program)
    assert (revision.actor, revision.via, revision.number) == (coach, "admin", 1)
    assert (
        revision.summary
        == f"Changed exercise “{Exercise.objects.get(pk=exercise.pk)}” in the admin."
    )
    assert revision.program_version == Program.objects.get(pk=own_program.pk).version == 2
    assert sorted(revision.changes[0]["after"]) == ["reps", "target_load"]


def test_deleting_a_week_in_the_admin_is_one_revision_with_everything_below_it(
    coach_client, own_program
):
    week = own_program.weeks.get(position=1)
    response = coach_client.post(
        reverse("admin:programs_week_delete", args=[week.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    revision = ProgramRevision.objects.get(program=own_program)
    deleted = {c["model"] for c in revision.changes if c["op"] == "delete"}
    assert deleted == {"week", "session", "exercise", "setresult"}


def test_saving_an_unchanged_page_records_no_revision(coach_client, own_program):
    exercise = exercise_at(own_program, 1, 1, 1)
    edit_exercise_in_admin(coach_client, exercise)
    assert not ProgramRevision.objects.exists()


# --- the History page ---------------------------------------------------------------------------


def test_history_lists_revisions_newest_first_with_who_how_and_the_diff(
    coach_client, coach, own_program
):
    with recorded(own_program, via="chat", summary="Heavier squats") as first:
        services.object_update(obj=exercise_at(own_program, 1, 1, 1), fields={"reps": "5"})
    edit_exercise_in_admin(coach_client, exercise_at(own_program, 2, 2, 2), notes="Slow eccentric")
    response = coach_client.get(history_url(own_program))
    assert response.status_code == 200
    page = response.content.decode()
    assert page.index('id="revision-2"') < page.index('id="revision-1"')
    assert "Heavier squats" in page and "Chat" in page and "Admin" in page
    assert "coach-ann" in page
    assert "Week 1, Session 1, Exercise 1: reps 8-10 → 5" in page
    assert "Week 2, Session 2, Exercise 2: notes (empty) → Slow eccentric" in page
    assert page.count('value="Restore"') == 2 and page.count('value="Undo"') == 2
    assert first.revision.number == 1


def test_user_written_text_in_history_is_escaped(coach_client, own_program):
    with recorded(own_program, summary="<script>alert(1)</script>"):
        services.object_update(
            obj=exercise_at(own_program, 1, 1, 1), fields={"name": "<b>Squat</b>"}
        )
    page = coach_client.get(history_url(own_program)).content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    assert "<b>Squat</b>" not in page and "&lt;b&gt;Squat&lt;/b&gt;" in page


def test_coach_restores_a_removed_week_with_its_logged_sets(coach_client, own_program):
    with recorded(own_program) as first:
        services.object_update(obj=own_program, fields={"name": "Ann's block v2"})
    kept = export_without_version(own_program)
    week = own_program.weeks.get(position=2)
    coach_client.post(reverse("admin:programs_week_delete", args=[week.pk]), {"post": "yes"})
    assert not Week.objects.filter(pk=week.pk).exists()
    response = coach_client.post(action_url(own_program, first.revision, "restore"))
    assert response.status_code == 302 and response.url == history_url(own_program)
    assert export_without_version(own_program) == kept
    assert SetResult.objects.filter(exercise__session__week=week).count() == 6
    restore = ProgramRevision.objects.get(program=own_program, number=3)
    assert restore.via == "restore"
    assert "Restored the program as it was after change #1" in messages_of(response)[-1]


def test_coach_undoes_an_admin_edit(coach_client, own_program):
    before = export_without_version(own_program)
    edit_exercise_in_admin(coach_client, exercise_at(own_program, 1, 2, 3), reps="20")
    revision = ProgramRevision.objects.get(program=own_program)
    response = coach_client.post(action_url(own_program, revision, "undo"))
    assert response.status_code == 302
    assert export_without_version(own_program) == before
    assert ProgramRevision.objects.get(undoes=revision).via == "undo"
    page = coach_client.get(history_url(own_program)).content.decode()
    assert "Undone by change #2." in page


def test_undo_refused_by_a_later_change_shows_its_message_and_changes_nothing(
    coach_client, own_program
):
    exercise = exercise_at(own_program, 1, 1, 1)
    edit_exercise_in_admin(coach_client, exercise, reps="6")
    edit_exercise_in_admin(coach_client, exercise, reps="4")
    first = ProgramRevision.objects.get(program=own_program, number=1)
    response = coach_client.post(action_url(own_program, first, "undo"), follow=True)
    page = response.content.decode()
    assert "Can&#x27;t undo: change #2 (admin, coach-ann, " in page
    assert "changed Week 1, Session 1, Exercise 1 since." in page
    assert Exercise.objects.get(pk=exercise.pk).reps == "4"
    assert ProgramRevision.objects.filter(program=own_program).count() == 2


def test_undo_and_restore_need_a_post(coach_client, own_program):
    edit_exercise_in_admin(coach_client, exercise_at(own_program, 1, 1, 1), reps="6")
    revision = ProgramRevision.objects.get(program=own_program)
    assert coach_client.get(action_url(own_program, revision, "undo")).status_code == 405
    assert coach_client.get(action_url(own_program, revision, "restore")).status_code == 405
    assert coach_client.post(action_url(own_program, revision, "explode")).status_code == 404


def test_undo_needs_the_csrf_token(coach, own_program):
    with recorded(own_program) as change:
        services.object_update(obj=own_program, fields={"name": "x"})
    client = Client(enforce_csrf_checks=True)
    client.force_login(coach)
    assert client.post(action_url(own_program, change.revision, "undo")).status_code == 403
    assert Program.objects.get(pk=own_program.pk).name == "x"


def test_staff_read_the_history_but_cannot_undo_or_restore(staff_client, own_program):
    with recorded(own_program, summary="Renamed") as change:
        services.object_update(obj=own_program, fields={"name": "Renamed block"})
    page = staff_client.get(history_url(own_program)).content.decode()
    assert "Renamed" in page and 'value="Restore"' not in page and 'value="Undo"' not in page
    assert staff_client.post(action_url(own_program, change.revision, "undo")).status_code == 403
    assert staff_client.post(action_url(own_program, change.revision, "restore")).status_code == 403
    assert Program.objects.get(pk=own_program.pk).name == "Renamed block"


def test_another_coachs_program_history_and_actions_answer_404(coach_client, other_program):
    with recorded(other_program) as change:
        services.object_update(obj=other_program, fields={"name": "Bob's"})
    assert coach_client.get(history_url(other_program)).status_code == 404
    assert coach_client.post(action_url(other_program, change.revision, "undo")).status_code == 404
    assert (
        coach_client.post(action_url(other_program, change.revision, "restore")).status_code == 404
    )
    assert Program.objects.get(pk=other_program.pk).name == "Bob's"


def test_a_revision_of_another_program_is_404_under_this_program(coach_client, own_program):
    other = build_program(weeks=1, sessions=1, exercises=1, coach=own_program.coach)
    with recorded(other) as change:
        services.object_update(obj=other, fields={"name": "Other"})
    assert coach_client.post(action_url(own_program, change.revision, "undo")).status_code == 404


# --- ProgramRevision in the admin ---------------------------------------------------------------


def test_revisions_are_listed_read_only_and_scoped(coach_client, own_program, other_program):
    for program in (own_program, other_program):
        with recorded(program):
            services.object_update(obj=program, fields={"name": f"{program.pk} renamed"})
    response = coach_client.get(reverse("admin:programs_programrevision_changelist"))
    assert response.status_code == 200
    assert [r.program_id for r in response.context["cl"].result_list] == [own_program.pk]
    own = ProgramRevision.objects.get(program=own_program)
    other = ProgramRevision.objects.get(program=other_program)
    page = coach_client.get(reverse("admin:programs_programrevision_change", args=[own.pk]))
    assert page.status_code == 200
    assert "Program: name Ann&#x27;s block →" in page.content.decode()
    assert 'name="_save"' not in page.content.decode()
    assert (
        coach_client.get(
            reverse("admin:programs_programrevision_change", args=[other.pk])
        ).status_code
        == 404
    )
    assert coach_client.get(reverse("admin:programs_programrevision_add")).status_code == 403


def test_staff_see_every_revision(staff_client, own_program, other_program):
    for program in (own_program, other_program):
        with recorded(program):
            services.object_update(obj=program, fields={"name": f"{program.pk} renamed"})
    response = staff_client.get(reverse("admin:programs_programrevision_changelist"))
    assert len(response.context["cl"].result_list) == 2
